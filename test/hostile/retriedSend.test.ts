import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MESSAGE_IDS, NODE_NAME, runNode } from '../harness/engine';

/**
 * A send n8n's Retry On Fail runs again after its answer was lost. Between the node and the
 * sandbox sits a proxy that loses answers on purpose: it forwards a request and then never
 * answers (or drops the connection), so the server stored the message but the node saw a
 * timeout; or it swallows the request, so nothing was stored. Real sockets both ways.
 */

type Plan = 'forward' | 'forward-then-hang' | 'forward-then-drop' | 'hang';

interface Proxied {
	path: string;
	body: Record<string, unknown>;
}

interface LossyProxy {
	url: string;
	seen: Proxied[];
	close(): Promise<void>;
}

function read(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
	});
}

function forward(target: string, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
	return new Promise((resolve, reject) => {
		const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (res) => {
			void read(res).then((answer) => resolve({ status: res.statusCode ?? 502, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') }, body: answer }));
		});
		upstream.on('error', reject);
		upstream.end(body);
	});
}

/** A proxy to the sandbox; `plan(path, nth)` says what becomes of the nth request (from 0) to a path. */
async function startLossyProxy(target: string, plan: (path: string, nth: number) => Plan): Promise<LossyProxy> {
	const seen: Proxied[] = [];
	const counts = new Map<string, number>();
	const sockets = new Set<Socket>();
	const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
		const body = await read(req);
		const path = new URL(req.url ?? '/', 'http://proxy').pathname;
		seen.push({ path, body: body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {} });
		const nth = counts.get(path) ?? 0;
		counts.set(path, nth + 1);
		const what = plan(path, nth);
		if (what === 'hang') return;
		const answer = await forward(target, req, body);
		if (what === 'forward-then-hang') return;
		if (what === 'forward-then-drop') {
			req.socket.destroy();
			return;
		}
		res.writeHead(answer.status, answer.headers);
		res.end(answer.body);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

const SEND = '/message/sendText/demo';
const FIND = '/chat/findMessages/demo';
const TEXT: INodeParameters = { instance: 'demo', resource: 'message', operation: 'sendText', number: '5511999990000', text: '=Order {{ $itemIndex }} shipped' };
/** Retry On Fail as the editor saves it; n8n waits its minimum of 1 s between the tries. */
const RETRY = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

/** The messages the instance has stored with this id (asked of the sandbox directly). */
async function storedWithId(sandbox: Sandbox, id: string): Promise<Array<{ key: { id: string } }>> {
	const answer = await fetch(`${sandbox.url}${FIND}`, {
		method: 'POST',
		headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ where: { key: { id } } }),
	});
	return ((await answer.json()) as { messages: { records: Array<{ key: { id: string } }> } }).messages.records;
}

/** All messages the instance sent, as Find Messages lists them. */
async function storedTexts(sandbox: Sandbox): Promise<string[]> {
	const answer = await fetch(`${sandbox.url}${FIND}`, {
		method: 'POST',
		headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ where: { key: { fromMe: true } } }),
	});
	const records = ((await answer.json()) as { messages: { records: Array<{ message: { conversation?: string; extendedTextMessage?: { text: string } } }> } }).messages.records;
	return records.map((record) => record.message.conversation ?? record.message.extendedTextMessage?.text ?? '').sort();
}

describe.each(['2.4.0', '2.3.7'] as const)('a send retried by n8n after its answer was lost (Evolution API %s)', (version) => {
	let sandbox: Sandbox;
	let proxy: LossyProxy | undefined;
	beforeEach(async () => {
		sandbox = await startSandbox({ dialect: 'v2', version, instances: [{ name: 'demo', token: 'demo-token' }] });
	});
	afterEach(async () => {
		await proxy?.close();
		proxy = undefined;
		await sandbox.close();
	});

	async function sendThrough(plan: (path: string, nth: number) => Plan, items = [{}], settings: object = RETRY) {
		proxy = await startLossyProxy(sandbox.url, plan);
		return await runNode({
			parameters: TEXT,
			items,
			credentials: { baseUrl: proxy.url, apiKey: sandbox.apiKey, dialect: 'v2', timeout: 0.5 },
			settings,
		});
	}

	test('stored before the answer was lost: 2.4 finds it and does not send again; 2.3.x, which chose its own id, sends again', async () => {
		const result = await sendThrough((path, nth) => (path === SEND && nth === 0 ? 'forward-then-hang' : 'forward'));
		const seen = proxy!.seen.map(({ path, body }) => [path, body.messageId ?? body.where]);
		if (version === '2.4.0') {
			expect(result.error).toBeUndefined();
			// One send, then the lookup by the same id, which finds it.
			expect(seen).toEqual([
				[SEND, MESSAGE_IDS[0]],
				[FIND, { key: { id: MESSAGE_IDS[0], fromMe: true } }],
			]);
			expect(sandbox.requests.map(({ path, status }) => [path, status])).toEqual([[SEND, 201], [FIND, 200]]);
			expect(await storedWithId(sandbox, MESSAGE_IDS[0])).toHaveLength(1);
			expect(await storedTexts(sandbox)).toEqual(['Order 0 shipped']);
			expect(result.items).toEqual([
				{ json: expect.objectContaining({ key: expect.objectContaining({ id: MESSAGE_IDS[0], fromMe: true }), messageId: MESSAGE_IDS[0] }), pairedItem: { item: 0 } },
			]);
		} else {
			// 2.3.x gives the message its own id: the lookup cannot find it, and the retry sends again.
			expect(result.error).toBeUndefined();
			expect(seen).toEqual([
				[SEND, MESSAGE_IDS[0]],
				[FIND, { key: { id: MESSAGE_IDS[0], fromMe: true } }],
				[SEND, MESSAGE_IDS[0]],
			]);
			expect(await storedWithId(sandbox, MESSAGE_IDS[0])).toHaveLength(0);
			expect(await storedTexts(sandbox)).toEqual(['Order 0 shipped', 'Order 0 shipped']);
			const sentId = (result.items[0].json.key as { id: string }).id;
			expect(sentId).not.toBe(MESSAGE_IDS[0]);
			expect(result.items[0].json.messageId).toBe(sentId);
		}
	}, 15_000);

	test('the connection dropped after the server stored it: the same as a lost answer', async () => {
		const result = await sendThrough((path, nth) => (path === SEND && nth === 0 ? 'forward-then-drop' : 'forward'));
		expect(result.error).toBeUndefined();
		expect(proxy!.seen.map(({ path }) => path)).toEqual(version === '2.4.0' ? [SEND, FIND] : [SEND, FIND, SEND]);
		expect(await storedTexts(sandbox)).toEqual(version === '2.4.0' ? ['Order 0 shipped'] : ['Order 0 shipped', 'Order 0 shipped']);
		expect(result.items[0].json.messageId).toBe(version === '2.4.0' ? MESSAGE_IDS[0] : (result.items[0].json.key as { id: string }).id);
	}, 15_000);

	test('never reached the server: the retry looks it up, then sends it once with the same id', async () => {
		const result = await sendThrough((path, nth) => (path === SEND && nth === 0 ? 'hang' : 'forward'));
		expect(result.error).toBeUndefined();
		expect(proxy!.seen.map(({ path, body }) => [path, body.messageId ?? body.where])).toEqual([
			[SEND, MESSAGE_IDS[0]],
			[FIND, { key: { id: MESSAGE_IDS[0], fromMe: true } }],
			[SEND, MESSAGE_IDS[0]],
		]);
		expect(sandbox.requests.map(({ path, status }) => [path, status])).toEqual([[FIND, 200], [SEND, 201]]);
		expect(await storedTexts(sandbox)).toEqual(['Order 0 shipped']);
		if (version === '2.4.0') {
			expect(await storedWithId(sandbox, MESSAGE_IDS[0])).toHaveLength(1);
			expect(result.items[0].json).toMatchObject({ key: { id: MESSAGE_IDS[0] }, messageId: MESSAGE_IDS[0] });
		}
	}, 15_000);
});

describe('a retried node run on Evolution API 2.4', () => {
	let sandbox: Sandbox;
	let proxy: LossyProxy | undefined;
	beforeEach(async () => {
		sandbox = await startSandbox({ dialect: 'v2', version: '2.4.0', instances: [{ name: 'demo', token: 'demo-token' }] });
	});
	afterEach(async () => {
		await proxy?.close();
		proxy = undefined;
		await sandbox.close();
	});

	test('the items sent before the one that failed are not sent again: each is found by its id', async () => {
		proxy = await startLossyProxy(sandbox.url, (path, nth) => (path === SEND && nth === 1 ? 'forward-then-hang' : 'forward'));
		const result = await runNode({
			parameters: TEXT,
			items: [{}, {}, {}],
			credentials: { baseUrl: proxy.url, apiKey: sandbox.apiKey, dialect: 'v2', timeout: 0.5 },
			settings: RETRY,
		});
		expect(result.error).toBeUndefined();
		// First try: item 0 sent, item 1's answer lost (the node stops). Retry: items 0 and 1
		// found, item 2 never tried before, so sent straight away.
		expect(proxy.seen.map(({ path, body }) => [path, body.messageId ?? (body.where as { key: { id: string } }).key.id])).toEqual([
			[SEND, MESSAGE_IDS[0]],
			[SEND, MESSAGE_IDS[1]],
			[FIND, MESSAGE_IDS[0]],
			[FIND, MESSAGE_IDS[1]],
			[SEND, MESSAGE_IDS[2]],
		]);
		expect(await storedTexts(sandbox)).toEqual(['Order 0 shipped', 'Order 1 shipped', 'Order 2 shipped']);
		expect(result.items.map((item) => [item.json.messageId, (item.json.key as { id: string }).id, item.pairedItem])).toEqual([
			[MESSAGE_IDS[0], MESSAGE_IDS[0], { item: 0 }],
			[MESSAGE_IDS[1], MESSAGE_IDS[1], { item: 1 }],
			[MESSAGE_IDS[2], MESSAGE_IDS[2], { item: 2 }],
		]);
		// The node context keeps one letter per item tried, for this run of the node only.
		expect(result.run.data.executionData?.contextData[`node:${NODE_NAME}`]).toEqual({ messageSends: { run: 0, outcomes: ['s', 's', 's'] } });
	}, 15_000);

	test('a lookup that fails fails the item: nothing is sent without knowing', async () => {
		proxy = await startLossyProxy(sandbox.url, (path, nth) => (path === SEND && nth === 0 ? 'forward-then-hang' : path === FIND ? 'hang' : 'forward'));
		const result = await runNode({
			parameters: TEXT,
			credentials: { baseUrl: proxy.url, apiKey: sandbox.apiKey, dialect: 'v2', timeout: 0.5 },
			settings: RETRY,
		});
		expect(result.error?.message).toMatch(/did not answer in time/);
		expect(proxy.seen.map(({ path }) => path)).toEqual([SEND, FIND]);
		expect(await storedTexts(sandbox)).toEqual(['Order 0 shipped']);
	}, 15_000);

	test('without Retry On Fail a lost answer is an error and nothing is looked up', async () => {
		proxy = await startLossyProxy(sandbox.url, () => 'forward-then-hang');
		const result = await runNode({
			parameters: TEXT,
			credentials: { baseUrl: proxy.url, apiKey: sandbox.apiKey, dialect: 'v2', timeout: 0.5 },
		});
		expect(result.error?.message).toMatch(/did not answer in time/);
		expect(proxy.seen.map(({ path, body }) => [path, body.messageId])).toEqual([[SEND, MESSAGE_IDS[0]]]);
		expect(await storedWithId(sandbox, MESSAGE_IDS[0])).toHaveLength(1);
	}, 15_000);

	test.each<[string, INodeParameters, string]>([
		['Send Text', TEXT, '/message/sendText/demo'],
		['Send Media', { instance: 'demo', resource: 'message', operation: 'sendMedia', number: '5511999990000', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.pdf' }, '/message/sendMedia/demo'],
		['Send Video Note', { instance: 'demo', resource: 'message', operation: 'sendVideoNote', number: '5511999990000', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.mp4' }, '/message/sendPtv/demo'],
		['Send Sticker', { instance: 'demo', resource: 'message', operation: 'sendSticker', number: '5511999990000', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.webp' }, '/message/sendSticker/demo'],
		['Send Poll', { instance: 'demo', resource: 'message', operation: 'sendPoll', number: '5511999990000', name: 'Day?', pollOptions: { option: [{ text: 'Mon' }, { text: 'Tue' }] } }, '/message/sendPoll/demo'],
	])('%s: the message gets the id the node sent, and the output names it', async (_name, parameters, path) => {
		const result = await runNode({ parameters, credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => [request.path, request.status, (request.body as { messageId?: string }).messageId])).toEqual([[path, 201, MESSAGE_IDS[0]]]);
		expect(result.items[0].json).toMatchObject({ key: { id: MESSAGE_IDS[0] }, messageId: MESSAGE_IDS[0] });
		expect(await storedWithId(sandbox, MESSAGE_IDS[0])).toHaveLength(1);
	});

	test('another execution gives the same item another id', async () => {
		const first = await runNode({ parameters: TEXT, executionId: 'exec-2', credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const again = await runNode({ parameters: TEXT, executionId: 'exec-1', credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const ids = sandbox.requests.map((request) => (request.body as { messageId: string }).messageId);
		expect(ids[1]).toBe(MESSAGE_IDS[0]);
		expect(ids[0]).toMatch(/^3EB0[0-9A-F]{18}$/);
		expect(ids[0]).not.toBe(ids[1]);
		expect([first.items[0].json.messageId, again.items[0].json.messageId]).toEqual(ids);
	});

	test("a Message ID set in Options is the message's id; one the server could not carry is refused before sending", async () => {
		const chosen = await runNode({
			parameters: { ...TEXT, options: { messageId: ' ORDER-1234_a ' } },
			credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' },
		});
		expect(chosen.error).toBeUndefined();
		expect(sandbox.requests.map(({ path, body }) => [path, body])).toEqual([[SEND, { number: '5511999990000', text: 'Order 0 shipped', messageId: 'ORDER-1234_a' }]]);
		expect(chosen.items[0].json).toMatchObject({ key: { id: 'ORDER-1234_a' }, messageId: 'ORDER-1234_a' });
		sandbox.clearRequests();
		for (const messageId of ['has space', 'x'.repeat(65), 'ünï']) {
			const refused = await runNode({
				parameters: { ...TEXT, options: { messageId } },
				credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' },
			});
			expect(refused.error?.message).toBe(`"Options: Message ID" must be 1 to 64 letters, digits, '-' or '_' [item 0]`);
		}
		expect(sandbox.requests).toEqual([]);
	});
});

test('Message ID is an option of exactly the five sends that 2.4 gives it to', () => {
	const withOption = new MessagingInstance().description.properties
		.filter((property) => property.name === 'options' && (property.options ?? []).some((option) => 'name' in option && option.name === 'messageId'))
		.flatMap((property) => property.displayOptions?.show?.operation ?? []);
	expect([...new Set(withOption)].sort()).toEqual(['sendMedia', 'sendPoll', 'sendSticker', 'sendText', 'sendVideoNote']);
});
