/** The sandbox's public types and the shapes its parts share. */
import type { Account, HistoryQuirks } from './accounts';
import type { RetryOptions } from './delivery';
import type { Schema } from './validate';
import type { MediaStore } from './media';
import type { ServerVersion } from './versions';

export type Dialect = 'documented' | 'v2';

/**
 * How long the sandboxes people look at (`npm start`'s, the CLI's) hold a send for its `delay`,
 * at most, as a real server holds it: 5 minutes, more than the node ever asks for. The tests'
 * sandboxes answer at once unless they set `maxDelayMs`.
 */
export const HELD_DELAY_MS = 300_000;

export interface SandboxOptions {
	/** 0 or undefined = a free port */
	port?: number;
	/** default 127.0.0.1 */
	host?: string;
	/** default 'documented' */
	dialect?: Dialect;
	/** the Evolution API release the sandbox plays (./versions.ts); default '2.3.6' */
	version?: ServerVersion;
	/** 2.4 only: false = not activated, every business route answers 503 LICENSE_REQUIRED; default true */
	licensed?: boolean;
	/** the server's global API key; default a random one */
	apiKey?: string;
	/** default [{ name: 'demo' }]; token = the instance's own key (random if omitted); integration default WHATSAPP-BAILEYS */
	instances?: Array<{ name: string; token?: string; integration?: string }>;
	/**
	 * webhook retry policy; defaults as real servers: 10 attempts, 5000 ms doubling, 30000 ms
	 * timeout, no retry after 400/401/403/404/422 (`nonRetryableStatusCodes`, the server's
	 * WEBHOOK_RETRY_NON_RETRYABLE_STATUS_CODES)
	 */
	delivery?: RetryOptions;
	/** one line per request / delivery (keys are never printed) */
	log?: (line: string) => void;
	/**
	 * Real servers hold a send (and Send Presence) for `delay` ms before answering. The sandbox
	 * blocks for min(delay, maxDelayMs); default 0 = answer at once (keeps tests fast).
	 */
	maxDelayMs?: number;
	/**
	 * Keep the state (instances, webhooks, groups, labels, the recent chat log) in this file
	 * across restarts, as a real server keeps its data (./store.ts). Default: memory only.
	 */
	stateFile?: string;
	/** With stateFile: remove the saved state and start empty. */
	fresh?: boolean;
	/**
	 * Integrations switched off in the server's environment (e.g. `rabbitmq` for
	 * RABBITMQ_ENABLED=false): their routes answer as the real controllers do then.
	 */
	switchedOff?: readonly string[];
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
	body: unknown;
	status: number;
	response: unknown;
	at: number;
}

export interface DeliveryAttempt {
	status?: number;
	error?: string;
	responseBody?: string;
}

export interface RecordedDelivery {
	instance: string;
	/** dotted, e.g. messages.upsert */
	event: string;
	url: string;
	headers: Record<string, string>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	attempts: DeliveryAttempt[];
}

export interface WebhookConfig {
	enabled: boolean;
	url: string;
	byEvents: boolean;
	base64: boolean;
	events: string[];
	headers: Record<string, string>;
}

export type ChatKind =
	| 'text'
	| 'image'
	| 'audio'
	| 'video'
	| 'document'
	| 'sticker'
	| 'contact'
	| 'poll'
	| 'list'
	| 'buttons'
	| 'location'
	| 'reaction'
	| 'status'
	| 'presence'
	| 'edit'
	| 'archive'
	| 'read'
	| 'delete'
	| 'unread'
	/** a change of the account's profile that its contacts see (name, About, picture) */
	| 'profile';

/** One line of the per-instance chat log (see GET /_sandbox/chat/stream). */
export interface ChatEntry {
	/** increasing number, also the SSE event id */
	seq: number;
	/** ms since epoch */
	at: number;
	/** ISO time */
	time: string;
	direction: 'in' | 'out';
	instance: string;
	/** the chat JID (the contact, the group, or status@broadcast) */
	chat: string;
	kind: ChatKind;
	/** a human summary of the entry */
	text: string;
	/** the raw request body (out) or the injected message (in) */
	body: unknown;
	/** id of the message (sent result or incoming key), when there is one */
	messageId?: string;
	/** incoming: whether the sandbox delivered it to the instance's webhook (MESSAGES_UPSERT), once it knows */
	delivered?: { ok: boolean; reason: string };
	/**
	 * incoming: the key as the server stores it, which is Baileys' key on every release (the
	 * webhook's may differ: 2.3.7 and 2.4 rewrite it after storing); Find Messages filters on it
	 */
	key?: Record<string, unknown>;
	/** incoming: the contact's display name */
	pushName?: string;
	/** a media message: where the chat page loads the file from (GET /_sandbox/media/…) */
	media?: ChatMedia;
}

export interface ChatMedia {
	/** path on the sandbox, `/_sandbox/media/<instance>/<messageId>` (or the URL it was sent as) */
	url: string;
	mimetype: string;
	fileName?: string;
	caption?: string;
	/** bytes stored (0 for a URL) */
	size: number;
}

export interface StoredWebhook {
	id: string;
	url: string;
	headers: Record<string, string>;
	enabled: boolean;
	events: string[];
	webhookByEvents: boolean;
	webhookBase64: boolean;
	createdAt: string;
	updatedAt: string;
	instanceId: string;
}

export interface Instance {
	name: string;
	token: string;
	instanceId: string;
	/** the account's own JID (sender of deliveries, participant of status posts) */
	jid: string;
	/** how the instance reaches WhatsApp: `WHATSAPP-BAILEYS` when undefined, `WHATSAPP-BUSINESS` (Cloud API), `EVOLUTION` */
	integration?: string;
	webhook?: StoredWebhook;
	settings?: Record<string, unknown>;
	/** connection, groups, labels, blocks (./accounts.ts); made on first use */
	account?: Account;
	/** the chatbot platforms' bots, settings, sessions and OpenAI credentials (routes/chatbot.ts) */
	chatbots?: ChatbotState;
	/** the event buses' saved settings, by kind (routes/events.ts) */
	eventBuses?: Record<string, Record<string, unknown>>;
}

export interface ChatbotState {
	bots: Record<string, Array<Record<string, unknown>>>;
	settings: Record<string, Record<string, unknown>>;
	sessions: Array<{ id: string; kind: string; botId: string; remoteJid: string; status: string; createdAt: string; updatedAt: string }>;
	openaiCreds: Array<Record<string, unknown>>;
}

export interface Reply {
	status: number;
	/** undefined = empty body */
	body?: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

/** What a route's reply may use of the running sandbox. */
export interface RouteContext {
	readonly dialect: Dialect;
	readonly v2: boolean;
	/** the server release the sandbox plays */
	readonly version: ServerVersion;
	/** the body's `messageId` when this route at this release makes it the sent message's `key.id` */
	readonly chosenMessageId?: string;
	/** the instance named in the path; undefined for routes without `{instance}` */
	readonly inst: Instance;
	/** the parsed JSON body ({} when there is none) */
	readonly body: Body;
	readonly query: Record<string, string>;
	/** the id a route reads from its path (`{id}` in the route's template) */
	readonly pathId?: string;
	/** the request's `apikey` header */
	readonly apikey: string | undefined;
	/** the server's global key */
	readonly globalKey: string;
	readonly instances: () => Instance[];
	/** adds an outgoing line to the chat page, with this request's body (or `extra.body`) */
	out(kind: ChatKind, chat: string, text: string, id?: string, extra?: { body?: unknown; media?: ChatMedia }): void;
	/** the media every instance sent and received */
	readonly media: MediaStore;
	/** delivers an event of the instance to its webhook (in the background) */
	emit(event: string, data: unknown): void;
	/** the server's instances and history, for the management routes */
	readonly server: ServerState;
}

/** What the management routes change or read beyond one instance. */
export interface ServerState {
	addInstance(name: string, token?: string, integration?: string): Instance;
	removeInstance(name: string): void;
	/** the chat log of every instance, oldest first */
	chatLog(): readonly ChatEntry[];
	/** delivers an event of any instance */
	emitFor(inst: Instance, event: string, data: unknown): void;
	/** whether the server's environment switches this integration off (SandboxOptions.switchedOff) */
	switchedOff(integration: string): boolean;
	/** how the server stamps and answers its stored history (Sandbox.historyQuirks) */
	historyQuirks(): HistoryQuirks;
}

/**
 * One endpoint of the sandbox: everything the server does for it.
 *
 * The dispatcher (./dispatch.ts) runs the real servers' order for every route: the route exists
 * (method and path) → injected failures → the instance exists → the key → the JSON body → the
 * schema → `check` → `needsAccount` → the `delay` → `reply`.
 */
export interface RouteDef {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/**
	 * The path per dialect; `{instance}` marks the instance name. A dialect without a path does
	 * not serve the route (404 as on a real server).
	 */
	path: Partial<Record<Dialect, string>>;
	/** the first server release that serves the route (older ones answer 404); default: every release */
	since?: ServerVersion;
	/** the first release whose send takes the body's `messageId` as the message's `key.id` (unchecked, not deduplicated) */
	messageIdSince?: ServerVersion;
	/**
	 * Who may call it. 'instance' (default with `{instance}`): the global key or the instance's
	 * token; 'global' (default without): the global key only; 'reply': the reply decides.
	 */
	auth?: 'instance' | 'global' | 'reply';
	/** the body schema per dialect (none = any body) */
	schema?: Partial<Record<Dialect, Schema>>;
	/** the query string schema per dialect (values are strings) */
	querySchema?: Partial<Record<Dialect, Schema>>;
	/**
	 * How schema errors are answered: 'response' (default) `{status, error, response: {message: [errors]}}`;
	 * 'thrown' `{status, error, message: [errors]}` (routes whose handler answers the exception itself).
	 */
	validationShape?: 'response' | 'thrown';
	/** the service layer's checks after the schema: the message of a 400, or undefined */
	check?: (body: Body, dialect: Dialect, version: ServerVersion) => string | undefined;
	/** the body's `number` must have an account (else 400 with the numbers check of it) */
	needsAccount?: boolean;
	/** the ms the server holds the answer */
	delayOf?: (body: Body, dialect: Dialect) => unknown;
	reply(ctx: RouteContext): Reply | Promise<Reply>;
}
