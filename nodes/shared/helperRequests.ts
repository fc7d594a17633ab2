import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { readableServerText, serverMessages } from './errors';
import { ROUTES } from './routes';
import { apiRequest, type ApiRequest, type Connection, type RequestContext } from './transport';

/**
 * Every request a node makes besides an operation's main request — the read before a write,
 * the look-up before a resend, the account check, a chat's history, the trigger's read of
 * the stored messages — is a helper request: declared with its route and the answer it must
 * be, and read strictly (`helperAnswerProblem`); an answer of any other shape stops the item
 * (or the catch-up) before anything is written, sent or emitted, naming the request.
 *
 * The action's operations declare theirs per operation (actions/requests.ts, read by the
 * router's `askHelper`). A node's own reads — the chat memory's history, the trigger's
 * catch-up — are declared here with `declareHelperReads` and sent only through `askDeclared`,
 * which refuses a read no node declared: so a read added to a node is declared or it is not
 * sent, and the hostile tiers (test/hostile/) iterate `declaredHelperReads()` and answer each
 * with every hostile shape.
 */

/**
 * The answer a helper request must be:
 * - `record`: one object of its kind (at least one of `recordFields`), never `null` (unless
 *   `nullIsNone`), an empty body, `{}`, a list, a wrapped record or `{ error }`;
 * - `records`: a strict list of records (a non-record entry is an error naming its place);
 * - `page`: a page that counts itself (`{ records, pages, currentPage }`, under `pageField`),
 *   its records strict;
 * - `checks`: a strict list of check results (records; which number each names is read by the
 *   operation, see `belongs`).
 */
export type AnswerShape = 'record' | 'records' | 'page' | 'checks';

export interface HelperRequest {
	/** The request in the words of its errors, e.g. "The read before the write". */
	name: string;
	method: IHttpRequestMethods;
	/** Every route (without the instance) it may go to, `{id}` standing for one segment. */
	routes: readonly string[];
	/** `server` for a route of the whole server (no instance in the path). */
	scope?: 'instance' | 'server';
	answer: AnswerShape;
	/** `record`: the fields a record of this kind has; an object with none of them is not one. */
	recordFields?: readonly string[];
	/** `record`: `null` means "none stored" (the instance has no webhook) and is passed on as null. */
	nullIsNone?: boolean;
	/** `page`: the field of the answer holding the page (Find Messages: `messages`). */
	pageField?: string;
	/**
	 * Which records of the answer belong to the item, the rest being ignored or refused: the
	 * chat's messages, the one message looked up, the numbers asked, the messages since a time.
	 */
	belongs?: 'chat' | 'message' | 'number' | 'since';
	/** What the item did not do when this request fails, e.g. "nothing was written". */
	unlessAnswered: string;
	/** The error's description when this request fails (the HTTP status when it answered one); a general one when left out. */
	hint?(status: string | undefined): string;
}

/**
 * Find Webhook as both nodes read it (the action's Reply in the Chat, the trigger's
 * registration): a webhook record, or `null`, the real server's "none stored" (2.3.6–2.4.0-rc2,
 * `EventController.get`). Each node names it and says what it did not do.
 */
export const FIND_WEBHOOK_READ = {
	method: ROUTES.findWebhook.method,
	routes: [ROUTES.findWebhook.path],
	answer: 'record',
	recordFields: ['url', 'enabled', 'events'],
	nullIsNone: true,
} as const satisfies Omit<HelperRequest, 'name' | 'unlessAnswered'>;

/** The route template as a pattern: `{id}` one segment, then the instance unless the route is the server's. */
export function routePattern(template: string, scope: 'instance' | 'server' | 'none'): RegExp {
	const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{id\}/g, '[^/]+');
	return new RegExp(`^${pattern}${scope === 'instance' ? '/[^/]+' : ''}$`);
}

/** Whether a route (without the instance) is one the helper request declares. */
export function isHelperRoute(helper: HelperRequest, route: string): boolean {
	return helper.routes.some((template) => routePattern(template, 'none').test(route));
}

/** What a value is, in words. */
function shapeOf(value: unknown): string {
	if (value === undefined) return 'an empty body';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value !== 'object') return `a ${typeof value}`;
	const keys = Object.keys(value);
	return keys.length === 0 ? '{} (an object with no fields)' : `an object (${keys.slice(0, 5).join(', ')})`;
}

const isRecord = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The server's text of a 2xx answer that says it failed (`{ error: true, message }`, `{ error: "text" }`), if it says so. */
function failureIn(answer: unknown): string | undefined {
	if (!isRecord(answer)) return undefined;
	const error = answer.error;
	if (error === undefined || error === null || error === false || error === '') return undefined;
	const messages = serverMessages(answer).filter((text) => text.trim() !== '' && text !== 'true');
	return messages.length > 0 ? readableServerText(messages.join('; ')).slice(0, 300) : 'no message';
}

/** Why a value is not a strict list of records (a list whose every entry is an object), if it is not. */
function listProblem(value: unknown, what: string): string | undefined {
	if (!Array.isArray(value)) return `${shapeOf(value)}, not a list of ${what}`;
	const position = value.findIndex((entry) => !isRecord(entry));
	return position >= 0 ? `a list whose entry ${position + 1} is ${shapeOf(value[position])}, not a record` : undefined;
}

/**
 * Why the answer is not what the helper request declares, or undefined when it is: the answer
 * is then passed on as it came (the caller reads its fields), and otherwise the item fails
 * naming the request. `asked` is the request's body: a page must be the page it asked for
 * (the real server echoes `page` as `currentPage`), else the answer does not advance.
 */
export function helperAnswerProblem(helper: HelperRequest, answer: unknown, asked?: IDataObject): string | undefined {
	const failure = failureIn(answer);
	if (failure !== undefined) return `with an error (${failure})`;
	switch (helper.answer) {
		case 'record': {
			if (answer === null && helper.nullIsNone) return undefined;
			if (!isRecord(answer)) return `${shapeOf(answer)}, not a record`;
			const fields = helper.recordFields ?? [];
			if (fields.length > 0 && !fields.some((field) => field in answer)) {
				return `${shapeOf(answer)}, not a record of what it reads (none of ${fields.slice(0, 4).join(', ')})`;
			}
			return undefined;
		}
		case 'records':
			return listProblem(answer, 'records');
		case 'checks':
			return listProblem(answer, 'check results');
		case 'page': {
			const holder = helper.pageField === undefined ? answer : isRecord(answer) ? answer[helper.pageField] : undefined;
			if (!isRecord(holder)) return `${shapeOf(answer)}, not a page of records${helper.pageField === undefined ? '' : ` (under "${helper.pageField}")`}`;
			const records = holder.records === undefined ? `a page without records (${shapeOf(holder)})` : listProblem(holder.records, 'records in the page');
			if (records !== undefined) return records;
			// The page number as the server wrote it (a number, or its text).
			const current = typeof holder.currentPage === 'number' || (typeof holder.currentPage === 'string' && holder.currentPage.trim() !== '') ? Number(holder.currentPage) : undefined;
			if (asked?.page !== undefined && current !== Number(asked.page)) {
				return current !== undefined
					? `page ${String(holder.currentPage).slice(0, 20)} where page ${String(asked.page)} was asked: a page that does not advance`
					: `a page that does not say which page it is (${holder.currentPage === undefined ? 'no currentPage' : `currentPage ${shapeOf(holder.currentPage)}`})`;
			}
			return undefined;
		}
	}
}

// ------------------------------------------------------------------ a node's own reads

/** The helper reads each node declared (`declareHelperReads`), by node. */
const DECLARED = new Map<string, Readonly<Record<string, HelperRequest>>>();

/**
 * Declares a node's own helper reads (by key). Only a declared read is sent (`askDeclared`),
 * and the hostile tiers take every declared one: a read cannot be added without them.
 */
export function declareHelperReads<T extends Record<string, HelperRequest>>(node: string, reads: T): Readonly<T> {
	// A node may declare its reads where each is made (the trigger: registration and catch-up).
	const earlier = DECLARED.get(node) ?? {};
	const twice = Object.keys(reads).filter((key) => key in earlier);
	if (twice.length > 0) throw new Error(`${node} declares the read ${twice.join(', ')} twice`);
	DECLARED.set(node, { ...earlier, ...reads });
	return reads;
}

/** Every declared read: node, key, declaration (the hostile tiers iterate these). */
export function declaredHelperReads(): Array<[string, string, HelperRequest]> {
	return [...DECLARED.entries()].flatMap(([node, reads]) => Object.entries(reads).map(([key, read]) => [node, key, read] as [string, string, HelperRequest]));
}

function isDeclared(read: HelperRequest): boolean {
	return [...DECLARED.values()].some((reads) => Object.values(reads).includes(read));
}

/** A helper request that answered oddly, or that no node declared: `message` names the request and what it answered. */
export class HelperAnswerError extends Error {
	constructor(
		message: string,
		readonly request: HelperRequest,
	) {
		super(message);
		this.name = 'HelperAnswerError';
	}
}

/** One request of a declared read: its route (one the read declares), the instance and the body (none for a GET). */
export interface DeclaredCall {
	route: string;
	instance: string;
	body?: IDataObject;
}

/**
 * The one door of a node's own reads: refuses a read no node declared, or a route it did not
 * declare (nothing is sent), sends the declared one through the transport, and answers only an
 * answer of the declared shape; anything else is a HelperAnswerError naming the request, never
 * an empty answer.
 */
export async function askDeclared(ctx: RequestContext, connection: Connection, read: HelperRequest, call: DeclaredCall, itemIndex = 0): Promise<unknown> {
	const { route, body } = call;
	if (!isDeclared(read) || !isHelperRoute(read, route)) {
		throw new HelperAnswerError(`${read.name} is not a declared request of the node (${read.method} ${route}); nothing was sent. This is a defect of the node: please report it.`, read);
	}
	const answer = await sendHelper(ctx, connection, read, { route, instance: call.instance, body }, itemIndex);
	const problem = helperAnswerProblem(read, answer, body);
	if (problem !== undefined) throw new HelperAnswerError(`${read.name} (${read.method} ${route}) answered ${problem}; ${read.unlessAnswered}`, read);
	return answer;
}

/**
 * Sends a helper request (both doors: the router's `askHelper` and `askDeclared`) through the
 * transport with the method it declares. A failure is the transport's error (already the
 * node's, redacted), named after the request.
 */
export async function sendHelper(ctx: RequestContext, connection: Connection, helper: HelperRequest, request: Omit<ApiRequest, 'method'>, itemIndex: number): Promise<unknown> {
	const [asked] = await Promise.allSettled([apiRequest(ctx, connection, { ...request, method: helper.method }, itemIndex)]);
	if (asked.status === 'rejected') {
		const error = asked.reason as Error;
		error.message = `${helper.name} failed: ${error.message}`;
		throw error;
	}
	return asked.value;
}
