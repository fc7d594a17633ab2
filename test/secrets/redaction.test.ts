import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun } from '../harness/engine';
import { startHostileServer, type Behaviour, type Echo, type HostileServer } from '../hostile/server';

/**
 * Nothing secret in any output: every operation's answer and error goes through the one
 * redaction, whether the server answers 2xx or not, whatever shape, case or encoding its
 * echo takes. The harness also checks every run for the key (test/harness/secrets.ts); these
 * tests add the exact forms each answer used.
 */

// URL-special characters, so that the raw and the encoded forms differ.
const KEY = 'Hostile/Key+Secret=0123456789';

const SEND_TEXT: INodeParameters = { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' };
const CONNECT: INodeParameters = { resource: 'instance', operation: 'connect' };
const RESTART: INodeParameters = { resource: 'instance', operation: 'restart' };

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Everything a user or n8n's database could see of a run. */
function visible(run: NodeRun): string {
	const error = run.error as unknown as Record<string, unknown> | undefined;
	const fields = error ? Object.getOwnPropertyNames(error).filter((name) => name !== 'node').map((name) => `${name}:${JSON.stringify(error[name] ?? null)}`) : [];
	return [JSON.stringify(run.items), JSON.stringify(run.run.data.resultData.runData), ...fields, error?.stack ?? ''].join('\n');
}

describe('redaction of answers and errors (through the engine, against a hostile server)', () => {
	let server: HostileServer;
	beforeAll(async () => {
		server = await startHostileServer();
	});
	afterAll(async () => await server.close());
	beforeEach(() => {
		server.seen.length = 0;
	});

	async function run(parameters: INodeParameters, behaviour: Behaviour, options: { continueOnFail?: boolean; apiKey?: string; baseUrl?: string } = {}) {
		server.script(behaviour);
		return await runNode({
			parameters: { instance: 'demo', ...parameters },
			credentials: { baseUrl: options.baseUrl ?? server.url, apiKey: options.apiKey ?? KEY, dialect: 'v2', timeout: 2 },
			continueOnFail: options.continueOnFail,
		});
	}

	describe('a key echoed in a 200 answer that reports an error', () => {
		test.each([['Connect', CONNECT], ['Restart', RESTART]])('%s fails with the server message, without the key and cut to a readable length', async (_name, parameters) => {
			const result = await run(parameters, 'echo-key-200-error');
			expect(server.seen).toHaveLength(1);
			expect(server.seen[0].headers.apikey).toBe(KEY);
			expect(result.items).toEqual([]);
			expect(result.error?.message).toMatch(/^"Operation" failed on the server: Invalid apikey \[redacted\] x+… \[item 0\]$/);
			expect(result.error!.message.length).toBeLessThan(600);
			expect(result.error!.stack!.length).toBeLessThan(6_000);
			expect(visible(result)).not.toContain(KEY);
		});

		test.each([['Connect', CONNECT], ['Restart', RESTART]])('%s with Continue On Fail: the error item is redacted and cut too', async (_name, parameters) => {
			const result = await run(parameters, 'echo-key-200-error', { continueOnFail: true });
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json.error).toMatch(/Invalid apikey \[redacted\]/);
			expect(String(result.items[0].json.error).length).toBeLessThan(600);
			expect(visible(result)).not.toContain(KEY);
		});
	});

	describe('a 2xx answer that says it failed', () => {
		test.each<[string, unknown]>([
			['{"error":"text"}', { error: 'instance not found' }],
			['{"error":{"message":…}}', { error: { message: 'instance not found' } }],
			['{"error":true,"response":{"message":[…]}}', { error: true, response: { message: ['instance not found'] } }],
		])('Connect answering 200 %s is an error with the server text, not a success', async (_name, answer) => {
			const result = await run(CONNECT, () => [200, answer]);
			expect(server.seen).toHaveLength(1);
			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe('"Operation" failed on the server: instance not found [item 0]');
		});

		test('Connect answering 200 {"error":false} stays a success', async () => {
			const result = await run(CONNECT, () => [200, { error: false, code: 'ABC' }]);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([{ error: false, code: 'ABC' }]);
		});
	});

	describe('successful answers are redacted too', () => {
		test('a send whose answer echoes the key as a field, in a text and as an object key', async () => {
			const result = await run(SEND_TEXT, (key) => [201, { key: { id: 'M1' }, echo: key, note: `sent with ${key}`, [key]: true }]);
			expect(result.error).toBeUndefined();
			expect(server.seen[0].headers.apikey).toBe(KEY);
			expect(result.items.map((item) => item.json)).toEqual([
				{ key: { id: 'M1' }, echo: '[redacted]', note: 'sent with [redacted]', '[redacted]': true, messageId: 'M1' },
			]);
		});

		test('Get State whose instance.token is the key', async () => {
			const result = await run({ resource: 'instance', operation: 'getState' }, (key) => [200, { instance: { instanceName: 'demo', state: 'open', token: key } }]);
			expect(result.items.map((item) => item.json)).toEqual([{ instance: { instanceName: 'demo', state: 'open', token: '[redacted]' } }]);
		});

		test('Get Many Instances hides every field named like a secret, in any case and at any depth', async () => {
			const names = ['Token', 'TOKEN', 'api_key', 'x-api-key', 'accessToken', 'authorization', 'secret', 'clientSecret', 'secretAccessKey', 'password', 'chatwootToken', 'proxyPassword'];
			const deep = (level: number): IDataObject => (level === 0 ? { token: 'deep-value-12345' } : { next: deep(level - 1) });
			const instance: IDataObject = {
				name: 'demo',
				webhook: { url: 'https://n8n.example.com/webhook/abc?secret=webhook-secret-value&keep=1', headers: { 'x-custom-auth': 'header-value-123', accept: 'application/json' } },
				deep: deep(20),
			};
			names.forEach((name, index) => (instance[name] = `value-of-${index}-secret`));
			const result = await run({ resource: 'instance', operation: 'getMany', returnAll: true }, () => [200, [instance]]);
			expect(result.error).toBeUndefined();
			const text = JSON.stringify(result.items);
			names.forEach((_name, index) => expect(text).not.toContain(`value-of-${index}-secret`));
			for (const hidden of ['webhook-secret-value', 'header-value-123', 'deep-value-12345']) expect(text).not.toContain(hidden);
			const json = result.items[0].json as IDataObject;
			expect(json.name).toBe('demo');
			expect(json.Token).toBe('[redacted]');
			// The URL keeps everything but its secret; harmless headers stay readable.
			expect(json.webhook).toEqual({ url: 'https://n8n.example.com/webhook/abc?keep=1', headers: { 'x-custom-auth': '[redacted]', accept: 'application/json' } });
		});

		test('Download Media does not pass apikey or token through', async () => {
			const result = await run(
				{ resource: 'message', operation: 'downloadMedia', messageId: 'M1', binaryPropertyName: 'data' },
				() => [201, { base64: base64('hello'), mimetype: 'text/plain', fileName: 'a.txt', apikey: 'media-apikey-123', token: 'media-token-456' }],
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ apikey: '[redacted]', token: '[redacted]' });
			expect(JSON.stringify(result.items)).not.toMatch(/media-apikey-123|media-token-456/);
		});
	});

	describe('short secrets and other spellings', () => {
		test('a one-character key does not garble the status in the message or httpCode', async () => {
			const result = await run(SEND_TEXT, () => [400, { response: { message: ['Bad request 4 times'] } }], { apiKey: '4' });
			expect(result.error?.message).toBe('Bad request 4 times (HTTP 400)');
			expect((result.error as unknown as { httpCode?: string }).httpCode).toBe('400');
			const continued = await run(SEND_TEXT, () => [400, { response: { message: ['Bad request'] } }], { apiKey: '4', continueOnFail: true });
			expect(continued.items[0].json).toMatchObject({ error: 'Bad request (HTTP 400)', httpCode: '400' });
		});

		test('a key that straddles the point where a long server text is cut leaves no part of itself', async () => {
			for (const offset of [490, 495, 499, 500]) {
				const result = await run(SEND_TEXT, (key) => [400, { response: { message: `${'a'.repeat(offset)}${key} tail` } }]);
				// Redacted first, then cut: the cut may split the marker, never the key.
				const redacted = `${'a'.repeat(offset)}[redacted] tail`;
				expect(result.error?.message).toBe(`${redacted.length > 500 ? `${redacted.slice(0, 500)}…` : redacted} (HTTP 400)`);
				expect(result.error?.message).not.toContain(KEY.slice(0, 6));
			}
		});

		test('a key echoed upper-cased, lower-cased, URL-encoded and in base64 is redacted', async () => {
			const result = await run(SEND_TEXT, (key) => [500, { response: { message: `${key.toUpperCase()} ${key.toLowerCase()} ${encodeURIComponent(key)} ${base64(key)}` } }]);
			expect(result.error?.message).toBe('[redacted] [redacted] [redacted] [redacted] (HTTP 500)');
		});
	});

	describe('credential and network problems say what they are', () => {
		test.each([
			['a trailing line break', `${KEY}\n`, /^The API key in the credential contains a line break$/],
			['a zero-width space', `${KEY}\u200b`, /^The API key in the credential contains an invisible character/],
		])('an API key with %s is named, and nothing is sent', async (_name, apiKey, message) => {
			const result = await run(SEND_TEXT, 'ok', { apiKey });
			expect(result.error?.message).toMatch(message);
			expect(result.error?.message).not.toMatch(/unreachable/);
			expect(result.error?.description).toMatch(/API key in the credential/);
			expect(server.seen).toEqual([]);
		});

		test.each([
			['empty', '', /^The Base URL in the credential is empty$/],
			['without a scheme', 'evolution.example.com', /^The Base URL in the credential does not start with http:\/\/ or https:\/\/$/],
		])('a Base URL that is %s is named, not "unreachable"', async (_name, baseUrl, message) => {
			const result = await run(SEND_TEXT, 'ok', { baseUrl });
			expect(result.error?.message).toMatch(message);
			expect(server.seen).toEqual([]);
		});

		test('a connection dropped after the headers is not "unreachable"', async () => {
			const result = await run(SEND_TEXT, 'drop-after-headers');
			expect(server.seen).toHaveLength(1);
			expect(result.error?.message).toBe('The server closed the connection in the middle of its answer');
			expect(result.error?.description).toMatch(/may or may not have handled/);
		});

		test('the password of a Base URL never shows in an error', async () => {
			const url = new URL(server.url);
			url.username = 'admin';
			url.password = 'base-url-password-1';
			const result = await run(SEND_TEXT, () => [500, { response: { message: `login admin:base-url-password-1 at ${url.toString()}` } }], { baseUrl: url.toString() });
			expect(result.error?.message).toMatch(/\(HTTP 500\)$/);
			expect(visible(result)).not.toContain('base-url-password-1');
		});
	});

	describe('generated answers (property tests)', () => {
		/** How an answer may spell the key. */
		const spelling = fc.constantFrom<[string, (key: string) => string]>(
			['raw', (key) => key],
			['upper case', (key) => key.toUpperCase()],
			['lower case', (key) => key.toLowerCase()],
			['URL-encoded', (key) => encodeURIComponent(key)],
			['base64', (key) => base64(key)],
			['JSON-escaped', (key) => JSON.stringify(key).slice(1, -1)],
		);
		/** Where an answer puts it: a value, a key, inside a text, under a secret's name. */
		const placement = fc.constantFrom('value', 'key', 'text', 'named');
		const echo = fc.record({
			spelling,
			placement,
			depth: fc.integer({ min: 0, max: 60 }),
			asList: fc.boolean(),
			around: fc.dictionary(fc.string({ maxLength: 6 }).filter((name) => !/token|key|secret|pass|auth|cookie/i.test(name)), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
			words: fc.string({ maxLength: 12 }),
		});
		type EchoShape = typeof echo extends fc.Arbitrary<infer T> ? T : never;

		function answerOf(shape: EchoShape, key: string): { answer: IDataObject; form: string } {
			const form = shape.spelling[1](key);
			let leaf: unknown;
			if (shape.placement === 'value') leaf = { echo: form };
			else if (shape.placement === 'key') leaf = { [form]: 1 };
			else if (shape.placement === 'text') leaf = { note: `${shape.words} ${form} ${shape.words}` };
			else leaf = { Instance_Token: `${shape.words}unknown` };
			for (let level = 0; level < shape.depth; level++) leaf = shape.asList ? [leaf] : { level: leaf };
			return { answer: { ...shape.around, key: { id: 'M1' }, data: leaf as IDataObject }, form };
		}

		test('a successful send never outputs the key, however the answer echoes it', async () => {
			await fc.assert(
				fc.asyncProperty(echo, async (shape) => {
					let form = '';
					const result = await run(SEND_TEXT, ((key) => {
						const built = answerOf(shape, key);
						form = built.form;
						return [201, built.answer];
					}) as Echo);
					expect(result.error).toBeUndefined();
					expect(result.items).toHaveLength(1);
					expect(visible(result)).not.toContain(form);
					if (shape.placement === 'named') expect(JSON.stringify(result.items)).not.toContain(`${shape.words}unknown`);
				}),
				{ numRuns: 40 },
			);
		});

		test('an error answer never shows the key, and its message stays readable', async () => {
			await fc.assert(
				fc.asyncProperty(echo, fc.constantFrom(400, 404, 500), fc.boolean(), async (shape, status, continueOnFail) => {
					let form = '';
					const result = await run(
						SEND_TEXT,
						((key) => {
							const built = answerOf(shape, key);
							form = built.form;
							return [status, { ...built.answer, response: { message: [`refused ${form}`, 'y'.repeat(5_000)] } }];
						}) as Echo,
						{ continueOnFail },
					);
					const message = continueOnFail ? String(result.items[0]?.json.error) : String(result.error?.message);
					expect(message).toMatch(new RegExp(`^refused \\[redacted\\]`));
					expect(message.length).toBeLessThan(600);
					expect(visible(result)).not.toContain(form);
				}),
				{ numRuns: 30 },
			);
		});

		/** The shapes a 2xx answer takes when the server means an error. */
		const okError = fc.constantFrom<[string, (text: string) => unknown]>(
			['error true + message', (text) => ({ error: true, message: text })],
			['error text', (text) => ({ error: text })],
			['error object', (text) => ({ error: { message: text } })],
			['nested response message', (text) => ({ error: true, response: { message: [[text]] } })],
		);

		test('a 2xx error answer to Connect or Restart is an error, without the key, cut to a readable length', async () => {
			await fc.assert(
				fc.asyncProperty(okError, spelling, fc.constantFrom(200, 201), fc.constantFrom(CONNECT, RESTART), fc.integer({ min: 0, max: 20_000 }), async (shape, spell, status, parameters, padding) => {
					let form = '';
					const result = await run(parameters, ((key) => {
						form = spell[1](key);
						return [status, shape[1](`bad key ${form} ${'z'.repeat(padding)}`)];
					}) as Echo);
					expect(result.items).toEqual([]);
					expect(result.error?.message).toMatch(/^"Operation" failed on the server: bad key \[redacted\]/);
					expect(result.error!.message.length).toBeLessThan(600);
					expect(visible(result)).not.toContain(form);
				}),
				{ numRuns: 30 },
			);
		});
	});
});
