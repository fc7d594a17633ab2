import type { IDataObject } from 'n8n-workflow';

/**
 * Everything that differs between the two dialects of the interface lives here, so that an
 * operation describes its body once and asks its dialect only for the parts that differ.
 * The table in `server-behaviour.md` is the source of each entry.
 */
export type DialectName = 'documented' | 'v2';

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

const V2_DROPPED_EVENTS = ['NEW_JWT_TOKEN', 'FLOWBOT_START', 'FLOWBOT_CHANGE_STATUS'];

const V2_ADDED_EVENTS = [
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
] as const;

const V2_EVENTS = [
	...DOCUMENTED_EVENTS.filter((event) => !V2_DROPPED_EVENTS.includes(event)),
	...V2_ADDED_EVENTS,
];

/** Every event name either dialect accepts, for pickers that do not know the dialect yet. */
export const ALL_EVENTS: readonly string[] = [...DOCUMENTED_EVENTS, ...V2_ADDED_EVENTS];

export interface ListSection {
	title: string;
	rows: Array<{ title: string; description: string; rowId: string }>;
}

export interface ListButton {
	title: string;
	displayText: string;
	id: string;
}

export interface WebhookSettings {
	enabled: boolean;
	url: string;
	webhookByEvents: boolean;
	webhookBase64: boolean;
	events: string[];
	/** Headers the server adds to every delivery; only the v2 dialect can carry them. */
	headers?: Record<string, string>;
}

export interface Dialect {
	readonly name: DialectName;
	readonly label: string;
	readonly numbersCheckPath: string;
	readonly events: ReadonlySet<string>;
	readonly statusTypes: readonly string[];
	/** Whether the server can add our own headers to its webhook deliveries. */
	readonly supportsWebhookHeaders: boolean;
	listBody(sections: ListSection[], footerText: string | undefined): IDataObject;
	buttons(buttons: ListButton[]): IDataObject[];
	presenceBody(number: string, presence: string, delay: number): IDataObject;
	updateMessageNumber(digits: string): number | string;
	statusJidList(allContacts: boolean, jids: string[]): IDataObject;
	webhookBody(settings: WebhookSettings): IDataObject;
}

const documented: Dialect = {
	name: 'documented',
	label: 'documented interface',
	numbersCheckPath: '/chat/messagingNumbers',
	events: new Set(DOCUMENTED_EVENTS),
	statusTypes: ['text', 'image', 'audio'],
	supportsWebhookHeaders: false,
	listBody: (sections, footerText) =>
		footerText === undefined ? { values: sections } : { footerText, values: sections },
	buttons: (buttons) => buttons.map(({ title, displayText, id }) => ({ title, displayText, id })),
	presenceBody: (number, presence, delay) => ({ number, options: { delay, presence, number } }),
	updateMessageNumber: (digits) => Number(digits),
	// Every field of Send Status is required here, so the list goes even when it is empty.
	statusJidList: (_allContacts, jids) => ({ statusJidList: jids }),
	webhookBody: ({ enabled, url, webhookByEvents, webhookBase64, events }) => ({
		enabled,
		url,
		webhookByEvents,
		webhookBase64,
		events,
	}),
};

const v2: Dialect = {
	name: 'v2',
	label: 'server v2.x',
	numbersCheckPath: '/chat/whatsappNumbers',
	events: new Set(V2_EVENTS),
	statusTypes: ['text', 'image', 'audio', 'video'],
	supportsWebhookHeaders: true,
	// v2 requires footerText, so an empty footer is sent as "".
	listBody: (sections, footerText) => ({ footerText: footerText ?? '', sections }),
	buttons: (buttons) => buttons.map(({ displayText, id }) => ({ type: 'reply', displayText, id })),
	presenceBody: (number, presence, delay) => ({ number, presence, delay }),
	updateMessageNumber: (digits) => digits,
	statusJidList: (allContacts, jids) => (allContacts ? {} : { statusJidList: jids }),
	webhookBody: ({ enabled, url, webhookByEvents, webhookBase64, events, headers }) => ({
		webhook: {
			enabled,
			url,
			byEvents: webhookByEvents,
			base64: webhookBase64,
			events,
			...(headers ? { headers } : {}),
		},
	}),
};

const DIALECTS: Record<DialectName, Dialect> = { documented, v2 };

export function dialectOf(name: unknown): Dialect {
	return DIALECTS[name as DialectName] ?? documented;
}
