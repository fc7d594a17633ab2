/**
 * Request body schemas of the twelve endpoints, per dialect, following
 * shared/spec/messaging-instance-http-interface.md (the contract) and the dialect table of
 * shared/spec/server-behaviour.md. Error strings come from ./validate (jsonschema style).
 */
import type { Schema } from './validate';

export type Dialect = 'documented' | 'v2';

/** The 23 event names of the contract (section 6). */
export const DOCUMENTED_EVENTS = [
	'APPLICATION_STARTUP',
	'QRCODE_UPDATED',
	'MESSAGES_SET',
	'MESSAGES_UPSERT',
	'MESSAGES_UPDATE',
	'MESSAGES_DELETE',
	'SEND_MESSAGE',
	'CONTACTS_SET',
	'CONTACTS_UPSERT',
	'CONTACTS_UPDATE',
	'PRESENCE_UPDATE',
	'CHATS_SET',
	'CHATS_UPSERT',
	'CHATS_UPDATE',
	'CHATS_DELETE',
	'GROUPS_UPSERT',
	'GROUP_UPDATE',
	'GROUP_PARTICIPANTS_UPDATE',
	'CONNECTION_UPDATE',
	'CALL',
	'NEW_JWT_TOKEN',
	'FLOWBOT_START',
	'FLOWBOT_CHANGE_STATUS',
] as const;

const V2_DROPPED = new Set<string>(['NEW_JWT_TOKEN', 'FLOWBOT_START', 'FLOWBOT_CHANGE_STATUS']);

/** v2.x servers: the contract's names minus three, plus eleven of their own. */
export const V2_EVENTS: readonly string[] = [
	...DOCUMENTED_EVENTS.filter((e) => !V2_DROPPED.has(e)),
	'MESSAGES_EDITED',
	'SEND_MESSAGE_UPDATE',
	'LABELS_EDIT',
	'LABELS_ASSOCIATION',
	'TYPEBOT_START',
	'TYPEBOT_CHANGE_STATUS',
	'REMOVE_INSTANCE',
	'LOGOUT_INSTANCE',
	'INSTANCE_CREATE',
	'INSTANCE_DELETE',
	'STATUS_INSTANCE',
];

export function eventsOf(dialect: Dialect): readonly string[] {
	return dialect === 'v2' ? V2_EVENTS : DOCUMENTED_EVENTS;
}

export const PRESENCES = ['unavailable', 'available', 'composing', 'recording', 'paused'];

/**
 * `number`: digits with country code, optionally with `+`, spaces or dashes; or a JID
 * (`<digits>@s.whatsapp.net`, a group `<digits>[-<digits>]@g.us`). Anything else: Invalid format.
 */
export const NUMBER_PATTERN = '^(\\+?[ -]*[0-9][0-9 -]*|[0-9]+(-[0-9]+)?@(s\\.whatsapp\\.net|g\\.us))$';

const str: Schema = { type: 'string' };
const bool: Schema = { type: 'boolean' };
const num: Schema = { type: 'number' };
const numberField: Schema = { type: 'string', pattern: NUMBER_PATTERN, description: 'Invalid format' };
const delayField: Schema = { type: 'integer', minimum: 0, description: 'Enter a value in milliseconds' };

const messageKey = (required: string[]): Schema => ({
	type: 'object',
	properties: { remoteJid: str, fromMe: bool, id: str },
	required,
});

const commonProperties: Record<string, Schema> = {
	number: numberField,
	delay: delayField,
	linkPreview: bool,
	mentionsEveryOne: bool,
	mentioned: {
		type: 'array',
		uniqueItems: true,
		items: { type: 'string', pattern: '^\\d+', description: '"mentioned" must be an array of numeric strings' },
	},
	quoted: {
		type: 'object',
		properties: {
			key: messageKey(['id']),
			message: { type: 'object', properties: { conversation: str } },
		},
		required: ['key'],
	},
};

const sendBody = (own: Record<string, Schema>, required: string[]): Schema => ({
	type: 'object',
	properties: { ...own, ...commonProperties },
	required: ['number', ...required],
});

const listSections: Schema = {
	type: 'array',
	minItems: 1,
	items: {
		type: 'object',
		properties: {
			title: str,
			rows: {
				type: 'array',
				minItems: 1,
				items: {
					type: 'object',
					properties: { title: str, description: str, rowId: str },
					required: ['title', 'description', 'rowId'],
				},
			},
		},
		required: ['title', 'rows'],
	},
};

const V2_BUTTON_TYPES = ['reply', 'copy', 'url', 'call', 'pix'];
const v2ButtonNeeds: Record<string, string[]> = {
	reply: ['displayText', 'id'],
	copy: ['displayText', 'copyCode'],
	url: ['displayText', 'url'],
	call: ['displayText', 'phoneNumber'],
	pix: ['currency', 'name', 'keyType', 'key'],
};

/** v2 button: `type` required, and per type the fields that type needs. */
const v2Button: Schema = {
	type: 'object',
	properties: {
		type: { type: 'string', enum: V2_BUTTON_TYPES },
		displayText: str,
		id: str,
		copyCode: str,
		url: str,
		phoneNumber: str,
		currency: str,
		name: str,
		keyType: { type: 'string', enum: ['phone', 'email', 'cpf', 'cnpj', 'random'] },
		key: str,
	},
	required: ['type'],
	when: V2_BUTTON_TYPES.map((t) => ({ test: (b: Record<string, unknown>) => b.type === t, then: { required: v2ButtonNeeds[t] } })),
};

function webhookEvents(dialect: Dialect): Schema {
	return { type: 'array', minItems: 1, items: { type: 'string', enum: [...eventsOf(dialect)] } };
}

export type RouteName =
	| 'sendText'
	| 'sendList'
	| 'sendButtons'
	| 'sendLocation'
	| 'sendStatus'
	| 'sendReaction'
	| 'setSettings'
	| 'archiveChat'
	| 'checkNumbers'
	| 'updateMessage'
	| 'sendPresence'
	| 'setWebhook';

export function schemaFor(route: RouteName, dialect: Dialect): Schema {
	const v2 = dialect === 'v2';
	switch (route) {
		case 'sendText':
			return sendBody({ text: str }, ['text']);
		case 'sendList':
			return v2
				? sendBody(
						{ title: str, description: str, buttonText: str, footerText: str, sections: listSections },
						['title', 'description', 'buttonText', 'footerText', 'sections'],
					)
				: sendBody(
						{ title: str, description: str, buttonText: str, footerText: str, values: listSections },
						['title', 'description', 'buttonText', 'values'],
					);
		case 'sendButtons':
			return v2
				? sendBody(
						{ title: str, description: str, footer: str, buttons: { type: 'array', minItems: 1, items: v2Button } },
						['title', 'description', 'buttons'],
					)
				: sendBody(
						{
							title: str,
							description: str,
							footer: str,
							buttons: {
								type: 'array',
								minItems: 1,
								maxItems: 3,
								items: { type: 'object', properties: { title: str, displayText: str, id: str }, required: ['title', 'displayText', 'id'] },
							},
						},
						['title', 'description', 'buttons'],
					);
		case 'sendLocation':
			return sendBody(
				{ name: str, address: str, latitude: { type: 'number', minimum: -90, maximum: 90 }, longitude: { type: 'number', minimum: -180, maximum: 180 } },
				['name', 'address', 'latitude', 'longitude'],
			);
		case 'sendStatus':
			return {
				type: 'object',
				properties: {
					type: { type: 'string', enum: v2 ? ['text', 'image', 'audio', 'video'] : ['text', 'image', 'audio'] },
					content: str,
					caption: str,
					backgroundColor: str,
					font: num,
					allContacts: bool,
					statusJidList: {
						type: 'array',
						...(v2 ? { minItems: 1 } : {}),
						items: { type: 'string', pattern: NUMBER_PATTERN, description: 'Invalid format' },
					},
				},
				required: v2
					? ['type', 'content', 'caption', 'backgroundColor', 'font', 'allContacts']
					: ['type', 'content', 'caption', 'backgroundColor', 'font', 'allContacts', 'statusJidList'],
			};
		case 'sendReaction':
			return { type: 'object', properties: { key: messageKey([]), reaction: str } };
		case 'setSettings':
			return {
				type: 'object',
				properties: {
					rejectCall: bool,
					msgCall: str,
					groupsIgnore: bool,
					alwaysOnline: bool,
					readMessages: bool,
					readStatus: bool,
					syncFullHistory: bool,
				},
				required: ['rejectCall', 'msgCall', 'groupsIgnore', 'alwaysOnline', 'readMessages', 'readStatus', 'syncFullHistory'],
			};
		case 'archiveChat':
			return {
				type: 'object',
				properties: {
					lastMessage: { type: 'object', properties: { key: messageKey(['id', 'fromMe', 'remoteJid']) }, required: ['key'] },
					archive: bool,
					chat: { type: 'string', minLength: 1 },
				},
				required: ['lastMessage', 'archive', 'chat'],
			};
		case 'checkNumbers':
			return {
				type: 'object',
				properties: {
					numbers: { type: 'array', items: { type: 'string', pattern: NUMBER_PATTERN, description: 'Invalid format' } },
				},
				required: ['numbers'],
			};
		case 'updateMessage':
			return {
				type: 'object',
				properties: {
					number: v2 ? numberField : { type: 'integer', minimum: 1, description: 'Invalid format' },
					text: str,
					key: messageKey(['id', 'fromMe', 'remoteJid']),
				},
				required: ['number', 'text', 'key'],
			};
		case 'sendPresence':
			return v2
				? {
						type: 'object',
						properties: { number: numberField, presence: { type: 'string', enum: PRESENCES }, delay: delayField },
						required: ['number', 'presence', 'delay'],
					}
				: {
						type: 'object',
						properties: {
							number: numberField,
							options: {
								type: 'object',
								properties: { delay: delayField, presence: { type: 'string', enum: PRESENCES }, number: numberField },
								required: ['delay', 'presence', 'number'],
							},
						},
						required: ['number', 'options'],
					};
		case 'setWebhook':
			return v2
				? {
						type: 'object',
						properties: {
							webhook: {
								type: 'object',
								properties: {
									enabled: bool,
									url: str,
									byEvents: bool,
									base64: bool,
									events: webhookEvents(dialect),
									headers: { type: 'object', additionalProperties: str },
								},
								required: ['enabled', 'url'],
								// a webhook switched on must say which events it wants
								when: [{ test: (w) => w.enabled === true, then: { required: ['events'] } }],
							},
						},
						required: ['webhook'],
					}
				: {
						type: 'object',
						properties: {
							enabled: bool,
							url: str,
							webhookByEvents: bool,
							webhookBase64: bool,
							events: webhookEvents(dialect),
						},
						required: ['enabled', 'url', 'webhookByEvents', 'webhookBase64', 'events'],
					};
	}
}
