import type { INodeProperties } from 'n8n-workflow';

import { archiveChat } from './chat/archive';
import { changeChatbotStatus } from './chatbot/changeStatus';
import { createChatbot } from './chatbot/create';
import { deleteChatbot } from './chatbot/delete';
import { getChatbot } from './chatbot/get';
import { getManyChatbots } from './chatbot/getMany';
import { getChatbotSessions } from './chatbot/getSessions';
import { getChatbotSettings } from './chatbot/getSettings';
import { ignoreChatbotChat } from './chatbot/ignoreChat';
import { createOpenAiCredential, deleteOpenAiCredential, getManyOpenAiCredentials, getOpenAiModels } from './chatbot/openAiCredentials';
import { startTypebot } from './chatbot/start';
import { updateChatbot } from './chatbot/update';
import { updateChatbotSettings } from './chatbot/updateSettings';
import { getCatalog } from './business/getCatalog';
import { getCollections } from './business/getCollections';
import { getChat } from './chat/get';
import { getChatwoot } from './chatwoot/get';
import { setChatwoot } from './chatwoot/set';
import { acceptInvite } from './group/acceptInvite';
import { getInviteInfo } from './group/getInviteInfo';
import { getReceipts } from './message/getReceipts';
import { sendTemplate } from './message/sendTemplate';
import { getBusinessProfile } from './profile/getBusinessProfile';
import { getPrivacy } from './profile/getPrivacy';
import { removeProfilePicture } from './profile/removePicture';
import { updateProfileName } from './profile/updateName';
import { updateProfilePicture } from './profile/updatePicture';
import { updatePrivacy } from './profile/updatePrivacy';
import { updateProfileStatus } from './profile/updateStatus';
import { getProxy } from './proxy/get';
import { setProxy } from './proxy/set';
import { getMedia } from './storage/getMedia';
import { getMediaUrl } from './storage/getMediaUrl';
import { createTemplate } from './template/create';
import { deleteTemplate } from './template/delete';
import { getManyTemplates } from './template/getMany';
import { updateTemplate } from './template/update';
import { checkNumbers } from './chat/checkNumbers';
import { getManyChats } from './chat/getMany';
import { getManyChannels } from './chat/getManyChannels';
import { markChatUnread } from './chat/markUnread';
import { sendPresence } from './chat/sendPresence';
import { updateMessage } from './chat/updateMessage';
import { getManyContacts } from './contact/getMany';
import { getProfile } from './contact/getProfile';
import { getProfilePicture } from './contact/getProfilePicture';
import { updateBlock } from './contact/updateBlock';
import { createGroup } from './group/create';
import { getGroup } from './group/get';
import { getInviteCode } from './group/getInviteCode';
import { getManyGroups } from './group/getMany';
import { getParticipants } from './group/getParticipants';
import { leaveGroup } from './group/leave';
import { revokeInviteCode } from './group/revokeInviteCode';
import { sendInvite } from './group/sendInvite';
import { setEphemeral } from './group/setEphemeral';
import { updateDescription } from './group/updateDescription';
import { updateMemberAddMode } from './group/updateMemberAddMode';
import { updateParticipants } from './group/updateParticipants';
import { updatePicture } from './group/updatePicture';
import { updateSetting } from './group/updateSetting';
import { updateSubject } from './group/updateSubject';
import { connectInstance } from './instance/connect';
import { createInstance } from './instance/create';
import { deleteInstance } from './instance/delete';
import { getManyInstances } from './instance/getMany';
import { getState } from './instance/getState';
import { logoutInstance } from './instance/logout';
import { restartInstance } from './instance/restart';
import { setInstancePresence } from './instance/setPresence';
import { addLabelToChat } from './label/addToChat';
import { getManyLabels } from './label/getMany';
import { removeLabelFromChat } from './label/removeFromChat';
import { deleteMessage } from './message/delete';
import { collectBurst } from './message/collectBurst';
import { downloadMedia } from './message/downloadMedia';
import { getManyMessages } from './message/getMany';
import { getPollVotes } from './message/getPollVotes';
import { markAsPlayed } from './message/markAsPlayed';
import { markAsRead } from './message/markAsRead';
import { sendAudio } from './message/sendAudio';
import { sendButtons } from './message/sendButtons';
import { sendCarousel } from './message/sendCarousel';
import { sendContact } from './message/sendContact';
import { sendList } from './message/sendList';
import { sendLocation } from './message/sendLocation';
import { sendMedia } from './message/sendMedia';
import { sendAndWait } from './message/sendAndWait';
import { sendPoll } from './message/sendPoll';
import { sendReaction } from './message/sendReaction';
import { sendStatus } from './message/sendStatus';
import { sendSticker } from './message/sendSticker';
import { sendText } from './message/sendText';
import { sendVideoNote } from './message/sendVideoNote';
import { accountNotice, sendingProperty } from './message/sending/options';
import { getEventIntegration } from './eventIntegration/get';
import { setEventIntegration } from './eventIntegration/set';
import { getSettings } from './settings/get';
import { setSettings } from './settings/set';
import { fieldLabels } from './parameters';
import type { FieldLabels } from './parameters';
import { picker } from '../../shared/pickers';
import { RESOURCES, type ResourceEntry } from './resources';
import type { Operation, Resource } from './types';
import { getWebhook } from './webhook/get';
import { setWebhook } from './webhook/set';

/**
 * Every operation of the node: adding one is a file, its import and one line here, at the
 * place it should show. This order is each resource's dropdown, and it follows the path a user
 * walks with the resource:
 *   1. make it or set it up: Create, Connect, Set, Accept Invite; for messages, Send (most used first);
 *   2. look at it: Get before Get Many, then the other reads (Check Numbers, Get Participants…);
 *   3. use and change it: Update, Add, Send Invite, Mark, Archive, Restart…;
 *   4. undo or end it: Remove, Revoke, Leave, Log Out, Delete, last.
 * A resource with parts (Chatbot: the bot, its settings, its OpenAI credentials) walks each part
 * in turn, the thing itself first. The order is display only: a resource's default operation
 * (resources.ts) stays what it was, wherever it is listed, since a saved node that kept its
 * default stores no operation. test/contract/operationOrder.test.ts holds the rule.
 */
export const OPERATIONS: readonly Operation[] = [
	// Message
	sendText,
	sendMedia,
	sendAndWait,
	sendAudio,
	sendLocation,
	sendContact,
	sendReaction,
	sendPoll,
	sendList,
	sendButtons,
	sendCarousel,
	sendSticker,
	sendVideoNote,
	sendStatus,
	sendTemplate,
	getManyMessages,
	getPollVotes,
	getReceipts,
	downloadMedia,
	collectBurst,
	markAsRead,
	markAsPlayed,
	deleteMessage,
	// Chat
	checkNumbers,
	getChat,
	getManyChats,
	getManyChannels,
	sendPresence,
	updateMessage,
	markChatUnread,
	archiveChat,
	// Contact
	getManyContacts,
	getProfile,
	getProfilePicture,
	updateBlock,
	// Group
	createGroup,
	acceptInvite,
	getGroup,
	getManyGroups,
	getParticipants,
	getInviteCode,
	getInviteInfo,
	updateSubject,
	updateDescription,
	updatePicture,
	updateSetting,
	updateMemberAddMode,
	setEphemeral,
	updateParticipants,
	sendInvite,
	revokeInviteCode,
	leaveGroup,
	// Profile
	getBusinessProfile,
	getPrivacy,
	updateProfileName,
	updateProfileStatus,
	updateProfilePicture,
	updatePrivacy,
	removeProfilePicture,
	// Instance
	createInstance,
	connectInstance,
	getState,
	getManyInstances,
	setInstancePresence,
	restartInstance,
	logoutInstance,
	deleteInstance,
	// Label
	getManyLabels,
	addLabelToChat,
	removeLabelFromChat,
	// Setting
	setSettings,
	getSettings,
	// Webhook
	setWebhook,
	getWebhook,
	// Template
	createTemplate,
	getManyTemplates,
	updateTemplate,
	deleteTemplate,
	// Business
	getCatalog,
	getCollections,
	// Proxy
	setProxy,
	getProxy,
	// Chatwoot
	setChatwoot,
	getChatwoot,
	// Storage
	getMedia,
	getMediaUrl,
	// Chatbot
	createChatbot,
	getChatbot,
	getManyChatbots,
	getChatbotSessions,
	updateChatbot,
	changeChatbotStatus,
	ignoreChatbotChat,
	startTypebot,
	deleteChatbot,
	getChatbotSettings,
	updateChatbotSettings,
	createOpenAiCredential,
	getManyOpenAiCredentials,
	getOpenAiModels,
	deleteOpenAiCredential,
	// Event Integration
	setEventIntegration,
	getEventIntegration,
];

/** The operations of a resource in dropdown order: their order in OPERATIONS. */
export function operationsInOrder(resource: Resource): Operation[] {
	return OPERATIONS.filter((operation) => operation.resource === resource);
}

const keyOf = (resource: string, operation: string) => `${resource}:${operation}`;

const byKey = new Map(OPERATIONS.map((operation) => [keyOf(operation.resource, operation.value), operation]));

export function findOperation(resource: string, operation: string): Operation | undefined {
	return byKey.get(keyOf(resource, operation));
}

const shownResources = RESOURCES.filter((resource) => OPERATIONS.some((operation) => operation.resource === resource.value));

function operationDropdown(resource: ResourceEntry): INodeProperties {
	const dropdown: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: operationsInOrder(resource.value).map(({ name, value, action, description }) => ({ name, value, action, description })),
		default: '',
	};
	// Set apart from the literal: the value comes from the resource table.
	dropdown.default = resource.defaultOperation;
	return dropdown;
}

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

const INSTANCE_FIELD: INodeProperties = {
	displayName: 'Instance',
	name: 'instance',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'my-instance',
	description: 'Name of the instance on the server (as shown in its manager)',
};

/**
 * An operation's fields as the editor shows them: its own, and what the registry adds to every
 * operation that sends a message (its notice where WhatsApp does not show it everywhere, the
 * Sending options).
 */
export function fieldsOf(operation: Operation): INodeProperties[] {
	const send = operation.sendsMessage;
	return send ? [...accountNotice(send), ...operation.properties, sendingProperty(send)] : operation.properties;
}

const labelsByOperation = new Map(OPERATIONS.map((operation) => [operation, fieldLabels([INSTANCE_FIELD, ...fieldsOf(operation)])]));

/** The labels of an operation's fields (and the Instance), as its errors name them. */
export function labelsOf(operation: Operation): FieldLabels {
	return labelsByOperation.get(operation) ?? fieldLabels([INSTANCE_FIELD, ...fieldsOf(operation)]);
}

/**
 * The Instance field. Version 1 stores the name as text; version 2 stores a picker value
 * (`{ __rl, mode, value }`), so workflows saved with version 1 keep their text field. Routes
 * of the whole server have none: since n8n hides a field when any one `hide` rule matches,
 * the field is shown by `show` rules instead (all keys of one rule must match), one rule
 * for the resources without such routes and one per resource with them.
 */
function instanceProperties(): INodeProperties[] {
	const typed = INSTANCE_FIELD;
	const picked = picker({
		displayName: INSTANCE_FIELD.displayName,
		name: INSTANCE_FIELD.name,
		description: INSTANCE_FIELD.description ?? '',
		searchMethod: 'searchInstances',
		typedMode: { displayName: 'By Name', name: 'name', placeholder: 'my-instance' },
	});
	const withServerRoutes = new Set(OPERATIONS.filter((operation) => operation.scope === 'server').map((operation) => operation.resource));
	const rules: Array<Record<string, string[]>> = [
		{ resource: shownResources.map((resource) => resource.value).filter((resource) => !withServerRoutes.has(resource)) },
		...[...withServerRoutes].map((resource) => ({
			resource: [resource],
			operation: OPERATIONS.filter((operation) => operation.resource === resource && operation.scope !== 'server').map((operation) => operation.value),
		})),
	];
	return rules.flatMap((rule) => [
		{ ...typed, displayOptions: { show: { ...rule, '@version': [1] } } },
		{ ...picked, displayOptions: { show: { ...rule, '@version': [{ _cnd: { gte: 2 } }] } } },
	]);
}

/**
 * The node's subtitle on the canvas: the operation's label and its resource ("Send Text ·
 * Message"), looked up in a table made from the registry, since the stored values are code.
 */
export const nodeSubtitle = `={{ (${JSON.stringify(
	Object.fromEntries(
		OPERATIONS.map((operation) => [
			keyOf(operation.resource, operation.value),
			`${operation.name} · ${RESOURCES.find((resource) => resource.value === operation.resource)?.name ?? operation.resource}`,
		]),
	),
)})[$parameter["resource"] + ":" + $parameter["operation"]] }}`;

/** The node's whole parameter list: resource, operations, instance, then each operation's fields. */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: shownResources.map(({ name, value, description }) => ({ name, value, description })),
		default: 'message',
	},
	...shownResources.map(operationDropdown),
	...instanceProperties(),
	...OPERATIONS.flatMap((operation) => fieldsOf(operation).map((property) => shownFor(operation, property))),
];
