/**
 * The sandbox plays Evolution API 2.3.6, 2.3.7 and 2.4.0 (with and without an activated
 * licence): `GET /`, the licence gate, the headers of webhook deliveries, and the key of a
 * message from a contact known by LID. Facts: sandbox/README.md, "Server versions".
 */
import { startSandbox, Sandbox, SandboxOptions } from '../../sandbox/server';
import { call, startReceiver, Receiver } from './helpers';

const DOCS = 'https://docs.evolutionfoundation.com.br/licensing';

async function withSandbox(opts: SandboxOptions, run: (sb: Sandbox) => Promise<void>): Promise<void> {
	const sb = await startSandbox({ dialect: 'v2', delivery: { attempts: 1, backoffMs: 1, timeoutMs: 2000 }, ...opts });
	try {
		await run(sb);
	} finally {
		await sb.close();
	}
}

async function hook(sb: Sandbox, rx: Receiver, headers: Record<string, string> = {}): Promise<void> {
	const r = await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: rx.url, events: ['MESSAGES_UPSERT'], headers } });
	expect(r.status).toBe(201);
}

describe('GET / per server version', () => {
	it.each([
		[undefined, '2.3.6'],
		['2.3.6', '2.3.6'],
		['2.3.7', '2.3.7'],
		['2.4.0', '2.4.0'],
	] as const)('version option %s answers version %s, without a key', async (version, shown) => {
		await withSandbox({ version, licensed: false }, async (sb) => {
			const r = await call(sb, '/', undefined, { method: 'GET', key: null });
			const host = new URL(sb.url).host;
			expect(r.status).toBe(200);
			expect(r.body).toEqual({
				status: 200,
				message: 'Welcome to the Evolution API, it is working!',
				version: shown,
				clientName: 'evolution_exchange',
				manager: `http://${host}/manager`,
				documentation: 'https://doc.evolution-api.com',
				whatsappWebVersion: expect.stringMatching(/^2\.3000\.\d+$/),
				dialect: 'v2',
				chat: `${sb.url}/chat`,
			});
			expect(sb.version).toBe(shown);
		});
	});
});

describe('the licence gate of 2.4', () => {
	it('an unlicensed 2.4 answers 503 LICENSE_REQUIRED before the route, the instance and the key', async () => {
		await withSandbox({ version: '2.4.0', licensed: false }, async (sb) => {
			const host = new URL(sb.url).host;
			const register = `http://${host}/manager/login`;
			const expected = {
				error: 'service not activated',
				code: 'LICENSE_REQUIRED',
				register_url: register,
				instance_id: sb.licenceInstanceId,
				docs_url: DOCS,
				message: `This Evolution API instance is not activated. Open ${register} to activate, or set AUTHENTICATION_API_KEY in your .env with a valid licensing key. Docs: ${DOCS}`,
			};
			for (const [path, key] of [
				['/message/sendText/demo', sb.apiKey],
				['/message/sendText/demo', 'wrong-key'],
				['/message/sendText/nobody', null],
				['/message/sendFoo/demo', sb.apiKey],
				['/instance/fetchInstances', sb.apiKey],
			] as const) {
				const r = await call(sb, path, { number: '5511999990000', text: 'hi' }, { key });
				expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 503, body: expected });
			}
			expect(sb.licenceInstanceId).toMatch(/^[0-9a-f-]{36}$/);
			expect(sb.chat).toEqual([]);
			expect(sb.requests.map((q) => q.status)).toEqual([503, 503, 503, 503, 503]);
		});
	});

	it('the register URL follows X-Forwarded-Proto and the Host header', async () => {
		await withSandbox({ version: '2.4.0', licensed: false }, async (sb) => {
			const r = await call(sb, '/chat/findChats/demo', {}, { headers: { 'X-Forwarded-Proto': 'https' } });
			expect(r.status).toBe(503);
			expect(r.body.register_url).toBe(`https://${new URL(sb.url).host}/manager/login`);
		});
	});

	it('the exempt paths pass the gate (then answer as the router does)', async () => {
		await withSandbox({ version: '2.4.0', licensed: false }, async (sb) => {
			for (const path of ['/manager/login', '/assets/x.js', '/license/status', '/health']) {
				const r = await call(sb, path, undefined, { method: 'GET' });
				expect({ path, status: r.status }).toEqual({ path, status: 404 });
			}
			const page = await fetch(`${sb.url}/chat`);
			expect(page.status).toBe(200);
		});
	});

	it.each([
		['2.4.0', true],
		['2.3.7', false],
		['2.3.6', false],
	] as const)('%s with licensed=%s serves the routes', async (version, licensed) => {
		await withSandbox({ version, licensed }, async (sb) => {
			const r = await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'hi' });
			expect(r.status).toBe(201);
			expect(r.body.key.remoteJid).toBe('5511999990000@s.whatsapp.net');
		});
	});
});

describe('webhook delivery headers', () => {
	let rx: Receiver;
	beforeEach(async () => {
		rx = await startReceiver();
	});
	afterEach(async () => {
		await rx.close();
	});

	it('2.4 adds X-Instance-ID, X-Instance-Name, X-Event-Type, X-Timestamp and its User-Agent after the custom headers', async () => {
		await withSandbox({ version: '2.4.0' }, async (sb) => {
			await hook(sb, rx, { 'x-secret': 'abc', 'User-Agent': 'mine', 'X-Event-Type': 'mine' });
			const before = Date.now();
			const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'hi' });
			const instanceId = d?.body.data.instanceId as string;
			expect(instanceId).toMatch(/^[0-9a-f-]{36}$/);
			expect(d?.headers).toEqual({
				'x-secret': 'abc',
				'User-Agent': 'EvolutionAPI-Webhook/2.3.7',
				'X-Event-Type': 'messages.upsert',
				'Content-Type': 'application/json',
				'X-Instance-ID': instanceId,
				'X-Instance-Name': 'demo',
				'X-Timestamp': expect.stringMatching(/^\d{13}$/),
			});
			const got = rx.received[0].headers;
			expect(got['x-secret']).toBe('abc');
			expect(got['user-agent']).toBe('EvolutionAPI-Webhook/2.3.7');
			expect(got['x-event-type']).toBe('messages.upsert');
			expect(got['x-instance-id']).toBe(instanceId);
			expect(got['x-instance-name']).toBe('demo');
			expect(Number(got['x-timestamp'])).toBeGreaterThanOrEqual(before);
			expect(Number(got['x-timestamp'])).toBeLessThanOrEqual(Date.now());
		});
	});

	it.each(['2.3.6', '2.3.7'] as const)('%s sends the custom headers and Content-Type only', async (version) => {
		await withSandbox({ version }, async (sb) => {
			await hook(sb, rx, { 'x-secret': 'abc' });
			const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'hi' });
			expect(d?.headers).toEqual({ 'x-secret': 'abc', 'Content-Type': 'application/json' });
			expect(rx.received[0].headers['x-instance-name']).toBeUndefined();
		});
	});
});
