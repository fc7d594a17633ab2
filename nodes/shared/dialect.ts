import type { IDataObject } from 'n8n-workflow';

/**
 * Everything that differs between the two dialects of the interface, as data: each entry is
 * a fact of how the published interface and real v2.x servers differ (the README's
 * credential section lists them), and operations read these facts to build their own bodies.
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

export interface WebhookSettings {
	enabled: boolean;
	url: string;
	webhookByEvents: boolean;
	webhookBase64: boolean;
	events: string[];
	/** Headers the server adds to every delivery; only a dialect with `webhookHeaders` carries them. */
	headers?: Record<string, string>;
}

/**
 * The facts of one dialect. Operations own their bodies and ask these questions of fact;
 * nothing here builds a request.
 */
export interface Dialect {
	readonly name: DialectName;
	readonly label: string;
	/** Whether the server serves the routes beyond the interface document (v2.x servers). */
	readonly servesV2Routes: boolean;
	readonly events: ReadonlySet<string>;
	readonly statusTypes: readonly string[];
	/** Send Status: whether `statusJidList` goes even when every contact sees the status. */
	readonly statusJidListAlways: boolean;
	/** Send List: the field that carries the sections. */
	readonly listSectionsField: 'values' | 'sections';
	/** Send List: whether `footerText` must be sent (as "" when the user left it empty). */
	readonly listFooterRequired: boolean;
	/** Send Buttons: `titled` is `{title, displayText, id}`, `reply` is `{type: "reply", displayText, id}`. */
	readonly buttonStyle: 'titled' | 'reply';
	/** Send Presence: `nested` repeats the fields under `options`, `flat` sends them at the top. */
	readonly presenceStyle: 'nested' | 'flat';
	/** Update Message: whether `number` goes as an integer (else as a string of digits). */
	readonly updateMessageNumberIsInteger: boolean;
	/** Set Webhook: `flat` fields at the top, or `nested` under `webhook` with v2 names (`byEvents`, `base64`). */
	readonly webhookStyle: 'flat' | 'nested';
	/** Whether the server can add our own headers to its webhook deliveries. */
	readonly supportsWebhookHeaders: boolean;
	/** Whether the server can be asked which webhook an instance has (`GET /webhook/find`). */
	readonly hasWebhookFind: boolean;
}

/** The Set Webhook body in the dialect's shape; used by the action node and the trigger. */
export function webhookBody(dialect: Dialect, settings: WebhookSettings): IDataObject {
	const { enabled, url, webhookByEvents, webhookBase64, events, headers } = settings;
	if (dialect.webhookStyle === 'flat') return { enabled, url, webhookByEvents, webhookBase64, events };
	return {
		webhook: {
			enabled,
			url,
			byEvents: webhookByEvents,
			base64: webhookBase64,
			events,
			...(headers && dialect.supportsWebhookHeaders ? { headers } : {}),
		},
	};
}

const documented: Dialect = {
	name: 'documented',
	label: 'documented interface',
	servesV2Routes: false,
	events: new Set(DOCUMENTED_EVENTS),
	statusTypes: ['text', 'image', 'audio'],
	// Every field of Send Status is required here, so the list goes even when it is empty.
	statusJidListAlways: true,
	listSectionsField: 'values',
	listFooterRequired: false,
	buttonStyle: 'titled',
	presenceStyle: 'nested',
	updateMessageNumberIsInteger: true,
	webhookStyle: 'flat',
	supportsWebhookHeaders: false,
	hasWebhookFind: false,
};

const v2: Dialect = {
	name: 'v2',
	label: 'server v2.x',
	servesV2Routes: true,
	events: new Set(V2_EVENTS),
	statusTypes: ['text', 'image', 'audio', 'video'],
	statusJidListAlways: false,
	listSectionsField: 'sections',
	listFooterRequired: true,
	buttonStyle: 'reply',
	presenceStyle: 'flat',
	updateMessageNumberIsInteger: false,
	webhookStyle: 'nested',
	supportsWebhookHeaders: true,
	hasWebhookFind: true,
};

const DIALECTS: Record<DialectName, Dialect> = { documented, v2 };

export function dialectOf(name: unknown): Dialect {
	return DIALECTS[name as DialectName] ?? documented;
}
