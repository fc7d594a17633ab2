import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MAX_ANSWER_BYTES } from '../../nodes/shared/transport';
import { MESSAGE_IDS, runNode, type NodeRun } from '../harness/engine';
import { loadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
import { useHostileServer, type Seen } from './server';

/**
 * What the node trusts, each as an attacker, a broken server or an unlucky user meets it: ids
 * that would resolve into other paths, answers without end, `200 null` for a list, a resend
 * after a look-up that failed, secrets of one item in another's error, numbers past their
 * range. Through n8n's engine, against a server on a real socket.
 */

const KEY = 'trust-test-key-0123456789';
const RETRY = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };
const rl = (value: string) => ({ __rl: true as const, mode: 'id', value });
const TEXT: INodeParameters = { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' };

const hostile = useHostileServer();

async function run(parameters: INodeParameters, options: { items?: IDataObject[]; continueOnFail?: boolean; settings?: IDataObject; credentials?: IDataObject } = {}): Promise<NodeRun> {
	return await runNode({
		parameters: { instance: 'demo', ...parameters },
		items: options.items,
		continueOnFail: options.continueOnFail,
		settings: options.settings,
		credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2', timeout: 5, ...options.credentials },
	});
}

const paths = () => hostile.current.seen.map((request) => `${request.method} ${request.path}`);

describe('(2)(3) an id in the path is one segment of a size a URL carries', () => {
	const BOT_OPERATIONS: Array<[string, INodeParameters]> = [
		['get', { resource: 'chatbot', operation: 'get', kind: 'typebot' }],
		['update', { resource: 'chatbot', operation: 'update', kind: 'typebot', url: 'https://typebot.example.com', typebot: 'flow-1', enabled: true, triggerType: 'keyword', triggerOperator: 'equals', triggerValue: 'hi' }],
		['delete', { resource: 'chatbot', operation: 'delete', kind: 'dify' }],
		['getSessions', { resource: 'chatbot', operation: 'getSessions', kind: 'typebot', returnAll: true }],
	];
	const DOTS = ['.', '..', ' .. ', '%2e%2e', '%2E.', '%252e%252e'];

	test.each(BOT_OPERATIONS)('chatbot %s: a Bot ID that is a dot segment, however encoded, is refused before any request', async (_name, parameters) => {
		for (const id of DOTS) {
			const result = await run({ ...parameters, botId: rl(id) });
			expect(result.error?.message).toBe(`"Bot" cannot be "${id.trim()}": in a URL it means another path [item 0]`);
		}
		expect(paths()).toEqual([]);
	});

	test('Delete OpenAI Credential: an OpenAI Credential ID ".." is refused before any request', async () => {
		const result = await run({ resource: 'chatbot', operation: 'deleteOpenAiCredential', openaiCredsId: rl('..') });
		expect(result.error?.message).toBe('"OpenAI Credential" cannot be "..": in a URL it means another path [item 0]');
		expect(paths()).toEqual([]);
	});

	test('a 10 MB Bot ID is refused naming the field, not sent for the server to answer HTTP 431', async () => {
		const result = await run({ resource: 'chatbot', operation: 'get', kind: 'typebot', botId: rl('b'.repeat(10 * 1024 * 1024)) });
		expect(result.error?.message).toBe('"Bot" is too long to go into the request\'s path (10,485,760 bytes; at most 2,048) [item 0]');
		expect(paths()).toEqual([]);
	});

	test('an ordinary id with a slash or a dot inside stays one encoded segment', async () => {
		hostile.current.answerAll(() => ({ json: { id: 'x' } }));
		const result = await run({ resource: 'chatbot', operation: 'get', kind: 'typebot', botId: rl('a/../b.c') });
		expect(result.error).toBeUndefined();
		expect(paths()).toEqual(['GET /typebot/fetch/a%2F..%2Fb.c/demo']);
	});
});

describe('(4) every answer has a bound', () => {
	test(`Get Catalog answered with a JSON list that never ends stops at ${MAX_ANSWER_BYTES / 1024 / 1024} MB with an error naming the bound`, async () => {
		let written = 0;
		let closed = false;
		hostile.current.respond((_req, res) => {
			res.on('close', () => (closed = true));
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('{"catalog":[');
			const chunk = `${'{"id":"product","name":"xxxxxxxxxxxxxxxx"},'.repeat(1500)}`;
			const more = () => {
				if (closed || written > 4 * MAX_ANSWER_BYTES) return;
				written += chunk.length;
				if (res.write(chunk)) setImmediate(more);
				else res.once('drain', more);
			};
			more();
		});
		const result = await run({ resource: 'business', operation: 'getCatalog', number: '5511999990000' }, { credentials: { timeout: 60 } });
		expect(result.error?.message).toBe('The server\'s answer is larger than 16 MB, the most an answer may have; reading stopped there');
		expect(result.items).toEqual([]);
		// The rest of the answer is never taken in: the server stops writing once the socket backs up.
		// The node closed the connection: the server stops writing.
		for (let wait = 0; wait < 40 && !closed; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
		expect(closed).toBe(true);
		expect(written).toBeLessThan(MAX_ANSWER_BYTES + 8 * 1024 * 1024);
	}, 60_000);
});

describe('(5) a list answer that is no list is an error naming the operation', () => {
	const LISTS: Array<[string, INodeParameters, IDataObject]> = [
		['Get many chatbots', { resource: 'chatbot', operation: 'getMany', kind: 'typebot', returnAll: true }, {}],
		['Get the sessions of a chatbot', { resource: 'chatbot', operation: 'getSessions', kind: 'typebot', botId: rl('bot1'), returnAll: true }, {}],
		['Get many OpenAI credentials', { resource: 'chatbot', operation: 'getManyOpenAiCredentials', returnAll: true }, {}],
		['Get the OpenAI models', { resource: 'chatbot', operation: 'getOpenAiModels', returnAll: true }, {}],
		['Get stored media records', { resource: 'storage', operation: 'getMedia', returnAll: true }, {}],
		['Get many channels', { resource: 'chat', operation: 'getManyChannels', returnAll: true }, { serverVersion: '2.4.0' }],
		['Get many labels', { resource: 'label', operation: 'getMany', returnAll: true }, {}],
		['Get many groups', { resource: 'group', operation: 'getMany', returnAll: true }, {}],
		['Get many instances', { resource: 'instance', operation: 'getMany', returnAll: true }, {}],
	];

	test.each(LISTS)('%s answered 200 null fails the item, saying so', async (action, parameters, credentials) => {
		hostile.current.answerAll(() => ({ json: null }));
		const result = await run(parameters, { credentials });
		expect(result.error?.message).toMatch(new RegExp(`^${action} expected a list( of records)? and got (null|an empty answer) from the server$`, 'i'));
		expect(result.items).toEqual([]);
		expect(hostile.current.seen).toHaveLength(1);
	});

	test('an entry that is not a record is an error naming its place; an empty record is kept', async () => {
		hostile.current.answerAll(() => ({ json: [{ id: '1', name: 'a' }, {}, 'x'] }));
		const mixed = await run({ resource: 'label', operation: 'getMany', returnAll: true });
		expect(mixed.error?.message).toBe('Get many labels got a list whose entry 3 is a string, not a record from the server');
		hostile.current.answerAll(() => ({ json: [{ id: '1', name: 'a' }, {}] }));
		const kept = await run({ resource: 'label', operation: 'getMany', returnAll: true });
		expect(kept.items.map((item) => item.json)).toEqual([{ id: '1', name: 'a' }, {}]);
	});
});

describe('(6)(7)(8) a retried send', () => {
	/** The first send fails with a 500 (the message may be stored); the look-up answers as given. */
	function lookUpAnswers(lookUp: (request: Seen) => { status?: number; json: unknown }) {
		let sends = 0;
		hostile.current.answerAll((request) => {
			if (request.path.startsWith('/chat/findMessages/')) return lookUp(request);
			sends++;
			return sends === 1 ? { status: 500, json: { response: { message: 'stored, then crashed' } } } : { status: 201, json: { key: { id: MESSAGE_IDS[0] } } };
		});
	}

	test.each<[string, unknown]>([
		['{"error":true,"message":"database unavailable"}', { error: true, message: 'database unavailable' }],
		['{}', {}],
	])('(6) a look-up answering 200 %s fails the item; nothing is sent again', async (_name, answer) => {
		lookUpAnswers(() => ({ json: answer }));
		const result = await run(TEXT, { settings: RETRY });
		expect(result.error?.message).toMatch(/^The look-up before sending again \(POST \/chat\/findMessages\/demo\) answered .*; nothing was sent$/);
		expect(paths()).toEqual(['POST /message/sendText/demo', 'POST /chat/findMessages/demo']);
	});

	test('(7) the look-up\'s 404 (a 2.3.6 server) says it was the look-up before a resend, and what to do', async () => {
		lookUpAnswers(() => ({ status: 404, json: { status: 404, error: 'Not Found', response: { message: ['Cannot POST /chat/findMessages/demo'] } } }));
		const result = await run(TEXT, { settings: RETRY });
		expect(result.error?.message).toBe('The look-up before sending again failed: Cannot POST /chat/findMessages/demo (HTTP 404)');
		expect(result.error?.description).toMatch(/Retry On Fail ran this send again.*no Find Messages route.*turn off Retry On Fail/s);
		expect(result.error?.description).not.toMatch(/Base URL/);
		expect(paths()).toEqual(['POST /message/sendText/demo', 'POST /chat/findMessages/demo']);
	});

	test('(8) a Message ID repeated within the run is refused for the second item; the first is sent once', async () => {
		hostile.current.answerAll(() => ({ status: 201, json: { key: { id: 'ORDER-1' } } }));
		const result = await run({ ...TEXT, options: { messageId: 'ORDER-1' } }, { items: [{}, {}], continueOnFail: true });
		expect(result.items.map((item) => item.json.error ?? item.json.messageId)).toEqual([
			'ORDER-1',
			'"Options: Message ID" is "ORDER-1", the Message ID of item 0 too [item 1]',
		]);
		expect(paths()).toEqual(['POST /message/sendText/demo']);
	});

	test('(8) the look-up matches the chat too: a message with the same id in another chat is not this send', async () => {
		lookUpAnswers(() => ({
			json: { messages: { total: 1, pages: 1, currentPage: 1, records: [{ key: { id: MESSAGE_IDS[0], fromMe: true, remoteJid: '5511888880000@s.whatsapp.net' } }] } },
		}));
		const result = await run(TEXT, { settings: RETRY });
		expect(result.error).toBeUndefined();
		expect(paths()).toEqual(['POST /message/sendText/demo', 'POST /chat/findMessages/demo', 'POST /message/sendText/demo']);
		expect(result.items[0].json).toMatchObject({ key: { id: MESSAGE_IDS[0] } });
	});

	test('(8) the same id in the same chat (the ninth digit as the server stores it) is this send: not sent again', async () => {
		lookUpAnswers(() => ({
			json: { messages: { total: 1, pages: 1, currentPage: 1, records: [{ key: { id: MESSAGE_IDS[0], fromMe: true, remoteJid: '551199990000@s.whatsapp.net' } }] } },
		}));
		const result = await run({ ...TEXT, number: '5511999990000' }, { settings: RETRY });
		expect(result.error).toBeUndefined();
		expect(paths()).toEqual(['POST /message/sendText/demo', 'POST /chat/findMessages/demo']);
	});
});

describe('(9) secrets are the execution\'s, not the item\'s', () => {
	test('item 1\'s error does not show the proxy password item 0 sent', async () => {
		const passwords = ['proxy-password-item-0', 'proxy-password-item-1'];
		let calls = 0;
		hostile.current.answerAll(() => (calls++ === 0 ? { status: 201, json: { enabled: true } } : { status: 400, json: { response: { message: [`password already used by another proxy: ${passwords[0]}`] } } }));
		const result = await run(
			{ resource: 'proxy', operation: 'set', proxyEnabled: true, host: 'proxy.example.com', port: '8080', protocol: 'http', username: 'u', password: '={{ $json.password }}' },
			{ items: passwords.map((password) => ({ password })), continueOnFail: true },
		);
		expect(hostile.current.seen.map((request) => (JSON.parse(request.body) as { password: string }).password)).toEqual(passwords);
		expect(result.items[1].json.error).toBe('password already used by another proxy: [redacted] (HTTP 400)');
		expect(JSON.stringify(result.items)).not.toContain(passwords[0]);
	});

	test('a picker label holding a bot\'s key or the API key is redacted', async () => {
		hostile.current.answerAll(() => ({
			json: [
				{ id: 'bot1', description: 'Sales bot sk-live-bot-key-000111', apiKey: 'sk-live-bot-key-000111', triggerType: 'all' },
				{ id: 'bot2', description: `uses ${KEY}` },
			],
		}));
		const context = loadOptionsContext({
			type: ACTION_TYPE,
			typeVersion: 2,
			name: 'Messaging Instance',
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' },
			parameters: { resource: 'chatbot', operation: 'get', kind: 'typebot', instance: { __rl: true, mode: 'list', value: 'demo' } },
			parameter: 'botId',
		});
		const found = await new MessagingInstance().methods.listSearch.searchChatbots.call(context);
		expect(found.results).toEqual([
			{ name: 'Sales bot [redacted] (all)', value: 'bot1' },
			{ name: 'uses [redacted]', value: 'bot2' },
		]);
	});
});

describe('(10) numbers past their range are refused before any request', () => {
	test.each<[string, INodeParameters, string]>([
		['Limit 2^53 + 2', { resource: 'label', operation: 'getMany', returnAll: false, limit: 2 ** 53 + 2 }, '"Limit" must be between 1 and 100000 [item 0]'],
		['Send delay 1e300', { ...TEXT, options: { delay: 1e300 } }, '"Options: Delay (Milliseconds)" must be between 0 and 300000 [item 0]'],
		['Time to Live 2^64', { resource: 'template', operation: 'update', templateId: rl('123'), updateFields: { ttl: 2 ** 64 } }, '"Update Fields: Time to Live (Seconds)" must be between 1 and 2592000 [item 0]'],
		['Typing Delay 1e20', { resource: 'chatbot', operation: 'updateSettings', kind: 'typebot', settings: { delayMessage: 1e20 } }, '"Settings: Typing Delay (Milliseconds)" must be between 0 and 300000 [item 0]'],
	])('%s', async (_name, parameters, message) => {
		// The server's version is set: the version check comes first, and is not what this checks.
		const result = await run(parameters, { credentials: { serverVersion: '2.3.7' } });
		expect(result.error?.message).toBe(message);
		// Template operations check their own fields before asking the server about the instance.
		expect(paths()).toEqual([]);
	});
});
