import type { IDataObject } from 'n8n-workflow';

/**
 * The two dialects of the interface: the published document and real v2.x servers. The facts
 * that set them apart are data (the README's credential section lists them): here those
 * several parts read, in each operation's own table those only it reads.
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

/** Events a v2 server knows only from a version on (its webhook schema refuses them before). */
export const V2_EVENTS_SINCE: Readonly<Record<string, string>> = { MESSAGING_HISTORY_SET: '2.4.0' };

/** The events of a v2 server: its one event list, which webhooks and the event buses share. */
export const V2_EVENTS: readonly string[] = [
	...DOCUMENTED_EVENTS.filter((event) => !V2_DROPPED_EVENTS.includes(event)),
	...V2_ADDED_EVENTS,
	...Object.keys(V2_EVENTS_SINCE),
];

/** Every event name either dialect accepts, for pickers that do not know the dialect yet. */
export const ALL_EVENTS: readonly string[] = [...DOCUMENTED_EVENTS, ...V2_ADDED_EVENTS, ...Object.keys(V2_EVENTS_SINCE)];

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
 * The facts of one dialect that several parts of the package read (the events, the webhook
 * routes and body). A fact only one operation reads lives beside it, in a `DialectTable`.
 */
export interface Dialect {
	readonly name: DialectName;
	/**
	 * The server version, when known (e.g. `2.3.7`): operations' tables may refine their facts
	 * by it. Undefined means any version of the dialect.
	 */
	readonly version?: string;
	/** How a sentence names the servers of this dialect: "a v2.x server". */
	readonly label: string;
	/** Whether the server serves the routes beyond the interface document (v2.x servers). */
	readonly servesV2Routes: boolean;
	readonly events: ReadonlySet<string>;
	/** Set Webhook: `flat` fields at the top, or `nested` under `webhook` with v2 names (`byEvents`, `base64`). */
	readonly webhookStyle: 'flat' | 'nested';
	/** Whether the server can add our own headers to its webhook deliveries. */
	readonly supportsWebhookHeaders: boolean;
	/** Whether the server can be asked which webhook an instance has (`GET /webhook/find`). */
	readonly hasWebhookFind: boolean;
}

/**
 * One operation's facts per dialect, kept beside the operation. `byVersion` refines them for
 * servers from a version on (later entries win), so a version's quirk is an entry here, not
 * a new field of every dialect.
 */
export interface DialectTable<Facts> {
	readonly documented: Facts;
	readonly v2: Facts;
	readonly byVersion?: ReadonlyArray<{ readonly dialect: DialectName; readonly from: string; readonly facts: Partial<Facts> }>;
}

/** Orders versions like `2.3.6` < `2.3.7` < `2.4.0-rc2` < `2.4.0` by their numbers; a suffix sorts before its release. */
export function compareVersions(a: string, b: string): number {
	const parts = (version: string) => {
		const [numbers, suffix] = version.split('-', 2);
		return { numbers: numbers.split('.').map((part) => Number.parseInt(part, 10) || 0), suffix };
	};
	const left = parts(a);
	const right = parts(b);
	for (let i = 0; i < Math.max(left.numbers.length, right.numbers.length); i++) {
		const difference = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0);
		if (difference !== 0) return difference;
	}
	if (left.suffix === right.suffix) return 0;
	if (left.suffix === undefined) return 1;
	if (right.suffix === undefined) return -1;
	return left.suffix < right.suffix ? -1 : 1;
}

/** The facts of a table for this dialect (and version, when the dialect knows it). */
export function factsOf<Facts>(table: DialectTable<Facts>, dialect: Dialect): Facts {
	let facts = table[dialect.name];
	for (const refinement of table.byVersion ?? []) {
		if (refinement.dialect === dialect.name && dialect.version !== undefined && compareVersions(dialect.version, refinement.from) >= 0) {
			facts = { ...facts, ...refinement.facts };
		}
	}
	return facts;
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
	webhookStyle: 'flat',
	supportsWebhookHeaders: false,
	hasWebhookFind: false,
};

const v2: Dialect = {
	name: 'v2',
	label: 'v2.x',
	servesV2Routes: true,
	events: new Set(V2_EVENTS),
	webhookStyle: 'nested',
	supportsWebhookHeaders: true,
	hasWebhookFind: true,
};

const DIALECTS: Record<DialectName, Dialect> = { documented, v2 };

/** The dialect of a credential's setting; with a server version, one that tables can refine by it. */
export function dialectOf(name: unknown, version?: string): Dialect {
	const dialect = DIALECTS[name as DialectName] ?? documented;
	if (version === undefined) return dialect;
	// A release candidate knows its release's events: compare the release numbers only.
	const release = version.split('-')[0];
	const events = new Set([...dialect.events].filter((event) => V2_EVENTS_SINCE[event] === undefined || compareVersions(release, V2_EVENTS_SINCE[event]) >= 0));
	return { ...dialect, version, label: `v${version}`, events };
}
