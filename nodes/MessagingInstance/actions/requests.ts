import type { IHttpRequestMethods } from 'n8n-workflow';

import { FIND_WEBHOOK_READ, routePattern, type HelperRequest } from '../../shared/helperRequests';
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
 * What a helper request is and how its answer is read are shared with the other nodes'
 * own reads (shared/helperRequests.ts).
 */

export { helperAnswerProblem, isHelperRoute, sendHelper, type AnswerShape, type HelperRequest } from '../../shared/helperRequests';

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
	...FIND_WEBHOOK_READ,
	name: 'The read of the instance\'s webhook',
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

/** Whether a path the server received is one of the declared route's (the query aside). */
export function isDeclaredPath(declared: Pick<DeclaredRoute, 'route' | 'scope'>, path: string): boolean {
	return routePattern(declared.route, declared.scope).test(path.split('?')[0]);
}
