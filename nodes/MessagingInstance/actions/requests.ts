import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { readableServerText, serverMessages } from '../../shared/errors';
import { CHECK_NUMBERS_PATH, ROUTES } from '../../shared/routes';
import type { Dialect } from '../../shared/dialect';
import type { Operation } from './types';

/**
 * Every request an operation makes, declared: its main request (`path`, `itemPaths`) and each
 * helper request — the read before a write, the look-up before a resend, the account check
 * before a campaign, the instance's integration or webhook, a chat's history. A helper request
 * is declared with its route and the answer it must be; the router sends and reads every one of
 * them through one door (router.ts `askHelper`): the answer is read strictly here, its secrets
 * are learnt before the next request, and an answer of any other shape fails the item before
 * anything is written or sent, naming the request. A request an operation did not declare is
 * refused before it is sent. The hostile tiers (test/hostile/) iterate these declarations.
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
	 * Which records of the answer belong to the item, the rest being ignored: the chat's
	 * messages, the one message looked up, the numbers asked.
	 */
	belongs?: 'chat' | 'message' | 'number';
	/** What the item did not do when this request fails, e.g. "nothing was written". */
	unlessAnswered: string;
	/** The error's description when this request fails (the HTTP status when it answered one); a general one when left out. */
	hint?(status: string | undefined): string;
}

/** A read before a write (`update.rule` `readModifyWrite`): its declaration and the route of one item. */
export interface StoredRead extends HelperRequest {
	route(params: import('./parameters').ItemParameters): string;
}

/** The read before a write of an operation that must send the whole stored object back. */
export function storedRead(read: Omit<StoredRead, 'name' | 'method' | 'answer' | 'unlessAnswered'>): StoredRead {
	return { name: 'The read before the write', method: 'GET', answer: 'record', unlessAnswered: 'nothing was written', ...read };
}

/** Before n8n's Retry On Fail (or a rate limit's retry) sends again: is the message stored already? */
export const LOOK_UP_BEFORE_RESEND: HelperRequest = {
	name: 'The look-up before sending again',
	method: 'POST',
	routes: ['/chat/findMessages'],
	answer: 'page',
	pageField: 'messages',
	belongs: 'message',
	unlessAnswered: 'nothing was sent',
	hint: (status) =>
		`n8n's Retry On Fail ran this send again after a try whose answer was lost, so the node asked the server (Find Messages) whether that try went out; without an answer it does not send, since the message may be in the chat already. Check the chat, then run again${status === '404' ? '. This server has no Find Messages route the node can use (HTTP 404): turn off Retry On Fail for this node, or upgrade the server' : ''}.`,
};

/** Only Numbers With an Account: the run's numbers, checked before the first send. */
export const ACCOUNT_CHECK: HelperRequest = {
	name: 'The account check (Check Numbers)',
	method: 'POST',
	routes: [...new Set(Object.values(CHECK_NUMBERS_PATH))],
	answer: 'checks',
	belongs: 'number',
	unlessAnswered: 'nothing was sent',
};

/** A Cloud API operation asks which integration the instance has. */
export const INSTANCE_INTEGRATION: HelperRequest = {
	name: 'The look-up of the instance\'s integration',
	method: ROUTES.listInstances.method,
	routes: [ROUTES.listInstances.path],
	scope: 'server',
	answer: 'records',
	unlessAnswered: 'nothing was sent',
};

/** Reply in the Chat reads the instance's webhook to find its trigger. */
export const INSTANCE_WEBHOOK: HelperRequest = {
	name: 'The read of the instance\'s webhook',
	method: ROUTES.findWebhook.method,
	routes: [ROUTES.findWebhook.path],
	answer: 'record',
	recordFields: ['url', 'enabled', 'events'],
	nullIsNone: true,
	unlessAnswered: 'nothing was sent',
};

/** The key the router uses for each kind of helper request an operation's features imply. */
export type HelperKey = 'read' | 'lookUp' | 'accountCheck' | 'integration' | string;

/**
 * Every helper request of an operation, by key: those it declares itself (`helpers`) and those
 * its features imply (a read-modify-write, a message id, the Sending options, Cloud API only).
 */
export function helperRequestsOf(operation: Operation): Readonly<Record<HelperKey, HelperRequest>> {
	return {
		...(operation.update?.rule === 'readModifyWrite' ? { read: operation.update.read } : {}),
		...(operation.carriesMessageId ? { lookUp: LOOK_UP_BEFORE_RESEND } : {}),
		...(operation.sendsMessage?.toNumber ? { accountCheck: ACCOUNT_CHECK } : {}),
		...(operation.cloudApiOnly ? { integration: INSTANCE_INTEGRATION } : {}),
		...operation.helpers,
	};
}

/** A request as the sandbox would see it: a method and a route template (`{id}` one segment), with the instance or without. */
export interface DeclaredRoute {
	/** `main`, or the helper request's key. */
	request: string;
	method: IHttpRequestMethods;
	route: string;
	scope: 'instance' | 'server';
}

/** Every request an operation may make: its main routes and each helper request's routes. */
export function declaredRoutes(operation: Operation, dialect: Dialect): DeclaredRoute[] {
	const main = typeof operation.path === 'function' ? operation.path(dialect) : operation.path;
	const scope = operation.scope ?? 'instance';
	const routes: DeclaredRoute[] = [main, ...(operation.itemPaths ?? [])].map((route) => ({ request: 'main', method: operation.method ?? 'POST', route, scope }));
	for (const [key, helper] of Object.entries(helperRequestsOf(operation))) {
		for (const route of helper.routes) routes.push({ request: key, method: helper.method, route, scope: helper.scope ?? 'instance' });
	}
	return routes;
}

/** The route template as a pattern: `{id}` one segment, then the instance unless the route is the server's. */
function routePattern(template: string, scope: 'instance' | 'server' | 'none'): RegExp {
	const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{id\}/g, '[^/]+');
	return new RegExp(`^${pattern}${scope === 'instance' ? '/[^/]+' : ''}$`);
}

/** Whether a path the server received is one of the declared route's (the query aside). */
export function isDeclaredPath(declared: Pick<DeclaredRoute, 'route' | 'scope'>, path: string): boolean {
	return routePattern(declared.route, declared.scope).test(path.split('?')[0]);
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
 * Why the answer is not what the helper request declares, or undefined when it is: the router
 * then passes the answer on as it came (the operation reads its fields), and otherwise fails
 * the item naming the request.
 */
export function helperAnswerProblem(helper: HelperRequest, answer: unknown): string | undefined {
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
			return listProblem(holder.records, 'records in the page');
		}
	}
}
