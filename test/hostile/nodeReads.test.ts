import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MessagingInstanceChatMemory } from '../../nodes/MessagingInstanceChatMemory/MessagingInstanceChatMemory.node';
import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';
import { HISTORY_LIMITS } from '../../nodes/shared/chatHistory';
import { declaredHelperReads, routePattern, type HelperRequest } from '../../nodes/shared/helperRequests';
import packageJson from '../../package.json';
import { TRIGGER_NODE_NAME } from '../harness/triggerWorkflow';
import { TriggerHarness } from '../harness/webhooks';
import { runAgent } from '../memory/agentHarness';
import { savedParameters } from '../trigger/helpers';
import { answerTarget, ECHOES, FAILING_SHAPES, KEY, type HostileShape } from './helperTiers';
import { useHostileServer, type Answer, type HostileServer, type Seen } from './server';

/**
 * The hostile tier of the nodes' own reads: every read a node declared with
 * declareHelperReads (shared/helperRequests.ts: the chat memory's history and look-up, the
 * trigger's catch-up and its registration's Find Webhook) is made to happen and answered with each hostile shape the helper tiers
 * throw (helperTiers.ts), plus a text, records that are not the ones asked for and a page that
 * does not advance. Each stops the item or the catch-up, naming the read, before anything is
 * given to the agent, emitted or registered; never "nothing stored". A read a node declares is taken here
 * without a line changed, and one of a kind no provocation below knows fails the contract.
 */

const hostile = useHostileServer();
const INSTANCE = 'demo';
const CHAT = '5511988887777@s.whatsapp.net';
const OTHER_CHAT = '5511900001111@s.whatsapp.net';
const NOW = 'NOW0000000000001';
/** The trigger's cursor before the start: the messages after it are caught up. */
const CURSOR = { seconds: 1_790_000_000, ids: ['BEFORE'], savedAt: 1 };

/** A stored message as Find Messages answers it. */
function stored(id: string, seconds: number, chat = CHAT): IDataObject {
	return { id: `row-${id}`, key: { id, fromMe: false, remoteJid: chat }, pushName: 'Ana', messageType: 'conversation', message: { conversation: `text of ${id}` }, messageTimestamp: seconds };
}

function page(records: IDataObject[], asked: IDataObject, pages = records.length === 0 ? 0 : 1): Answer {
	return { json: { messages: { total: records.length, pages, currentPage: asked.page, records } } };
}

const bodyOf = (request: Seen): IDataObject => JSON.parse(request.body || '{}') as IDataObject;

/** What a provoked run shows: the error naming the read (if it failed), whether anything went on, the requests made. */
interface Outcome {
	error?: string;
	/** What came out despite the answer: the history the agent got, the executions the trigger emitted. */
	output: unknown[];
	/** Whatever else the run left: the trigger's cursor must stay where it was. */
	kept?: unknown;
}

/**
 * How each declared read is made to happen (by node and key): which request of the run is
 * the read, the answers of a good server to the others, and the run.
 */
interface Provocation {
	isRead(request: Seen): boolean;
	good(request: Seen): Answer;
	/** The read goes past page 1 when the answers say so: a page that does not advance is seen. */
	readsOn: boolean;
	/** Records of the answer that are not the ones asked for (another chat, another message, older than asked). */
	foreign(asked: IDataObject): IDataObject[];
	/** What a stopped run must have left as it was (`Outcome.kept`), where the run keeps something. */
	keeps?: unknown;
	/** The run's own writes, besides the node's declared reads (publishing sets the webhook): never made when the read stops it. */
	writes?(request: Seen): boolean;
	run(server: HostileServer, timeout: number): Promise<Outcome>;
}

const isLookUp = (request: Seen): boolean => typeof ((bodyOf(request).where as IDataObject | undefined)?.key as IDataObject | undefined)?.id === 'string';

async function memoryRun(server: HostileServer, timeout: number): Promise<Outcome> {
	const run = await runAgent({ url: server.url, apiKey: KEY, dialect: 'v2' }, [{ chatId: CHAT, messageId: NOW }], {}, { apiKey: KEY, timeout });
	return { error: run.error ? `${run.error.message} ${run.error.description ?? ''}` : undefined, output: run.items };
}

async function catchUpRun(server: HostileServer, timeout: number): Promise<Outcome> {
	catchUps++;
	const harness = await TriggerHarness.start({
		parameters: savedParameters({ instance: { __rl: true, mode: 'name', value: INSTANCE } }, 3),
		credentials: { baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout },
		typeVersion: 3,
	});
	try {
		harness.persistedStaticData = { [`node:${TRIGGER_NODE_NAME}`]: { catchUp: CURSOR } };
		await (await harness.startTrigger('init')).settled;
		return { error: harness.failedExecutions.map((error) => error.message).join(' | ') || undefined, output: harness.executions, kept: harness.nodeStaticData.catchUp };
	} finally {
		await harness.close();
	}
}

const isFindWebhook = (request: Seen): boolean => request.method === 'GET' && request.path.startsWith('/webhook/find/');
const isSetWebhook = (request: Seen): boolean => request.method === 'POST' && request.path.startsWith('/webhook/set/');

/** Publishing a new trigger (n8n's checkExists, then create): its Set Webhook requests are what it wrote. */
async function publishRun(server: HostileServer, timeout: number): Promise<Outcome> {
	const harness = await TriggerHarness.start({
		parameters: savedParameters({ instance: { __rl: true, mode: 'name', value: INSTANCE } }, 3),
		credentials: { baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout },
		typeVersion: 3,
	});
	try {
		let error: string | undefined;
		try {
			await harness.activate();
		} catch (failure) {
			error = `${(failure as Error).message} ${(failure as { description?: string }).description ?? ''}`;
		}
		return { error, output: server.seen.filter(isSetWebhook).map((request) => `${request.method} ${request.path}`) };
	} finally {
		await harness.close();
	}
}

/** The first request of the catch-up reads the newest message; every later one the window after the cursor. */
const isNewestRead = (request: Seen): boolean => {
	const where = bodyOf(request).where as { messageTimestamp?: { gte?: string } } | undefined;
	return where?.messageTimestamp?.gte === new Date(0).toISOString();
};
/** Catch-up runs so far: the messages of each have ids of their own (the live path's memory of ids is the process's). */
let catchUps = 0;
/** The window: two pages of one message after the cursor, so that its reader asks for page 2 (and 3, which is empty). */
const windowPage = (request: Seen): Answer => {
	const asked = bodyOf(request);
	const number = Number(asked.page);
	return page(number > 2 ? [] : [stored(`W${catchUps}-${number}`, CURSOR.seconds + 10 + number)], asked, 2);
};

const PROVOCATIONS: Readonly<Record<string, Provocation>> = {
	'messagingInstanceChatMemory/history': {
		isRead: (request) => !isLookUp(request),
		// Page 1 without the run's message and a page 2: the memory reads on.
		good: (request) => page([stored(NOW, CURSOR.seconds)], bodyOf(request)),
		readsOn: true,
		foreign: () => [stored('THEIRS', CURSOR.seconds, OTHER_CHAT)],
		run: memoryRun,
	},
	'messagingInstanceChatMemory/lookUp': {
		isRead: isLookUp,
		// The chat's pages hold no message: the memory looks the run's message up.
		good: (request) => (isLookUp(request) ? page([stored(NOW, CURSOR.seconds)], bodyOf(request)) : page([], bodyOf(request))),
		readsOn: false,
		foreign: () => [stored('ANOTHER', CURSOR.seconds)],
		run: memoryRun,
	},
	'messagingInstanceTrigger/newest': {
		isRead: isNewestRead,
		good: (request) => (isNewestRead(request) ? page([stored('NEWEST', CURSOR.seconds + 20)], bodyOf(request)) : windowPage(request)),
		readsOn: false,
		foreign: () => [],
		keeps: CURSOR,
		run: catchUpRun,
	},
	'messagingInstanceTrigger/window': {
		isRead: (request) => !isNewestRead(request),
		good: (request) => (isNewestRead(request) ? page([stored('NEWEST', CURSOR.seconds + 20)], bodyOf(request)) : windowPage(request)),
		readsOn: true,
		foreign: () => [stored('OLDER', CURSOR.seconds - 3600)],
		keeps: CURSOR,
		run: catchUpRun,
	},
	'messagingInstanceTrigger/findWebhook': {
		isRead: isFindWebhook,
		// No webhook stored (the real server's null): publishing sets ours; Set Webhook answers what it stored.
		good: (request) => ({ json: isFindWebhook(request) ? null : { webhook: { instanceName: INSTANCE, webhook: bodyOf(request) } } }),
		writes: isSetWebhook,
		readsOn: false,
		foreign: () => [],
		run: publishRun,
	},
};

/** The hostile shapes of the helper tiers, and those of a page of stored messages. */
const TEXT: HostileShape = () => ({ json: 'OK' });
/** More messages than a page holds (the records of the right chat and time). */
const OVERSIZED: HostileShape = (_read, request) =>
	page(Array.from({ length: HISTORY_LIMITS.pageSize + 1 }, (_, index) => stored(`BIG${index}`, CURSOR.seconds + 5 + index)), bodyOf(request));
const NOT_ADVANCING: HostileShape = (_read, request) => ({ json: { messages: { total: 100, pages: 2, currentPage: 1, records: [stored(`P${String(bodyOf(request).page)}`, CURSOR.seconds + 5)] } } });
/** A full page of the same messages whatever page is asked, saying it is the page asked. */
const SAME_PAGE: HostileShape = (_read, request) => ({
	json: { messages: { total: 150, pages: 3, currentPage: bodyOf(request).page, records: Array.from({ length: HISTORY_LIMITS.pageSize }, (_, index) => stored(`SAME${index}`, CURSOR.seconds + 100 - index)) } },
});
const foreignShape =
	(provocation: Provocation): HostileShape =>
	(_read, request) =>
		page(provocation.foreign(bodyOf(request)), bodyOf(request));

const NODES = { messagingInstance: MessagingInstance, messagingInstanceTrigger: MessagingInstanceTrigger, messagingInstanceChatMemory: MessagingInstanceChatMemory };

describe('contract: every read a node declares is taken by this tier', () => {
	test('every node of the package is loaded here (so each has declared its reads)', () => {
		const names = packageJson.n8n.nodes.map((file) => /([^/]+)\.node\.js$/.exec(file)?.[1]);
		expect(names.map((name) => name && name.charAt(0).toLowerCase() + name.slice(1)).sort()).toEqual(Object.keys(NODES).sort());
		expect(Object.entries(NODES).map(([name, type]) => [name, new type().description.name])).toEqual(Object.keys(NODES).map((name) => [name, name]));
	});

	test('the transport is called only by the doors: a read cannot be sent around them', () => {
		// Besides the doors (the router's askHelper, askDeclared), the files that may send: the
		// transport itself, the server's version (its public root), the instance picker (a
		// listing for the editor), the trigger's webhook registration (Set Webhook, its write;
		// its Find Webhook read goes through askDeclared) and its hand-over to n8n's waiting webhook (not the server).
		const senders = [
			'MessagingInstance/actions/router.ts',
			'shared/helperRequests.ts',
			'shared/transport.ts',
			'shared/serverVersion.ts',
			'shared/pickers.ts',
			'MessagingInstanceTrigger/registration.ts',
			'MessagingInstanceTrigger/waits.ts',
		];
		const root = join(__dirname, '../../nodes');
		const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
		const calling = files.filter((file) => /\bapiRequest\s*\(|httpRequest\s*\(/.test(readFileSync(join(root, file), 'utf8'))).map((file) => file.split('\\').join('/'));
		expect(calling.sort()).toEqual(expect.arrayContaining(['MessagingInstance/actions/router.ts', 'shared/helperRequests.ts']));
		expect(calling.filter((file) => !senders.includes(file))).toEqual([]);
	});

	test('each declared read is of a kind this tier provokes', () => {
		const reads = declaredHelperReads().map(([node, key]) => `${node}/${key}`);
		expect(reads.map((name) => [name, name in PROVOCATIONS])).toEqual(reads.map((name) => [name, true]));
		// The catch-up's and the memory's reads are declared: a node that stops declaring them fails here.
		expect(reads.sort()).toEqual(Object.keys(PROVOCATIONS).sort());
	});
});

describe.each(declaredHelperReads())('%s %s', (node, key, read: HelperRequest) => {
	const provocation = PROVOCATIONS[`${node}/${key}`];

	/** Runs the node with the read answered by `shape`; every request it made must be a declared one of the read's node. */
	async function runWith(shape: HostileShape, timeout = 2): Promise<Outcome & { reads: number; context: string }> {
		hostile.current.seen.length = 0;
		answerTarget(hostile.current, read, shape, provocation.isRead, provocation.good);
		const outcome = await provocation.run(hostile.current, timeout);
		hostile.current.intercept(undefined);
		const declared = declaredHelperReads().filter(([owner]) => owner === node).flatMap(([, , each]) => each.routes.map((route) => [each.method, routePattern(route, 'instance')] as const));
		const undeclared = hostile.current.seen.filter((request) => !provocation.writes?.(request) && !declared.some(([method, pattern]) => method === request.method && pattern.test(request.path)));
		expect(undeclared.map((request) => `${request.method} ${request.path}`)).toEqual([]);
		const context = `${outcome.error ?? 'no error'} (${hostile.current.seen.map((request) => request.body).join(', ').slice(0, 400)})`;
		return { ...outcome, reads: hostile.current.seen.filter(provocation.isRead).length, context };
	}

	function expectStoppedNamingTheRead(outcome: Outcome & { reads: number; context: string }): void {
		expect([outcome.context, outcome.reads > 0]).toEqual([outcome.context, true]);
		expect([outcome.context, outcome.error]).toEqual([outcome.context, expect.stringContaining(read.name)]);
		expect(outcome.output).toEqual([]);
		if (provocation.keeps !== undefined) expect(outcome.kept).toEqual(provocation.keeps);
		expect(outcome.error).not.toContain(KEY);
	}

	test('answered as a good server: the run goes on (the provocation reaches the read and is not itself hostile)', async () => {
		const outcome = await runWith((_read, request) => provocation.good(request));
		expect([outcome.context, outcome.error, outcome.reads > 0]).toEqual([outcome.context, undefined, true]);
		expect(outcome.output).not.toEqual([]);
	}, 30_000);

	// `null` is the server's "none stored" where the read declares it so (Find Webhook), and the run goes on.
	const failing = FAILING_SHAPES.filter(([what]) => !(read.nullIsNone && what === 'null'));
	if (read.nullIsNone) {
		test('answered null, the server\'s "none stored": the run goes on', async () => {
			const outcome = await runWith(() => ({ json: null }));
			expect([outcome.context, outcome.error, outcome.reads > 0]).toEqual([outcome.context, undefined, true]);
			expect(outcome.output).not.toEqual([]);
		}, 30_000);
	}

	test.each([...failing, ['a text', TEXT] as [string, HostileShape], ['a page larger than asked', OVERSIZED] as [string, HostileShape]])('answered with %s: stops naming the read; nothing goes on', async (what, shape) => {
		expectStoppedNamingTheRead(await runWith(shape, what === 'a slow answer' ? 0.5 : 2));
	}, 30_000);

	test.each(ECHOES)('echoing every secret in a %s: none shows; nothing goes elsewhere', async (_what, shape) => {
		hostile.current.seenByOther.length = 0;
		const outcome = await runWith(shape);
		expect([outcome.context, outcome.error]).toEqual([outcome.context, expect.stringContaining(read.name)]);
		expect(JSON.stringify(outcome)).not.toContain(KEY);
		expect(hostile.current.seenByOther).toEqual([]);
	}, 30_000);

	if (provocation?.foreign({}).length) {
		test('answered with records that are not the ones asked for (another chat, another message, older than asked): stops naming the read', async () => {
			expectStoppedNamingTheRead(await runWith(foreignShape(provocation)));
		}, 30_000);
	}

	if (provocation?.readsOn) {
		test.each([
			['page 1 whichever page is asked', NOT_ADVANCING],
			['the same full page whichever page is asked, saying it is the page asked', SAME_PAGE],
		])('answered with %s (a page that does not advance): stops naming the read', async (_what, shape) => {
			expectStoppedNamingTheRead(await runWith(shape));
		}, 30_000);
	}
});
