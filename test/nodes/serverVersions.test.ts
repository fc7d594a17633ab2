import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun } from '../harness/engine';
import { useHostileServer, type Answer, type Seen } from '../hostile/server';

/**
 * How the node learns the server's version and what it does with it: operations of newer
 * servers fail before sending on older ones (or explain a 404), the version is asked once per
 * run and only when needed, and 2.4's licence gate reads as what it is. A scripted server
 * answers each request, so every request the node makes is seen and asserted.
 */

const KEY = 'server-versions-key-1234567890';
const CAROUSEL = {
	resource: 'message',
	operation: 'sendCarousel',
	number: '5511999990000',
	body: 'Our menu',
	cards: { card: [{ body: 'Pizza', buttons: { button: [{ type: 'reply', displayText: 'Order', id: 'pizza' }] } }] },
};
const SENT = { key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: '3EB0C0FFEE' }, status: 'PENDING' };

describe('server versions', () => {
	const hostile = useHostileServer();

	async function run(parameters: INodeParameters, options: { credentials?: IDataObject; items?: IDataObject[]; continueOnFail?: boolean } = {}): Promise<NodeRun> {
		return await runNode({
			parameters: { instance: 'demo', ...parameters },
			items: options.items,
			continueOnFail: options.continueOnFail,
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2', ...options.credentials },
		});
	}

	/** A server of this version: `GET /` tells it, every other route answers `route`. */
	function serverOf(version: string | undefined, route: (request: Seen) => Answer = () => ({ status: 201, json: SENT })): void {
		hostile.current.answerAll((request) => {
			if (request.method === 'GET' && request.path === '/') {
				return version === undefined ? { status: 404, json: { message: 'Cannot GET /' } } : { status: 200, json: { status: 200, message: 'Welcome', version } };
			}
			return route(request);
		});
	}

	const requests = () => hostile.current.seen.map(({ method, path, body }) => ({ method, path, body: body === '' ? undefined : (JSON.parse(body) as unknown) }));

	test('detected 2.3.7: a 2.4 operation fails before sending, naming the version, after one GET / for all items', async () => {
		serverOf('2.3.7');
		const result = await run(CAROUSEL, { items: [{}, {}], continueOnFail: true });
		expect(result.items.map((item) => item.json.error)).toEqual([
			'Message → Send Carousel needs Evolution API 2.4 or newer; this server is 2.3.7 [item 0]',
			'Message → Send Carousel needs Evolution API 2.4 or newer; this server is 2.3.7 [item 1]',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(requests()).toEqual([{ method: 'GET', path: '/', body: undefined }]);
		// The root is public: the key is not sent there.
		expect(hostile.current.seen[0].headers.apikey).toBeUndefined();
	});

	test('detected 2.4.0-rc2: the operation is sent, after one GET /', async () => {
		serverOf('2.4.0-rc2');
		const result = await run(CAROUSEL);
		expect(result.error).toBeUndefined();
		expect(requests()).toEqual([
			{ method: 'GET', path: '/', body: undefined },
			{
				method: 'POST',
				path: '/message/sendCarousel/demo',
				body: { number: '5511999990000', body: 'Our menu', cards: [{ body: 'Pizza', buttons: [{ type: 'reply', displayText: 'Order', id: 'pizza' }] }] },
			},
		]);
		expect(result.items).toEqual([{ json: SENT, pairedItem: { item: 0 } }]);
	});

	test('a version fixed in the credential asks nothing: 2.3.6 refuses without any request, 2.4.x sends at once', async () => {
		serverOf('2.4.0');
		const older = await run({ resource: 'group', operation: 'updateMemberAddMode', groupJid: '120363000000000001@g.us', mode: 'all_member_add' }, { credentials: { serverVersion: '2.3.6' } });
		expect(older.error?.message).toBe('Group → Update Member Add Mode needs Evolution API 2.4 or newer; this server is 2.3.6 [item 0]');
		expect(requests()).toEqual([]);
		const newer = await run({ resource: 'group', operation: 'updateMemberAddMode', groupJid: '120363000000000001@g.us', mode: 'all_member_add' }, { credentials: { serverVersion: '2.4.0' } });
		expect(newer.error).toBeUndefined();
		expect(requests()).toEqual([{ method: 'POST', path: '/group/updateMemberAddMode/demo?groupJid=120363000000000001%40g.us', body: { groupJid: '120363000000000001@g.us', mode: 'all_member_add' } }]);
	});

	test('an operation every version has never asks for the version', async () => {
		serverOf('2.3.7');
		const result = await run({ resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' }, { items: [{}, {}] });
		expect(result.error).toBeUndefined();
		expect(requests().map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /message/sendText/demo', 'POST /message/sendText/demo']);
	});

	test('version unknown (no GET /): a 404 from the route says the operation needs Evolution API 2.4 or newer', async () => {
		serverOf(undefined, (request) => ({ status: 404, json: { status: 404, error: 'Not Found', response: { message: [`Cannot POST ${request.path}`] } } }));
		const result = await run({ resource: 'chat', operation: 'getManyChannels', limit: 5 });
		expect(result.error?.message).toBe('Chat → Get Many Channels needs Evolution API 2.4 or newer: the server does not know its route (HTTP 404)');
		expect(result.error?.description).toBe('Upgrade the server to Evolution API 2.4 or newer, or check the Base URL in the credential.');
		expect(requests()).toEqual([
			{ method: 'GET', path: '/', body: undefined },
			{ method: 'POST', path: '/chat/findChannels/demo', body: { page: 1, limit: 5 } },
		]);
	});

	test('an unknown instance keeps its own 404 message on a 2.4 route', async () => {
		serverOf('2.4.0', () => ({ status: 404, json: { status: 404, error: 'Not Found', response: { message: ['The "demo" instance does not exist'] } } }));
		const result = await run({ resource: 'message', operation: 'getPollVotes', remoteJid: '5511999990000@s.whatsapp.net', messageId: 'POLL1' });
		expect(result.error?.message).toBe('The "demo" instance does not exist (HTTP 404)');
		expect(requests()).toEqual([
			{ method: 'GET', path: '/', body: undefined },
			{ method: 'POST', path: '/chat/getPollVote/demo', body: { message: { key: { id: 'POLL1' } }, remoteJid: '5511999990000@s.whatsapp.net' } },
		]);
	});

	test('an event only 2.4 knows: refused before sending on a 2.3.7 server, sent to a 2.4 one', async () => {
		const webhook = { resource: 'webhook', operation: 'set', url: 'https://n8n.example.com/webhook/x', events: ['MESSAGES_UPSERT', 'MESSAGING_HISTORY_SET'] };
		serverOf('2.3.7');
		const older = await run(webhook);
		expect(older.error?.message).toBe('"Events" MESSAGING_HISTORY_SET not accepted by a v2.3.7 server [item 0]');
		expect(requests()).toEqual([{ method: 'GET', path: '/', body: undefined }]);
		hostile.current.seen.length = 0;
		serverOf('2.4.0-rc2', () => ({ status: 201, json: { webhook: {} } }));
		const newer = await run(webhook);
		expect(newer.error).toBeUndefined();
		expect(requests()[1]).toEqual({
			method: 'POST',
			path: '/webhook/set/demo',
			body: { webhook: { enabled: true, url: 'https://n8n.example.com/webhook/x', byEvents: false, base64: false, events: ['MESSAGES_UPSERT', 'MESSAGING_HISTORY_SET'] } },
		});
	});

	test('without a 2.4-only event Set Webhook does not ask for the version', async () => {
		serverOf('2.3.7', () => ({ status: 201, json: { webhook: {} } }));
		const result = await run({ resource: 'webhook', operation: 'set', url: 'https://n8n.example.com/webhook/x', events: ['MESSAGES_UPSERT'] });
		expect(result.error).toBeUndefined();
		expect(requests().map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /webhook/set/demo']);
	});
});

describe("2.4's licence gate", () => {
	const hostile = useHostileServer();
	const gate = {
		error: 'service not activated',
		code: 'LICENSE_REQUIRED',
		register_url: 'http://evolution.example.com/manager/login',
		instance_id: 'a1b2c3',
		docs_url: 'https://docs.evolutionfoundation.com.br/licensing',
		message: 'This Evolution API instance is not activated. Open http://evolution.example.com/manager/login to activate, or set AUTHENTICATION_API_KEY in your .env with a valid licensing key.',
	};

	test('the error says what is missing, the register address the server gives and how to activate', async () => {
		hostile.current.answerAll(() => ({ status: 503, json: gate }));
		const result = await runNode({
			parameters: { instance: 'demo', resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' },
			continueOnFail: true,
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' },
		});
		expect(result.items).toEqual([
			{
				json: {
					error: 'The server is not activated: Evolution API 2.4 needs a licence before it serves any request (HTTP 503 LICENSE_REQUIRED)',
					description:
						"To activate the server, open http://evolution.example.com/manager/login and activate it there, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Nothing was sent.",
					httpCode: '503',
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(hostile.current.seen.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /message/sendText/demo']);
	});

	test('a register address that is not a plain web address is not shown', async () => {
		hostile.current.answerAll(() => ({ status: 503, json: { ...gate, register_url: 'javascript:alert(1)' } }));
		const result = await runNode({
			parameters: { instance: 'demo', resource: 'chat', operation: 'getMany', limit: 1 },
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' },
		});
		expect(result.error?.description).toBe(
			"To activate the server, open the server's /manager/login page and activate it there, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Nothing was sent.",
		);
	});

	test('any other 503 keeps the server message', async () => {
		hostile.current.answerAll(() => ({ status: 503, json: { status: 503, error: 'Service Unavailable', response: { message: 'maintenance' } } }));
		const result = await runNode({
			parameters: { instance: 'demo', resource: 'chat', operation: 'getMany', limit: 1 },
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' },
		});
		expect(result.error?.message).toBe('maintenance (HTTP 503)');
	});
});
