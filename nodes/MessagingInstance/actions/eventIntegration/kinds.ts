import type { INodeProperties } from 'n8n-workflow';

import type { PlatformField } from '../chatbot/platforms';
import { V2_EVENTS } from '../../../shared/dialect';

/**
 * The event buses the server can send an instance's events to, as data (source: tags 2.3.7
 * and 2.4.0-rc2, src/api/integrations/event/): each is set with `{ <kind>: { enabled,
 * events, …its own fields } }`. The server connects to the bus itself (its address comes from
 * the server's environment); only Pusher takes the connection from the request.
 */
export interface EventBus {
	value: string;
	name: string;
	/** The server's environment switch: with it off, the routes answer 2xx with an empty body. */
	serverSwitch: string;
	fields: PlatformField[];
}

const pusherText = (displayName: string, name: string, description: string, placeholder: string): PlatformField => ({
	property: { displayName, name, type: 'string', default: '', required: true, placeholder, description },
	format: 'text',
	required: true,
});

export const EVENT_BUSES: readonly EventBus[] = [
	{ value: 'websocket', name: 'WebSocket', serverSwitch: 'WEBSOCKET_ENABLED', fields: [] },
	{ value: 'rabbitmq', name: 'RabbitMQ', serverSwitch: 'RABBITMQ_ENABLED', fields: [] },
	{ value: 'sqs', name: 'Amazon SQS', serverSwitch: 'SQS_ENABLED (and SQS_GLOBAL_ENABLED off)', fields: [] },
	{ value: 'nats', name: 'NATS', serverSwitch: 'NATS_ENABLED', fields: [] },
	{
		value: 'pusher',
		name: 'Pusher',
		serverSwitch: 'PUSHER_ENABLED',
		fields: [
			pusherText('App ID', 'appId', 'ID of the Pusher app', '1234567'),
			pusherText('Key', 'key', 'Key of the Pusher app', 'a1b2c3d4e5f6'),
			{ property: { displayName: 'Secret', name: 'secret', type: 'string', typeOptions: { password: true }, default: '', required: true, description: 'Secret of the Pusher app; never shown in the output' }, format: 'secret', required: true },
			pusherText('Cluster', 'cluster', 'Cluster of the Pusher app', 'eu'),
			{ property: { displayName: 'Use TLS', name: 'useTLS', type: 'boolean', default: true, description: 'Whether the server talks to Pusher over TLS' }, format: 'option' },
		],
	},
	{ value: 'kafka', name: 'Kafka', serverSwitch: 'KAFKA_ENABLED', fields: [] },
];

export function eventBusOf(kind: string): EventBus | undefined {
	return EVENT_BUSES.find((bus) => bus.value === kind);
}

/**
 * The events a bus may carry: the server's one event list (its EventController's), the same a
 * v2 webhook takes; 2.4 added MESSAGING_HISTORY_SET.
 */
export const BUS_EVENTS = V2_EVENTS;

export const EVENT_KIND_LABEL = 'Event Bus';

export function eventKindProperty(): INodeProperties {
	return {
		displayName: EVENT_KIND_LABEL,
		name: 'kind',
		type: 'options',
		noDataExpression: true,
		options: EVENT_BUSES.map((bus) => ({ name: bus.name, value: bus.value })),
		default: 'websocket',
		description: 'Where the server sends the instance\'s events',
	};
}
