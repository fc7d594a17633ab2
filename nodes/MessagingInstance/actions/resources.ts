import type { Resource } from './types';

export interface ResourceEntry {
	name: string;
	value: Resource;
	description: string;
	/** The operation a new node shows for this resource. */
	defaultOperation: string;
}

/**
 * Resources in the order of the dropdown, most used first: n8n's node creator lists the
 * actions in this order too. One without operations is not shown.
 */
export const RESOURCES: readonly ResourceEntry[] = [
	{ name: 'Message', value: 'message', description: 'Send texts, media, contacts, polls, lists, buttons, locations, statuses and reactions; download, read, delete and list messages', defaultOperation: 'sendText' },
	{ name: 'Chat', value: 'chat', description: 'Chats: list, archive, mark unread, check numbers, edit messages, presence', defaultOperation: 'checkNumbers' },
	{ name: 'Contact', value: 'contact', description: 'Contacts: list, profiles, pictures, block (v2 servers)', defaultOperation: 'getMany' },
	{ name: 'Group', value: 'group', description: 'Groups: create, participants, settings, invite links (v2 servers)', defaultOperation: 'getMany' },
	{ name: 'Profile', value: 'profile', description: 'The account of the instance: name, status, picture, privacy, business profile (v2 servers)', defaultOperation: 'updateName' },
	{ name: 'Instance', value: 'instance', description: 'Instances: create, connect by QR code, state, restart, log out (v2 servers)', defaultOperation: 'getState' },
	{ name: 'Label', value: 'label', description: 'Labels of chats (v2 servers)', defaultOperation: 'getMany' },
	{ name: 'Setting', value: 'settings', description: 'Behaviour of the instance', defaultOperation: 'set' },
	{ name: 'Webhook', value: 'webhook', description: 'Where the instance delivers its events', defaultOperation: 'set' },
	{ name: 'Template', value: 'template', description: 'Meta message templates of Cloud API instances (v2 servers)', defaultOperation: 'getMany' },
	{ name: 'Business', value: 'business', description: 'WhatsApp Business catalogs: products and collections (v2 servers)', defaultOperation: 'getCatalog' },
	{ name: 'Proxy', value: 'proxy', description: 'The proxy the instance connects through (v2 servers)', defaultOperation: 'set' },
	{ name: 'Chatwoot', value: 'chatwoot', description: 'The instance\'s Chatwoot inbox (v2 servers)', defaultOperation: 'set' },
	{ name: 'Storage', value: 'storage', description: 'Media the server stored in its S3 storage (v2 servers)', defaultOperation: 'getMedia' },
	{ name: 'Chatbot', value: 'chatbot', description: 'Bots of the server\'s chatbot platforms (OpenAI, Typebot, Dify, Flowise, n8n, EvoAI, Evolution Bot) (v2 servers)', defaultOperation: 'getMany' },
	{ name: 'Event Integration', value: 'eventIntegration', description: 'Event buses the instance\'s events go to: WebSocket, RabbitMQ, SQS, NATS, Pusher, Kafka (v2 servers)', defaultOperation: 'get' },
];

/** How a sentence names an operation: its resource and its name, e.g. "Group → Update Member Add Mode". */
export function operationTitle(operation: { resource: Resource; name: string }): string {
	const resource = RESOURCES.find((entry) => entry.value === operation.resource)?.name ?? operation.resource;
	return `${resource} → ${operation.name}`;
}
