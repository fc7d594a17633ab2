import type { INodeProperties } from 'n8n-workflow';

import { archiveChat } from './chat/archive';
import { checkNumbers } from './chat/checkNumbers';
import { sendPresence } from './chat/sendPresence';
import { updateMessage } from './chat/updateMessage';
import { sendButtons } from './message/sendButtons';
import { sendList } from './message/sendList';
import { sendLocation } from './message/sendLocation';
import { sendReaction } from './message/sendReaction';
import { sendStatus } from './message/sendStatus';
import { sendText } from './message/sendText';
import { setSettings } from './settings/set';
import type { Operation, Resource } from './types';
import { setWebhook } from './webhook/set';

export const OPERATIONS: readonly Operation[] = [
	sendText,
	sendList,
	sendButtons,
	sendLocation,
	sendStatus,
	sendReaction,
	archiveChat,
	checkNumbers,
	updateMessage,
	sendPresence,
	setSettings,
	setWebhook,
];

const RESOURCES: Array<{ name: string; value: Resource; description: string }> = [
	{ name: 'Chat', value: 'chat', description: 'Archive chats, check numbers, edit messages, show presence' },
	{ name: 'Message', value: 'message', description: 'Send texts, lists, buttons, locations, statuses and reactions' },
	{ name: 'Setting', value: 'settings', description: 'Behaviour of the instance' },
	{ name: 'Webhook', value: 'webhook', description: 'Where the instance delivers its events' },
];

const byKey = new Map(OPERATIONS.map((operation) => [`${operation.resource}:${operation.value}`, operation]));

export function findOperation(resource: string, operation: string): Operation | undefined {
	return byKey.get(`${resource}:${operation}`);
}

function operationOptions(resource: Resource) {
	return OPERATIONS.filter((operation) => operation.resource === resource)
		.map(({ name, value, action, description }) => ({ name, value, action, description }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

const operationProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chat'] } },
		options: operationOptions('chat'),
		default: 'checkNumbers',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: operationOptions('message'),
		default: 'sendText',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['settings'] } },
		options: operationOptions('settings'),
		default: 'set',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: operationOptions('webhook'),
		default: 'set',
	},
];

function shownFor(operation: Operation, property: INodeProperties): INodeProperties {
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: {
				...property.displayOptions?.show,
				resource: [operation.resource],
				operation: [operation.value],
			},
		},
	};
}

/** The node's whole parameter list: resource, operations, instance, then each operation's fields. */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
		default: 'message',
	},
	...operationProperties,
	{
		displayName: 'Instance',
		name: 'instance',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'my-instance',
		description: 'Name of the instance on the server (as shown in its manager)',
	},
	...OPERATIONS.flatMap((operation) => operation.properties.map((property) => shownFor(operation, property))),
];
