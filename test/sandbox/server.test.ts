import type { Sandbox } from '../../sandbox/server';
import { call, start, validation } from './helpers';

describe('order of checks, auth, recording, failNext', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ apiKey: 'GLOBAL-KEY', instances: [{ name: 'demo', token: 'DEMO-TOKEN' }, { name: 'other' }] });
	});
	afterAll(() => sb.close());
	beforeEach(() => sb.clearRequests());

	const good = { number: '5511999990000', text: 'hi' };

	it('exposes url, apiKey, dialect and tokens', () => {
		expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sb.apiKey).toBe('GLOBAL-KEY');
		expect(sb.dialect).toBe('documented');
		expect(sb.instanceToken('demo')).toBe('DEMO-TOKEN');
		expect(sb.instanceToken('other')).toMatch(/^[0-9A-F-]{36}$/);
		expect(() => sb.instanceToken('nope')).toThrow('The "nope" instance does not exist');
	});

	it('unknown route -> 404 Cannot POST, before anything else', async () => {
		const r = await call(sb, '/message/sendFoo/inst', good, { key: null });
		expect(r.status).toBe(404);
		expect(r.body).toEqual({ status: 404, error: 'Not Found', response: { message: ['Cannot POST /message/sendFoo/inst'] } });
		const g = await call(sb, '/message/sendText/demo', undefined, { method: 'GET' });
		expect(g.body).toEqual({ status: 404, error: 'Not Found', response: { message: ['Cannot GET /message/sendText/demo'] } });
		expect((await call(sb, '/message/sendText', good)).status).toBe(404);
	});

	it('unknown instance -> 404 even with a wrong or missing key', async () => {
		const expected = { status: 404, error: 'Not Found', response: { message: ['The "ghost" instance does not exist'] } };
		for (const key of [null, 'wrong', 'GLOBAL-KEY']) {
			const r = await call(sb, '/message/sendText/ghost', good, { key });
			expect(r.status).toBe(404);
			expect(r.body).toEqual(expected);
		}
	});

	it('missing or wrong key -> 401 with a plain string message, before the body is looked at', async () => {
		const expected = { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } };
		for (const key of [null, 'wrong', '', sb.instanceToken('other')]) {
			const r = await call(sb, '/message/sendText/demo', {}, { key });
			expect(r.status).toBe(401);
			expect(r.body).toEqual(expected);
		}
		expect((await call(sb, '/message/sendText/demo', undefined, { key: 'wrong', raw: '{bad' })).status).toBe(401);
	});

	it("accepts the global key and the instance's own token", async () => {
		expect((await call(sb, '/message/sendText/demo', good)).status).toBe(201);
		expect((await call(sb, '/message/sendText/demo', good, { key: 'DEMO-TOKEN' })).status).toBe(201);
		expect((await call(sb, '/message/sendText/other', good, { key: sb.instanceToken('other') })).status).toBe(201);
	});

	it('malformed JSON -> 400 Bad Request', async () => {
		const r = await call(sb, '/message/sendText/demo', undefined, { raw: '{"number": "55", ' });
		expect(r.status).toBe(400);
		expect(r.body).toMatchObject({ status: 400, error: 'Bad Request', response: { message: [expect.any(String)] } });
	});

	it('schema errors come after auth; an empty body is {}', async () => {
		const r = await call(sb, '/message/sendText/demo', undefined, { raw: '' });
		expect(r.body).toEqual(validation('instance requires property "number"', 'instance requires property "text"'));
	});

	it('records every interface request (also unknown routes), not the control routes', async () => {
		await call(sb, '/message/sendText/demo?x=1', good);
		await call(sb, '/nope/nope/demo', { a: 1 });
		await fetch(sb.url + '/_sandbox/state');
		expect(sb.requests).toHaveLength(2);
		const [first, second] = sb.requests;
		expect(first).toEqual({
			method: 'POST',
			path: '/message/sendText/demo',
			query: { x: '1' },
			headers: expect.objectContaining({ apikey: 'GLOBAL-KEY', 'content-type': 'application/json' }),
			rawBody: JSON.stringify(good),
			body: good,
			status: 201,
			response: expect.objectContaining({ status: 'PENDING' }),
			at: expect.any(Number),
		});
		expect(second.status).toBe(404);
		sb.clearRequests();
		expect(sb.requests).toHaveLength(0);
	});

	it('failNext answers the next matching request(s) with the real error shapes', async () => {
		sb.failNext({ status: 500, message: 'boom' });
		let r = await call(sb, '/message/sendText/demo', good);
		expect(r.status).toBe(500);
		expect(r.body).toEqual({ status: 500, error: 'Internal Server Error', response: { message: 'boom' } });
		expect((await call(sb, '/message/sendText/demo', good)).status).toBe(201);

		sb.failNext({ status: 400, message: 'Nope', times: 2, path: '/chat/archiveChat' });
		expect((await call(sb, '/message/sendText/demo', good)).status).toBe(201);
		const archive = { lastMessage: { key: { remoteJid: 'a@s.whatsapp.net', fromMe: true, id: 'X' } }, archive: true, chat: 'a@s.whatsapp.net' };
		for (let i = 0; i < 2; i++) {
			r = await call(sb, '/chat/archiveChat/demo', archive);
			expect(r.body).toEqual({ status: 400, error: 'Bad Request', response: { message: ['Nope'] } });
		}
		expect((await call(sb, '/chat/archiveChat/demo', archive)).status).toBe(201);

		sb.failNext({ status: 401, message: 'Unauthorized' });
		expect((await call(sb, '/message/sendText/demo', good)).body).toEqual({ status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } });
	});

	it('addInstance adds an instance at runtime', async () => {
		sb.addInstance('late', 'LATE');
		expect((await call(sb, '/message/sendText/late', good, { key: 'LATE' })).status).toBe(201);
	});

	it('maxDelayMs makes sends block for their delay, the contact seeing "typing…" (recording before a voice note) while it holds', async () => {
		const slow = await start({ maxDelayMs: 300, dialect: 'v2', instances: [{ name: 'demo' }] });
		try {
			const t = Date.now();
			const r = await call(slow, '/message/sendText/demo', { ...good, delay: 5000 });
			expect(r.status).toBe(201);
			expect(Date.now() - t).toBeGreaterThanOrEqual(280);
			const [typing, message] = slow.chat.slice(-2);
			expect({ kind: typing.kind, text: typing.text, chat: typing.chat, body: typing.body }).toEqual({ kind: 'presence', text: 'composing (300 ms)', chat: message.chat, body: { presence: 'composing' } });
			expect(message.kind).toBe('text');
			expect(message.at - typing.at).toBeGreaterThanOrEqual(280);
			await call(slow, '/message/sendWhatsAppAudio/demo', { number: good.number, audio: 'T2dnUw==', delay: 100 });
			expect(slow.chat.filter((e) => e.kind === 'presence').map((e) => e.text)).toEqual(['composing (300 ms)', 'recording (100 ms)']);
		} finally {
			await slow.close();
		}
	});

	it('without maxDelayMs (the tests\' sandboxes) a send with delay is not held and shows no typing', async () => {
		expect((await call(sb, '/message/sendText/demo', { ...good, delay: 5000 })).status).toBe(201);
		expect(sb.chat.filter((e) => e.kind === 'presence')).toEqual([]);
	});
});
