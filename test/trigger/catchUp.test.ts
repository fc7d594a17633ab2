import { createServer, type Server } from 'node:http';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CATCH_UP_LIMITS, executionKeyOf } from '../../nodes/MessagingInstanceTrigger/catchUp';
import { LIVE_CURSOR_EVERY_MS } from '../../nodes/MessagingInstanceTrigger/cursor';
import { serverClock } from '../../sandbox/messages';
import type { Dialect } from '../../sandbox/server';
import { TRIGGER_NODE_ID, WORKFLOW_ID } from '../harness/triggerWorkflow';
import { TriggerHarness } from '../harness/webhooks';
import { expectNoSecrets, INSTANCE, savedParameters, secretOf, setup, TOKEN, type Setup } from './helpers';

/**
 * Catch Up (options.catchUp): trigger() as n8n starts it at publish and on every start reads
 * the messages the server stored meanwhile and emits each as its own execution, with n8n's
 * execution deduplication key. The harness plays n8n: "away" is the production URL answering
 * 404 (n8n stopped: the server's delivery fails), a start is the hooks plus trigger().
 */

const FROM = '5511999990000';
const OTHER = '5511888880000';
const GROUP = '120363025246125486@g.us';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let s: Setup;
let counter = 0;
/** Message ids unique across the file (the live path's memory of keys is the process's). */
const idOf = (name: string): string => `CU${++counter}-${name}`;

/** A version 3 trigger (Catch Up on where nothing was chosen), as the editor saves a new one. */
async function start(dialect: Dialect = 'v2', options: INodeParameters = {}, typeVersion = 3, events?: string[]): Promise<Setup> {
	const parameters: INodeParameters = { instance: { __rl: true, mode: 'name', value: INSTANCE }, options, ...(events ? { events } : {}) };
	s = await setup(dialect, parameters, typeVersion);
	return s;
}

/** n8n starts the workflow (publish: 'activate'; a start of n8n: 'init') and the catch-up ends. */
async function startWorkflow(activation: 'activate' | 'init' = 'init'): Promise<void> {
	if (activation === 'init') await s.harness.restart();
	else await s.harness.activate();
	const response = await s.harness.startTrigger(activation);
	await response.settled;
}

/** n8n is away: the server's deliveries fail (404, as n8n's webhook route is gone while it is stopped). */
function stopN8n(): void {
	s.harness.active = false;
}

async function storeWhileAway(names: string[], extra: Partial<{ fromMe: boolean; group: string }> = {}, secondApart = false): Promise<string[]> {
	const ids: string[] = [];
	for (const name of names) {
		// Each in a second of its own on the server's clock (a backlog of hours, stored now).
		if (secondApart) serverClock.offsetMs += 1000;
		const id = idOf(name);
		const delivery = await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: name, pushName: 'Ana', id, ...extra });
		expect(delivery?.attempts.at(-1)?.status).toBe(404);
		ids.push(id);
	}
	return ids;
}

const findMessagesCalls = (): number => s.sandbox.requests.filter((request) => request.path === `/chat/findMessages/${INSTANCE}`).length;
const caughtUpIds = (): unknown[] => s.harness.executions.map((execution) => execution.items[0]?.json.messageId);

afterEach(async () => {
	serverClock.offsetMs = 0;
	await s.close();
});

describe('Catch Up', () => {
	it('first publish notes where the server is and emits nothing (nothing was received before)', async () => {
		await start();
		await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: 'before the workflow existed', id: idOf('old') });
		await startWorkflow('activate');
		expect(s.harness.executions).toEqual([]);
		expect(s.harness.failedExecutions).toEqual([]);
		expect(s.harness.nodeStaticData.catchUp).toEqual({ seconds: expect.any(Number), ids: [`CU${counter}-old`], savedAt: 0 });
	});

	it('after n8n was away: the messages stored meanwhile reach the workflow oldest first, once, as live items with caughtUp true; the one received before is not emitted again', async () => {
		await start();
		await startWorkflow('activate');
		const live = idOf('live');
		await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: 'received live', pushName: 'Ana', id: live });
		expect(s.harness.emitted.map((item) => [item.json.messageId, item.json.caughtUp])).toEqual([[live, false]]);
		// The live delivery moved the cursor (the first since the publish: older than a minute's throttle).
		expect(s.harness.nodeStaticData.catchUp).toMatchObject({ ids: [live] });
		const liveItem = s.harness.emitted[0];

		stopN8n();
		const missed = await storeWhileAway(['one', 'two', 'three']);
		await startWorkflow('init');

		expect(caughtUpIds()).toEqual(missed);
		const first = s.harness.executions[0].items[0].json;
		// The same item a live delivery gives, but for the envelope fields only a delivery has.
		const { raw: liveRaw, dedupeKey: _liveKey, messageId: _id, text: _text, timestamp: _time, caughtUp: _live, ...liveShape } = liveItem.json as IDataObject;
		expect(first).toMatchObject({ ...liveShape, messageId: missed[0], text: 'one', caughtUp: true, raw: { event: 'messages.upsert', instance: INSTANCE } });
		expect(Object.keys(first).sort()).toEqual(Object.keys(liveItem.json).sort());
		expect(Object.keys((first.raw as IDataObject).data as IDataObject)).toEqual(expect.arrayContaining(Object.keys((liveRaw as IDataObject).data as IDataObject).filter((key) => key !== 'status')));
		// Each its own execution, refused by n8n's database if emitted again.
		expect(s.harness.executions.map((execution) => execution.deduplicationKey)).toEqual(
			s.harness.executions.map((execution) => executionKeyOf(WORKFLOW_ID, TRIGGER_NODE_ID, String(execution.items[0].json.dedupeKey))),
		);
		expectNoSecrets(s.harness.executions, [secretOf(s), s.sandbox.apiKey, TOKEN]);

		// Another start before any live delivery moved the cursor, in a new process (the live
		// path's memory of ten minutes is gone): read again, refused by n8n, not run twice.
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
		jest.setSystemTime(Date.now() + 11 * 60 * 1000);
		try {
			await startWorkflow('init');
		} finally {
			jest.useRealTimers();
		}
		expect(caughtUpIds()).toEqual(missed);
		expect(s.harness.refusedExecutions).toHaveLength(3);
	});

	it('a message that reached this process live is emitted once, whichever comes first', async () => {
		await start();
		await startWorkflow('activate');
		stopN8n();
		const [missed] = await storeWhileAway(['retried']);
		const delivery = s.sandbox.deliveries.at(-1);
		if (!delivery) throw new Error('no delivery');
		// n8n is back; the server's retry arrives before the catch-up reads.
		s.harness.active = true;
		await s.sandbox.redeliver(delivery);
		expect(s.harness.emitted.map((item) => item.json.messageId)).toEqual([missed]);
		await s.harness.startTrigger('init').then(async (response) => await response.settled);
		expect(s.harness.executions).toEqual([]);
		// The other way round: caught up first, the live retry is then a duplicate.
		stopN8n();
		const [second] = await storeWhileAway(['caught up first']);
		const retry = s.sandbox.deliveries.at(-1);
		if (!retry) throw new Error('no delivery');
		await startWorkflow('init');
		expect(caughtUpIds()).toEqual([second]);
		const answered = await s.sandbox.redeliver(retry);
		expect(answered.attempts.at(-1)?.responseBody).toContain('duplicate');
		expect(s.harness.emitted.map((item) => item.json.messageId)).toEqual([missed]);
	});

	it('goes through the trigger\'s own filters: own messages and group chats are dropped as live ones are; no Messages Upsert, nothing read', async () => {
		await start();
		await startWorkflow('activate');
		stopN8n();
		const [kept] = await storeWhileAway(['kept']);
		await storeWhileAway(['mine'], { fromMe: true });
		await storeWhileAway(['in a group'], { group: GROUP });
		await startWorkflow('init');
		expect(caughtUpIds()).toEqual([kept]);
		await s.close();

		await start('v2', {}, 3, ['CONNECTION_UPDATE']);
		await startWorkflow('activate');
		await startWorkflow('init');
		expect(findMessagesCalls()).toBe(0);
		expect(s.harness.nodeStaticData.catchUp).toBeUndefined();
	});

	it('a caught-up media message has the item a live one has, without the file the server does not store, and says so', async () => {
		await start();
		await startWorkflow('activate');
		stopN8n();
		const id = idOf('photo');
		await s.sandbox.injectMessage(INSTANCE, { from: OTHER, id, media: { kind: 'image', base64: PNG, mimetype: 'image/png', caption: 'a photo' } });
		await startWorkflow('init');
		const [item] = s.harness.executions[0].items;
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({ messageId: id, messageType: 'imageMessage', media: { kind: 'image', mimeType: 'image/png' }, caughtUp: true });
		expect(item.json.mediaError).toMatch(/stores a message without its file.*Download Media/);
	});

	it('a backlog larger than a round is caught up in rounds, oldest first, with the cursor written once a page', async () => {
		const limits = CATCH_UP_LIMITS as { pagesPerRound: number };
		const pagesPerRound = limits.pagesPerRound;
		limits.pagesPerRound = 2;
		try {
			await start();
			await startWorkflow('activate');
			stopN8n();
			const missed = await storeWhileAway(Array.from({ length: 230 }, (_, index) => `m${index}`), {}, true);
			await startWorkflow('init');
			expect(caughtUpIds()).toEqual(missed);
			expect(s.harness.refusedExecutions).toEqual([]);
			// Pages of 50: the catch-up passed the 200th message (its 4th write), and no further.
			const cursor = s.harness.nodeStaticData.catchUp as { ids: string[] };
			expect(missed.indexOf(cursor.ids.at(-1) ?? '')).toBe(198);
			// More than a page per request never: every request asks for a page of 50.
			const bodies = s.sandbox.requests.filter((request) => request.path === `/chat/findMessages/${INSTANCE}`).map((request) => request.body as IDataObject);
			expect(bodies.every((body) => body.offset === CATCH_UP_LIMITS.pageSize)).toBe(true);
		} finally {
			limits.pagesPerRound = pagesPerRound;
		}
	});

	it.each([
		['ahead of', 3 * 24 * 3600 * 1000],
		['behind', -3 * 24 * 3600 * 1000],
	])('works with a server clock %s n8n\'s (only the server\'s times are compared)', async (_where, offsetMs) => {
		serverClock.offsetMs = offsetMs;
		await start();
		await startWorkflow('activate');
		stopN8n();
		const missed = await storeWhileAway(['a', 'b']);
		await startWorkflow('init');
		expect(caughtUpIds()).toEqual(missed);
	});

	it('reaches back Catch Up Hours at most, counted on the server\'s clock from its newest message', async () => {
		await start('v2', { catchUp: true, catchUpHours: 1 });
		serverClock.offsetMs = -3 * 3600 * 1000;
		await startWorkflow('activate');
		stopN8n();
		await storeWhileAway(['too old']);
		serverClock.offsetMs = 0;
		const [recent] = await storeWhileAway(['recent']);
		await startWorkflow('init');
		expect(caughtUpIds()).toEqual([recent]);
	});

	it('the documented dialect cannot catch up: turned on in the node, a failed execution says so, nothing is read', async () => {
		await start('documented', { catchUp: true });
		await startWorkflow('activate');
		expect(s.harness.failedExecutions.map((error) => error.message)).toEqual([expect.stringContaining('Catch Up needs a v2.x server')]);
		expect(findMessagesCalls()).toBe(0);
		expect(s.harness.executions).toEqual([]);
	});

	it('the documented dialect with a new node (Catch Up on by its version\'s default): nothing read, and no failed execution at every start', async () => {
		await start('documented');
		await startWorkflow('activate');
		await startWorkflow('init');
		expect(s.harness.failedExecutions).toEqual([]);
		expect(findMessagesCalls()).toBe(0);
		expect(s.harness.executions).toEqual([]);
		expect(s.harness.nodeStaticData.catchUp).toBeUndefined();
	});

	it.each([
		['version 1, nothing chosen', 1, {}],
		['version 2, nothing chosen', 2, {}],
		['version 3, switched off', 3, { catchUp: false }],
	])('is off for %s: no request, no cursor, no execution; live items have caughtUp false', async (_name, typeVersion, options) => {
		await start('v2', options, typeVersion);
		await startWorkflow('activate');
		await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: 'live', id: idOf('live') });
		stopN8n();
		await storeWhileAway(['missed']);
		await startWorkflow('init');
		expect(findMessagesCalls()).toBe(0);
		expect(s.harness.executions).toEqual([]);
		expect(s.harness.nodeStaticData.catchUp).toBeUndefined();
		expect(s.harness.emitted.map((item) => item.json.caughtUp)).toEqual([false]);
	});

	it('a server error stops the catch-up with a failed execution; the cursor stays, the next start catches up', async () => {
		await start();
		await startWorkflow('activate');
		stopN8n();
		const missed = await storeWhileAway(['x', 'y']);
		const cursor = s.harness.nodeStaticData.catchUp;
		s.sandbox.failNext({ status: 500, message: 'database is down', path: `/chat/findMessages/${INSTANCE}`, times: 1 });
		await startWorkflow('init');
		expect(s.harness.executions).toEqual([]);
		expect(s.harness.failedExecutions.map((error) => error.message).join(' ')).toMatch(/database is down|500/);
		expect(s.harness.nodeStaticData.catchUp).toEqual(cursor);
		await startWorkflow('init');
		expect(caughtUpIds()).toEqual(missed);
	});

	it('a live delivery writes the cursor at most once every 10 seconds, never per delivery', async () => {
		await start();
		await startWorkflow('activate');
		const first = idOf('first');
		await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: 'first', id: first });
		const written = s.harness.nodeStaticData.catchUp as { savedAt: number; ids: string[] };
		expect(written.ids).toEqual([first]);
		await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: 'second', id: idOf('second') });
		expect(s.harness.nodeStaticData.catchUp).toEqual(written);
		expect(LIVE_CURSOR_EVERY_MS).toBe(10_000);
	});
});

describe('Catch Up fails closed on an odd Find Messages answer', () => {
	let server: Server;
	let harness: TriggerHarness;
	afterEach(async () => {
		await harness.close();
		await new Promise((resolve) => server.close(resolve));
	});

	it.each([
		['a record without a key', { messages: { total: 1, pages: 1, currentPage: 1, records: [{ id: 'row', messageTimestamp: 1_700_000_100 }] } }, /without a message key and time/],
		['no page count', { messages: { currentPage: 1, records: [] } }, /does not say how many pages/],
		['records older than asked', { messages: { total: 1, pages: 1, currentPage: 1, records: [{ id: 'r', key: { id: 'OLD', remoteJid: `${FROM}@s.whatsapp.net`, fromMe: false }, messageTimestamp: 5, message: { conversation: 'x' } }] } }, /older than asked/],
		['a list where a page belongs', [], /read of the messages stored since the cursor \(Find Messages\) \(POST \/chat\/findMessages\) answered a list, not a page of records/],
	])('%s: a failed execution names it, nothing is emitted, the cursor stays', async (_name, answer, problem) => {
		let calls = 0;
		server = createServer((_req, res) => {
			calls++;
			res.writeHead(200, { 'content-type': 'application/json' });
			// The first answer (the newest message) is a good one; the catch-up's read is not.
			const good = { messages: { total: 1, pages: 1, currentPage: 1, records: [{ id: 'r1', key: { id: 'NEW', remoteJid: `${FROM}@s.whatsapp.net`, fromMe: false }, messageTimestamp: 1_700_000_200, message: { conversation: 'new' } }] } };
			res.end(JSON.stringify(calls === 1 ? good : answer));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const address = server.address() as { port: number };
		harness = await TriggerHarness.start({
			parameters: savedParameters({ instance: { __rl: true, mode: 'name', value: INSTANCE } }, 3),
			credentials: { baseUrl: `http://127.0.0.1:${address.port}`, apiKey: 'KEY-0123456789abcdef', dialect: 'v2' },
			typeVersion: 3,
		});
		const cursor = { seconds: 1_700_000_000, ids: ['BEFORE'], savedAt: 1 };
		harness.persistedStaticData = { [`node:Messaging Instance Trigger`]: { catchUp: cursor } };
		const response = await harness.startTrigger('init');
		await response.settled;
		expect(harness.executions).toEqual([]);
		expect(harness.failedExecutions.map((error) => error.message)).toEqual([expect.stringMatching(problem)]);
		expect(harness.failedExecutions[0].message).toMatch(/^Catch Up stopped: /);
		expect(harness.nodeStaticData.catchUp).toEqual(cursor);
	});
});
