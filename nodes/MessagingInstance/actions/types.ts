import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type { Dialect } from '../../shared/dialect';
import type { FoundWebhook } from '../../shared/routes';
import type { ItemParameters } from './parameters';
import type { HelperRequest, StoredRead } from './requests';

export type Resource =
	| 'message'
	| 'chat'
	| 'contact'
	| 'group'
	| 'instance'
	| 'label'
	| 'settings'
	| 'webhook'
	| 'profile'
	| 'proxy'
	| 'business'
	| 'template'
	| 'storage'
	| 'chatwoot'
	| 'chatbot'
	| 'eventIntegration';

/** A file in the response, as base64, that the router turns into n8n binary data. */
export interface BinaryOutput {
	/** Field of the response with the file as base64 (a `data:…;base64,` prefix is allowed). */
	dataField: string;
	mimeTypeField?: string;
	fileNameField?: string;
	defaultMimeType: string;
	/** File name when the response names none (no `fileNameField`, or an empty one), used as it is. */
	defaultFileName: string;
	/** Whether a response without the file is an error (else the item has JSON only). */
	required: boolean;
	/** Top-level fields of the response read past and left out (a server's second copy of the file). */
	dropFields?: string[];
	/** The largest file taken, from the item's parameters, and the field that sets it; 64 MB when left out. */
	sizeLimit?: { maxBytes(params: ItemParameters): number; label: string };
}

/** A list the server answers in pages; the router asks for pages until it has what the user wants. */
export interface Pagination {
	/** Records per page the node asks for. */
	pageSize: number;
	/** The server answers the whole list at once: no page size is asked, so none is checked. */
	whole?: boolean;
	/** Puts page `page` (from 1) into the item's request. */
	page(request: BuiltRequest, page: number, pageSize: number): BuiltRequest;
	/**
	 * The records of one answer (asked for `pageSize` of them), whether another page may follow,
	 * and the page number the answer says it is, where it says one.
	 */
	records(response: unknown, pageSize: number): { records: unknown[]; more: boolean; page?: number };
}

/**
 * An operation is its description plus how its request is built. What it needs — a method,
 * a query string, a route without an instance, a v2.x server, a file in the response — it
 * declares here, and the router honours it: the item loop, the request, the errors and the
 * output items are the router's.
 */
export interface Operation {
	resource: Resource;
	/** The stored `operation` value; fixed by the package's public interface. */
	value: string;
	name: string;
	action: string;
	description: string;
	/** Parameters shown for this operation, without displayOptions (the registry adds them). */
	properties: INodeProperties[];
	/** HTTP method; POST when left out. */
	method?: IHttpRequestMethods;
	/** Route without the instance, e.g. `/message/sendText`; a function where the dialects differ. */
	path: string | ((dialect: Dialect) => string);
	/**
	 * The path of one item's request where it depends on the item (a bot platform chosen in the
	 * node, an id inside the path); `path` is then the first of `itemPaths`.
	 */
	itemPath?(params: ItemParameters): string;
	/**
	 * Every path `itemPath` can give, `{id}` standing for an id inside it: what the sandbox must
	 * serve for this operation.
	 */
	itemPaths?: readonly string[];
	/** `server` for routes of the whole server (no instance in the path, no Instance field). */
	scope?: 'instance' | 'server';
	/** Served by v2.x servers only: with the documented dialect it fails before any request. */
	v2Only?: boolean;
	/**
	 * The oldest server version with this route, e.g. `2.4.0`: on a server known to be older
	 * the operation fails before any request, and a 404 from the route names the version.
	 */
	minServerVersion?: string;
	/**
	 * Served only for WhatsApp Cloud API (Meta) instances: for an instance of another
	 * integration the operation fails before any request, naming the instance's integration.
	 */
	cloudApiOnly?: boolean;
	/**
	 * Whether this item's request depends on the server's version (e.g. an event only newer
	 * servers know): the router then learns the version and builds with a dialect that knows it.
	 */
	needsServerVersion?(params: ItemParameters): boolean;
	/**
	 * The whole request, for an operation whose request is more than a body and a query (a
	 * wait it asks the server for); otherwise `buildBody` and `buildQuery` say it.
	 */
	buildRequest?(params: ItemParameters, dialect: Dialect, run: OperationRun): BuiltRequest | Promise<BuiltRequest>;
	/** Reads and checks the item's parameters and returns the body; throws before any request. */
	buildBody?(params: ItemParameters, dialect: Dialect): IDataObject | Promise<IDataObject>;
	/** The query string, read and checked like the body. */
	buildQuery?(params: ItemParameters, dialect: Dialect): IDataObject;
	/** Turns the response into output items (default: the response as it came, one item). */
	toItems?(response: unknown, params: ItemParameters): IDataObject[];
	/** A file in the response that becomes the item's binary data. */
	binaryOutput?: BinaryOutput;
	/** Routes that answer HTTP 200 with `{ error: true }` when they failed. */
	errorInOkResponse?: boolean;
	/** A list in pages, read with Return All / Limit: one output item per record. */
	pagination?: Pagination;
	/**
	 * A top-level field of the answer that is the secret the user asked for (the token of a
	 * new instance): the one field output without redaction. Everything else is redacted.
	 */
	outputsSecretField?: string;
	/**
	 * The operation pauses the execution after its sends until a person answers through n8n's
	 * waiting webhook (the node's `webhook()`), or until the limit this returns has passed.
	 * Read once, from the first item, before anything is sent (an invalid limit sends nothing).
	 */
	waitsForAnswer?(params: ItemParameters): Date;
	/**
	 * The item waits before its first request (Collect Burst: until the contact has been quiet),
	 * this many milliseconds after the node started: the router pauses with n8n-workflow's
	 * sleep on the execution's cancel signal (shared/pause.ts), so a stopped execution stops waiting.
	 * Measured from the node's start, the items of one run wait together, not one after another.
	 * Read after the item's request is built, so bad input fails before any wait.
	 */
	waitsBeforeRequest?(params: ItemParameters): number;
	/**
	 * The operation reads its answer in several requests (and may pause between them) and makes
	 * the item's outputs itself — none when this item has nothing to output. Each request goes
	 * the router's way (`ask`: errors, secrets, timeout); `pause` is the router's cancellable
	 * wait. Without it, one request (or `pagination`) answers the item.
	 */
	readAnswer?(params: ItemParameters, request: BuiltRequest, exchange: Exchange): Promise<IDataObject[]>;
	/**
	 * The send carries a message id (`body.messageId`, see message/messageId.ts): its output
	 * item names the id, and when n8n runs the node again in the same execution the router
	 * looks the id up and sends only when the server does not have the message.
	 */
	carriesMessageId?: boolean;
	/**
	 * The operation sends a message: the registry adds the Sending options (pace, typing, rate
	 * limits, accounts checked, stop) and the router honours them (message/sending/).
	 */
	sendsMessage?: MessageSend;
	/**
	 * Refusals of the server (a 4xx whose text matches) that mean the item's field names the
	 * wrong thing: the error then names the field and the item, and says what to do.
	 */
	refusals?: readonly Refusal[];
	/**
	 * How an operation that changes a stored object keeps what the user did not set. Every
	 * operation that sets or updates something declares it (a contract test holds that), and the
	 * router honours a read-modify-write.
	 */
	update?: UpdateRule;
	/**
	 * Helper requests the operation makes itself (through `Exchange.helper` or `OperationRun`),
	 * by key, each with its route and the answer it must be (./requests.ts). Those its features
	 * imply (the read of `update`, a message id's look-up, the account check, the integration)
	 * are declared with the feature. The router refuses any other request.
	 */
	helpers?: Readonly<Record<string, HelperRequest>>;
}

/**
 * - `sendOnlyWhatIsSet`: the body carries only the fields the item sets, and the server keeps
 *   every stored field a body leaves out (or the body is the one value the operation changes);
 * - `readModifyWrite`: the server requires the whole object and stores it as sent, so the
 *   router reads the stored one first (GET `read`) and `merge` lays the item's fields over it.
 */
export type UpdateRule =
	| { rule: 'sendOnlyWhatIsSet' }
	| {
			rule: 'readModifyWrite';
			/** The read (GET, an instance route) that answers the stored object: a record, read strictly by the router. */
			read: StoredRead;
			/** The body sent: the stored record (as `read` answered it) with the item's request body over it. */
			merge(stored: IDataObject, body: IDataObject, params: ItemParameters): IDataObject;
	  };
/** What the Sending options need to know of a send. */
export interface MessageSend {
	/**
	 * The presence the server shows during the body's `delay` before it sends (its
	 * sendMessageWithTyping); left out where the server ignores `delay` for this send.
	 */
	typing?: 'composing' | 'recording';
	/** The recipient is the item's `number` parameter, so it can be checked for an account. */
	toNumber: boolean;
	/** WhatsApp does not show this message type on every account: the operation shows a notice. */
	notShownOnEveryAccount?: string;
}

/** A server's refusal the operation explains in terms of one of its fields. */
export interface Refusal {
	/** the parameter's path, e.g. `messageId` */
	field: string;
	/** the server's text that means it */
	serverText: RegExp;
	problem: string;
	hint: string;
}

/** What the execution lends an operation's request besides the item's parameters. */
export interface OperationRun {
	/** The signed address of this node's waiting webhook in this execution, with the query given. */
	resumeUrl(query: Record<string, string>): string;
	/** The id the node gives the message of this item, the same on every try of this run (undefined without an execution id). */
	messageId(itemIndex: number): string | undefined;
	/** The instance's webhook as the server stores it (v2.x find route); null when it has none. */
	instanceWebhook(instance: string, itemIndex: number): Promise<FoundWebhook | null>;
	/** The webhook secret a Messaging Instance Trigger of this credential's API key has for these ids (undefined without a key). */
	triggerSecret(scope: { workflowId: string; nodeId: string; webhookId: string }): string | undefined;
	/**
	 * Posts JSON to an address of this n8n (a trigger's webhook) with n8n's HTTP helper: the
	 * status and the answer, whatever the status.
	 */
	postToN8n(url: string, body: IDataObject, headers: Record<string, string>): Promise<{ status: number; body: unknown }>;
}

/** What the router lends an operation that reads its answer itself (`readAnswer`). */
export interface Exchange {
	/** Sends one request of the item, as the router sends any (its route unless `built.route`). */
	ask(built: BuiltRequest): Promise<unknown>;
	/**
	 * Sends one of the operation's declared helper requests (`helpers`, by key) and returns its
	 * answer once it has the declared shape; anything else fails the item, naming the request.
	 */
	helper(key: string, built: BuiltRequest): Promise<unknown>;
	/** Waits, stopping with an error when the execution is cancelled. */
	pause(ms: number): Promise<void>;
	/** When the node started this run (ms since the epoch, n8n's clock). */
	startedAt: number;
}

/** The request an operation built for one item. */
export interface BuiltRequest {
	/** The route of this item's request, where its parameters choose another than the operation's (a poll). */
	route?: string;
	body?: IDataObject;
	query?: IDataObject;
	/** How long the server holds the request on purpose (a typing delay), on top of the timeout. */
	extraWaitMs?: number;
}
