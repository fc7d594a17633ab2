import type { Sandbox } from '../../sandbox/server';
import { call, start, startReceiver, Receiver, ID } from './helpers';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('webhook delivery (documented)', () => {
	let sb: Sandbox;
	let rx: Receiver;
	beforeAll(async () => {
		rx = await startReceiver();
		sb = await start({ dialect: 'documented', instances: [{ name: 'demo', token: 'TOK' }] });
	});
	afterAll(async () => {
		await sb.close();
		await rx.close();
	});
	beforeEach(() => {
		rx.received.length = 0;
		rx.statuses.length = 0;
		sb.clearRequests();
	});

	const setHook = (over: Record<string, unknown> = {}): Promise<unknown> =>
		call(sb, '/webhook/set/demo', { enabled: true, url: `${rx.url}/hook`, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'], ...over });

	it('delivers MESSAGES_UPSERT with the full envelope', async () => {
		await setHook();
		const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'hi there', pushName: 'Ana' });
		expect(d).toBeDefined();
		expect(rx.received).toHaveLength(1);
		const got = rx.received[0];
		expect(got.path).toBe('/hook');
		expect(got.headers['content-type']).toBe('application/json');
		expect(got.body).toEqual({
			event: 'messages.upsert',
			instance: 'demo',
			data: {
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: expect.any(String) },
				pushName: 'Ana',
				status: 'DELIVERY_ACK',
				message: { conversation: 'hi there' },
				messageType: 'conversation',
				messageTimestamp: expect.any(Number),
				instanceId: expect.any(String),
				// Baileys' guess from the id: the sandbox's incoming ids are an iPhone's (`3A` + 18 hex digits)
				source: 'ios',
			},
			destination: `${rx.url}/hook`,
			date_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			sender: '5500000000000@s.whatsapp.net',
			server_url: sb.url,
			apikey: 'TOK',
		});
		expect(d?.attempts).toEqual([{ status: 200, responseBody: '{"ok":true}' }]);
		expect(sb.deliveries).toEqual([d]);
	});

	it('group messages carry participant', async () => {
		await setHook();
		await sb.injectMessage('demo', { from: '5511999990000', text: 'yo', group: '120363025246125486@g.us', id: 'ABC' });
		expect(rx.received[0].body.data.key).toEqual({ remoteJid: '120363025246125486@g.us', fromMe: false, id: 'ABC', participant: '5511999990000@s.whatsapp.net' });
	});

	it('byEvents posts to <url>/<event-in-kebab-case>', async () => {
		await setHook({ webhookByEvents: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE', 'QRCODE_UPDATED'] });
		await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
		await sb.injectConnectionUpdate('demo', 'open');
		await sb.injectQrCode('demo');
		expect(rx.received.map((r) => r.path)).toEqual(['/hook/messages-upsert', '/hook/connection-update', '/hook/qrcode-updated']);
		expect(rx.received[0].body.destination).toBe(`${rx.url}/hook`);
		expect(rx.received[1].body.data).toEqual({ instance: 'demo', state: 'open', statusReason: 200, wuid: '5500000000000@s.whatsapp.net', profileName: 'Sandbox demo' });
		expect(rx.received[2].body.data).toEqual({
			qrcode: { instance: 'demo', pairingCode: expect.any(String), code: expect.stringMatching(/^2@/), base64: expect.stringMatching(/^data:image\/png;base64,/) },
		});
	});

	it('enabled:false and unsubscribed events deliver nothing', async () => {
		await setHook({ enabled: false });
		expect(await sb.injectMessage('demo', { from: '5511999990000', text: 'x' })).toBeUndefined();
		await setHook({ events: ['CONNECTION_UPDATE'] });
		expect(await sb.injectMessage('demo', { from: '5511999990000', text: 'x' })).toBeUndefined();
		expect(await sb.injectConnectionUpdate('demo', 'close')).toBeDefined();
		expect(rx.received).toHaveLength(1);
		expect(rx.received[0].body.event).toBe('connection.update');
		expect(rx.received[0].body.data).toEqual({ instance: 'demo', state: 'close', statusReason: 428 });
	});

	it('injectEvent takes config or dotted names', async () => {
		await setHook({ events: ['CALL', 'PRESENCE_UPDATE'] });
		await sb.injectEvent('demo', 'CALL', { id: 'c1' });
		await sb.injectEvent('demo', 'presence.update', { id: 'p1' });
		expect(rx.received.map((r) => [r.body.event, r.body.data])).toEqual([
			['call', { id: 'c1' }],
			['presence.update', { id: 'p1' }],
		]);
	});

	it('base64 on: media carries data.message.base64; off: it does not', async () => {
		const media = { kind: 'image' as const, mimetype: 'image/png', base64: PNG, caption: 'look' };
		await setHook({ webhookBase64: true });
		await sb.injectMessage('demo', { from: '5511999990000', media });
		await setHook({ webhookBase64: false });
		await sb.injectMessage('demo', { from: '5511999990000', media: { kind: 'document', mimetype: 'application/pdf', base64: PNG, fileName: 'a.pdf' } });
		const [withB64, without] = rx.received.map((r) => r.body.data);
		expect(withB64.messageType).toBe('imageMessage');
		expect(withB64.message.base64).toBe(PNG);
		expect(withB64.message.imageMessage).toMatchObject({ mimetype: 'image/png', caption: 'look', fileLength: String(Buffer.from(PNG, 'base64').length), url: expect.any(String) });
		expect(without.messageType).toBe('documentMessage');
		expect(without.message.base64).toBeUndefined();
		expect(without.message.documentMessage).toMatchObject({ mimetype: 'application/pdf', fileName: 'a.pdf' });
	});

	it('SEND_MESSAGE follows each successful send with the route response as data', async () => {
		await setHook({ events: ['SEND_MESSAGE'] });
		const r = await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'out' });
		await call(sb, '/message/sendText/demo', { number: '5511999990000' }); // rejected: no event
		await sb.settled();
		expect(rx.received).toHaveLength(1);
		expect(rx.received[0].body.event).toBe('send.message');
		expect(rx.received[0].body.data).toEqual(r.body);
		expect(r.body.key.id).toMatch(ID);
	});

	it('retries on 5xx with back-off until success', async () => {
		await setHook();
		rx.statuses.push(500, 503);
		const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
		expect(d?.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
		expect(rx.received).toHaveLength(3);
		expect(rx.received[2].body).toEqual(rx.received[0].body);
	});

	it('gives up after the configured attempts', async () => {
		await setHook();
		rx.statuses.push(500, 500, 500, 500);
		const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
		expect(d?.attempts).toHaveLength(3);
	});

	it.each([400, 401, 403, 404, 422])('does not retry on %i', async (status) => {
		await setHook();
		rx.statuses.push(status);
		const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
		expect(d?.attempts.map((a) => a.status)).toEqual([status]);
	});

	it('retries on network errors', async () => {
		await setHook({ url: 'http://127.0.0.1:1/hook' });
		const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
		expect(d?.attempts).toHaveLength(3);
		expect(d?.attempts[0].error).toEqual(expect.any(String));
	});

	it('redeliver sends the exact same envelope again', async () => {
		await setHook();
		const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'dup' });
		const again = await sb.redeliver(d!);
		expect(rx.received).toHaveLength(2);
		expect(rx.received[1].body).toEqual(rx.received[0].body);
		expect(again.attempts).toEqual([{ status: 200, responseBody: '{"ok":true}' }]);
		expect(sb.deliveries).toHaveLength(2);
	});

	it('a new Set Webhook replaces the old one', async () => {
		await setHook({ url: `${rx.url}/first` });
		await setHook({ url: `${rx.url}/second` });
		await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
		expect(rx.received.map((r) => r.path)).toEqual(['/second']);
	});
});

describe('webhook delivery (v2)', () => {
	it('adds the configured headers and honours byEvents/base64 from the nested body', async () => {
		const rx = await startReceiver();
		const sb = await start({ dialect: 'v2' });
		try {
			const r = await call(sb, '/webhook/set/demo', {
				webhook: { enabled: true, url: `${rx.url}/n8n`, byEvents: true, base64: false, events: ['MESSAGES_UPSERT'], headers: { 'x-secret': 'abc' } },
			});
			expect(r.status).toBe(201);
			await sb.injectMessage('demo', { from: '5511999990000', media: { kind: 'audio', mimetype: 'audio/ogg', base64: PNG } });
			expect(rx.received).toHaveLength(1);
			expect(rx.received[0].path).toBe('/n8n/messages-upsert');
			expect(rx.received[0].headers['x-secret']).toBe('abc');
			expect(rx.received[0].body.data.messageType).toBe('audioMessage');
			expect(rx.received[0].body.data.message.base64).toBeUndefined();
			expect(rx.received[0].body.apikey).toBe(sb.instanceToken('demo'));
		} finally {
			await sb.close();
			await rx.close();
		}
	});

	it('documented servers do not send custom headers', async () => {
		const rx = await startReceiver();
		const sb = await start({ dialect: 'documented' });
		try {
			await call(sb, '/webhook/set/demo', { enabled: true, url: rx.url, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'], headers: { 'x-secret': 'abc' } });
			await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
			expect(rx.received[0].headers['x-secret']).toBeUndefined();
			expect(rx.received[0].path).toBe('/');
		} finally {
			await sb.close();
			await rx.close();
		}
	});

	it('times out slow receivers and retries', async () => {
		const { createServer } = await import('http');
		let hits = 0;
		const slow = createServer((_req, res) => {
			hits++;
			if (hits === 1) setTimeout(() => res.end('late'), 500);
			else res.end('ok');
		});
		await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
		const port = (slow.address() as import('net').AddressInfo).port;
		const sb = await start({ dialect: 'v2', delivery: { attempts: 3, backoffMs: 5, timeoutMs: 100 } });
		try {
			await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: `http://127.0.0.1:${port}/`, events: ['MESSAGES_UPSERT'] } });
			const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'x' });
			expect(d?.attempts[0].error).toBe('timeout after 100 ms');
			expect(d?.attempts[1].status).toBe(200);
		} finally {
			await sb.close();
			slow.closeAllConnections();
			await new Promise<void>((resolve) => slow.close(() => resolve()));
		}
	});
});
