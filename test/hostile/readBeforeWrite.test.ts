import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun } from '../harness/engine';
import { visible } from './visible';
import { useHostileServer, type Answer, type Seen } from './server';

/**
 * The read before a write (Chatwoot → Set, Update Settings, Update Privacy): a read that is
 * not the stored record stops the item before anything is written; the secrets of the read's
 * answer and of the item's own request are hidden from the read's errors and from the write's
 * echo; Update Settings sends only what the user set and fails before a write the server's
 * schema refuses. (Every read of the registry meets every hostile shape in helperRequests.test.ts.)
 */

const KEY = 'read-write-key-0123456789';
const hostile = useHostileServer();
const requests = () => hostile.current.seen.map((request) => `${request.method} ${request.path.split('?')[0]}`);
const bodyOf = (request: Seen) => JSON.parse(request.body || '{}') as IDataObject;

async function run(parameters: INodeParameters): Promise<NodeRun> {
	return await runNode({ parameters: { instance: 'demo', ...parameters }, credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2', timeout: 2, serverVersion: '2.4.0' } });
}

/** The read answered as given, the write as the server would (its echo, when given). */
function answers(read: (request: Seen) => Answer, write: (request: Seen) => Answer = () => ({ status: 201, json: { saved: true } })) {
	hostile.current.answerAll((request) => (request.method === 'GET' ? read(request) : write(request)));
}

const CHATWOOT: INodeParameters = { resource: 'chatwoot', operation: 'set', url: 'https://chatwoot.example.com', accountId: '1', token: 'item-cw-token-0123456789' };

describe('Chatwoot → Set reads the stored connection strictly', () => {
	test.each<[string, unknown, string]>([
		['null', null, 'null, not a record'],
		['an empty body', undefined, 'an empty body, not a record'],
		['a list', [{ enabled: true, url: 'https://chatwoot.example.com' }], 'a list, not a record'],
		['200 {"error":…}', { error: true, message: 'Chatwoot is disabled' }, 'with an error (Chatwoot is disabled)'],
		['a wrapped record', { chatwoot: { enabled: true, url: 'https://chatwoot.example.com', token: 'x' } }, 'an object (chatwoot), not a record of what it reads (none of enabled, url, accountId, token)'],
	])('a read answering %s: the item fails naming the read; nothing is written', async (_what, answer, problem) => {
		answers(() => ({ json: answer }));
		const result = await run({ ...CHATWOOT, chatwootEnabled: false });
		expect(result.error?.message).toBe(`The read before the write (GET /chatwoot/find/demo) answered ${problem}; nothing was written`);
		expect(requests()).toEqual(['GET /chatwoot/find/demo']);
	});

	test.each<[string, (token: string) => Answer | 'redirect']>([
		['a 400', (token) => ({ status: 400, json: { status: 400, error: 'Bad Request', response: { message: [`token ${token} refused`] } } })],
		['an HTML 500', (token) => ({ status: 500, json: `<html><body>Internal error near ${token}</body></html>` })],
		['a 302', () => 'redirect'],
	])('the item\'s token, echoed by the read in %s, does not show in the error', async (_what, answer) => {
		const token = String(CHATWOOT.token);
		hostile.current.intercept((req, res) => {
			const given = req.method === 'GET' ? answer(token) : undefined;
			if (given === undefined) return false;
			if (given === 'redirect') {
				res.writeHead(302, { location: `https://elsewhere.example.com/login?token=${token}&next=${token}` });
			} else if (typeof given.json === 'string') {
				res.writeHead(given.status ?? 200, { 'content-type': 'text/html' });
				res.write(given.json);
			} else {
				res.writeHead(given.status ?? 200, { 'content-type': 'application/json' });
				res.write(JSON.stringify(given.json));
			}
			res.end();
			return true;
		});
		const result = await run(CHATWOOT);
		expect(result.error?.message).toMatch(/^The read before the write failed: /);
		expect(visible(result)).not.toContain(token);
		expect(requests()).toEqual(['GET /chatwoot/find/demo']);
	});

	test('the stored token the read answers is hidden where the write echoes it', async () => {
		const stored = 'stored-cw-token-9876543210';
		answers(
			() => ({ json: { enabled: true, url: 'https://chatwoot.example.com', accountId: '1', token: stored, nameInbox: 'Support' } }),
			(request) => ({ status: 201, json: { saved: `kept connection ${String(bodyOf(request).token)}` } }),
		);
		const result = await run({ ...CHATWOOT, chatwootEnabled: false });
		expect(result.error).toBeUndefined();
		expect(bodyOf(hostile.current.seen[1])).toMatchObject({ enabled: false, token: stored });
		expect(visible(result)).not.toContain(stored);
	});
});

describe('Update Settings', () => {
	const STORED = {
		expire: 300,
		keywordFinish: 'bye',
		delayMessage: 1000,
		unknownMessage: 'Sorry',
		listeningFromMe: true,
		stopBotFromMe: true,
		keepOpen: false,
		debounceTime: 1,
		ignoreJids: [],
		splitMessages: false,
		timePerChar: 0,
	};
	const OPENAI: INodeParameters = { resource: 'chatbot', operation: 'updateSettings', kind: 'openai', openaiCredsId: { __rl: true, mode: 'id', value: 'cred-1' }, settings: { expire: 20 } };

	test('a fresh node (Speech to Text left on Keep Current) does not send Speech to Text: the stored one stays', async () => {
		answers(() => ({ json: { ...STORED, openaiCredsId: 'cred-1', speechToText: true } }));
		const result = await run(OPENAI);
		expect(result.error).toBeUndefined();
		const write = bodyOf(hostile.current.seen[1]);
		expect(write).toEqual({ ...STORED, openaiCredsId: 'cred-1', expire: 20 });
		expect('speechToText' in write).toBe(false);
	});

	test.each([
		[true, true],
		[false, false],
	])('Speech to Text set to %s is sent as %s', async (chosen, sent) => {
		answers(() => ({ json: { ...STORED, openaiCredsId: 'cred-1', speechToText: !sent } }));
		const result = await run({ ...OPENAI, speechToText: chosen });
		expect(result.error).toBeUndefined();
		expect(bodyOf(hostile.current.seen[1]).speechToText).toBe(sent);
	});

	test('stored settings with null where the schema requires a value (a first bot created without options): fails before the write, naming the settings to give', async () => {
		answers(() => ({ json: { ...STORED, keywordFinish: null, delayMessage: null, unknownMessage: null } }));
		const result = await run({ resource: 'chatbot', operation: 'updateSettings', kind: 'typebot', settings: { expire: 5 } });
		expect(result.error?.message).toBe(
			'"Settings: Keyword to End" cannot be kept: the server\'s stored settings have no value for Settings: Keyword to End, Settings: Typing Delay (Milliseconds), Settings: Unknown Message Answer, and the server takes the settings only with them [item 0]',
		);
		expect(result.error?.description).toMatch(/nothing was written/);
		expect(requests()).toEqual(['GET /typebot/fetchSettings/demo']);
	});

	test('the same settings given in the item are written', async () => {
		answers(() => ({ json: { ...STORED, keywordFinish: null, delayMessage: null, unknownMessage: null } }));
		const result = await run({ resource: 'chatbot', operation: 'updateSettings', kind: 'typebot', settings: { expire: 5, keywordFinish: '#stop', delayMessage: 500, unknownMessage: 'Say again?' } });
		expect(result.error).toBeUndefined();
		expect(bodyOf(hostile.current.seen[1])).toMatchObject({ expire: 5, keywordFinish: '#stop', delayMessage: 500, unknownMessage: 'Say again?' });
	});

	test('a fallback bot\'s API key in the read is hidden where the write echoes it', async () => {
		const fallbackKey = 'fallback-bot-key-5555555555';
		answers(
			() => ({ json: { ...STORED, fallbackId: 'bot-9', fallback: { id: 'bot-9', apiUrl: 'https://dify.example.com', apiKey: fallbackKey } } }),
			() => ({ status: 201, json: { message: `settings saved; fallback bot-9 answers with ${fallbackKey}` } }),
		);
		const result = await run({ resource: 'chatbot', operation: 'updateSettings', kind: 'dify', settings: { expire: 5 } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(visible(result)).not.toContain(fallbackKey);
	});
});
