import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { testCredential } from '../harness/credentialTest';
import { MESSAGE_IDS, runNode, type NodeRun } from '../harness/engine';
import { startHostileServer, type Behaviour, type Echo, type HostileServer } from './server';

/**
 * Each kind of operation against each misbehaviour of a server, through n8n's engine, with
 * and without Continue On Fail: the error says what happened, nothing is sent twice or to
 * another host, and the API key appears nowhere in the error, the items or the stored run.
 */

const KEY = 'hostile-test-key-1234567890';
const SHORT_KEY = '42';

const OPERATIONS: Record<string, INodeParameters> = {
	'Send Text (a JSON POST)': { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' },
	'Check Numbers (a list output)': { resource: 'chat', operation: 'checkNumbers', numbers: '5511999990000' },
	'Set Settings': { resource: 'settings', operation: 'set' },
	'Set Webhook': { resource: 'webhook', operation: 'set', url: 'https://example.com/hook', events: ['MESSAGES_UPSERT'] },
	'Get State (a v2 GET)': { resource: 'instance', operation: 'getState' },
	'Get Many Instances (a server route with a query)': { resource: 'instance', operation: 'getMany', returnAll: true, filters: { instanceName: 'demo' } },
};

/** Everything a user or n8n's database could see of a run. */
function visible(run: NodeRun): string {
	const error = run.error as unknown as Record<string, unknown> | undefined;
	const errorFields = error ? Object.getOwnPropertyNames(error).map((name) => `${name}:${JSON.stringify(error[name] ?? null)}`) : [];
	return [JSON.stringify(run.run), JSON.stringify(run.items), ...errorFields, error?.stack ?? ''].join('\n');
}

const EXPECTED: Record<Exclude<Behaviour, Echo>, RegExp | undefined> = {
	ok: undefined,
	empty: undefined,
	null: undefined,
	'list-of-strings': undefined,
	hang: /^The server did not answer in time: timed out after 0.3 s$/,
	trickle: /^The server did not answer in time: timed out after 0.3 s$/,
	reset: /^The server is unreachable: connection reset by the server$/,
	'redirect-same-host': /^The server redirects to \/elsewhere \(HTTP 307\)$/,
	'redirect-other-host': /^The server redirects to http:\/\/127\.0\.0\.1:\d+\/message\/sendText\/demo \(HTTP 307\)$/,
	'moved-permanently': /^The server redirects to http:\/\/127\.0\.0\.1:\d+\/ \(HTTP 301\)$/,
	'redirect-to-https': /^The server redirects to https:\/\/127\.0\.0\.1:\d+\/\S+ \(HTTP 308\)$/,
	html: /^The server answered with an HTML page instead of JSON \(HTTP 200\)$/,
	'invalid-json': /^The server answered with something that is not JSON \(application\/json\) instead of JSON \(HTTP 200\)$/,
	'rate-limited': /^The server is rate limiting requests: retry after 7 s \(HTTP 429\)$/,
	'rate-limited-until': /^The server is rate limiting requests: retry after 1(19|20) s \(HTTP 429\)$/,
	'echo-key-400': /^key \[redacted\] is not allowed here \(HTTP 400\)$/,
	'echo-key-500': /^crashed on \[redacted\] \(HTTP 500\)$/,
	'drop-after-headers': /^The server closed the connection in the middle of its answer$/,
	// Only Connect and Restart read a 2xx error body as a failure (tested there).
	'echo-key-200-error': undefined,
};

describe('a hostile server', () => {
	let server: HostileServer;
	beforeAll(async () => {
		server = await startHostileServer();
	});
	afterAll(async () => await server.close());
	beforeEach(() => {
		server.seen.length = 0;
		server.seenByOther.length = 0;
	});

	async function run(parameters: INodeParameters, behaviour: Behaviour, options: { continueOnFail?: boolean; apiKey?: string; dialect?: string } = {}) {
		server.script(behaviour);
		return await runNode({
			parameters: { instance: 'demo', ...parameters },
			credentials: { baseUrl: server.url, apiKey: options.apiKey ?? KEY, dialect: options.dialect ?? 'v2', timeout: 0.3 },
			continueOnFail: options.continueOnFail,
		});
	}

	const failing = (Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>).filter((behaviour) => EXPECTED[behaviour]);

	describe.each(Object.entries(OPERATIONS))('%s', (_name, parameters) => {
		test.each(failing)('%s: a clear error, sent once, no key anywhere', async (behaviour) => {
			const result = await run(parameters, behaviour);
			expect(result.error?.message).toMatch(EXPECTED[behaviour]!);
			expect(result.items).toEqual([]);
			expect(server.seen).toHaveLength(1);
			expect(server.seenByOther).toEqual([]);
			expect(visible(result)).not.toContain(KEY);
		});

		test.each(failing)('%s with Continue On Fail: one paired error item, no key anywhere', async (behaviour) => {
			const result = await run(parameters, behaviour, { continueOnFail: true });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json.error).toMatch(EXPECTED[behaviour]!);
			expect(result.items[0].pairedItem).toEqual({ item: 0 });
			expect(visible(result)).not.toContain(KEY);
		});
	});

	test('an empty 200 body is a success item', async () => {
		const result = await run(OPERATIONS['Send Text (a JSON POST)'], 'empty');
		expect(result.error).toBeUndefined();
		// No answer to read the message's id from: the output names the id the node sent.
		expect(result.items.map((item) => item.json)).toEqual([{ success: true, messageId: MESSAGE_IDS[0] }]);
	});

	test.each<[Behaviour, unknown]>([
		['null', null],
		['list-of-strings', ['a', 'b']],
		['empty', undefined],
	])('Check Numbers answered with %s fails naming the field, and Continue On Fail keeps going', async (behaviour) => {
		const result = await run(OPERATIONS['Check Numbers (a list output)'], behaviour);
		expect(result.error?.message).toMatch(/^"Numbers" got an answer from the server that is not a list of results \[item 0\]$/);
		const continued = await run(OPERATIONS['Check Numbers (a list output)'], behaviour, { continueOnFail: true });
		expect(continued.items).toHaveLength(1);
		expect(continued.items[0].json.error).toMatch(/not a list of results/);
		expect(continued.run.finished).toBe(true);
	});

	test('a short, numeric API key is redacted too', async () => {
		const result = await run(OPERATIONS['Send Text (a JSON POST)'], 'echo-key-400', { apiKey: SHORT_KEY });
		expect(result.error?.message).toBe('key [redacted] is not allowed here (HTTP 400)');
		const errorResponse = JSON.stringify((result.error as unknown as { errorResponse?: IDataObject }).errorResponse);
		expect(errorResponse).not.toContain(`"${SHORT_KEY}"`);
		expect(errorResponse).not.toMatch(/"apikey":"42"/);
	});

	test('a redirect sends nothing to the other host and nothing twice', async () => {
		const result = await run(OPERATIONS['Send Text (a JSON POST)'], 'redirect-other-host');
		expect(result.error?.description).toMatch(/not redirected, so that the API key never goes to another address/);
		expect(server.seen.map((request) => [request.method, request.path])).toEqual([['POST', '/message/sendText/demo']]);
		expect(server.seenByOther).toEqual([]);
	});

	test.each<[Behaviour, RegExp]>([
		['redirect-to-https', /The server wants https: start the Base URL with https:\/\/ instead of http:\/\//],
		['redirect-other-host', /sends it to another host \(127\.0\.0\.1:\d+\): if that is the server's real address, use it as the Base URL/],
		['redirect-same-host', /another path on the same host: check the path of the Base URL/],
	])('a %s redirect says what to change in the Base URL', async (behaviour, hint) => {
		const result = await run(OPERATIONS['Send Text (a JSON POST)'], behaviour);
		expect(result.error?.description).toMatch(/^Requests are not redirected, so that the API key never goes to another address\./);
		expect(result.error?.description).toMatch(hint);
		expect(server.seen).toHaveLength(1);
	});

	test('429 hints at Retry On Fail; with it, the node tries again and succeeds', async () => {
		const limited = await run(OPERATIONS['Send Text (a JSON POST)'], 'rate-limited');
		expect(limited.error?.description).toMatch(/Retry On Fail/);
		server.seen.length = 0;
		server.script('rate-limited', 'ok');
		const retried = await runNode({
			parameters: { instance: 'demo', ...OPERATIONS['Send Text (a JSON POST)'] },
			credentials: { baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout: 0.3 },
			settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(retried.error).toBeUndefined();
		// A 429 is a refusal: the retry sends again without asking whether the message is stored.
		expect(server.seen.map(({ path, body }) => [path, JSON.parse(body).messageId])).toEqual([
			['/message/sendText/demo', MESSAGE_IDS[0]],
			['/message/sendText/demo', MESSAGE_IDS[0]],
		]);
		expect(retried.items.map((item) => item.json)).toEqual([{ key: { id: 'OK1' }, status: 'PENDING', messageId: 'OK1' }]);
	});

	test.each<[Behaviour, RegExp]>([
		['redirect-same-host', /^The server redirects \(HTTP 307\); requests are not redirected, .*often https:\/\//],
		['redirect-other-host', /^The server redirects \(HTTP 307\)/],
		['moved-permanently', /^The server redirects \(HTTP 301\)/],
		['redirect-to-https', /^The server redirects \(HTTP 308\)/],
		['rate-limited', /^The server is rate limiting requests \(429\)/],
		['reset', /closed unexpectedly/],
		['echo-key-400', /^Bad request/],
		['echo-key-500', /not able to process/],
	])('the credential test against a server that answers %s fails, sent once, nothing elsewhere, no key', async (behaviour, message) => {
		server.script(behaviour);
		const result = await testCredential({ baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout: 0.3 });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		expect(server.seen.map((request) => [request.method, request.path])).toEqual([['GET', '/instance/fetchInstances']]);
		expect(server.seenByOther).toEqual([]);
		expect(JSON.stringify(result)).not.toContain(KEY);
	});

	test.each<Behaviour>(['hang', 'trickle'])(
		'the credential test against a server that does %s ends at the Request Timeout, not after n8n\'s 300 s',
		async (behaviour) => {
			server.script(behaviour);
			const started = Date.now();
			const result = await testCredential({ baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout: 0.3 });
			expect(Date.now() - started).toBeLessThan(3_000);
			expect(result.status).toBe('Error');
			expect(server.seen.map((request) => [request.method, request.path])).toEqual([['GET', '/instance/fetchInstances']]);
			expect(JSON.stringify(result)).not.toContain(KEY);
		},
		5_000,
	);

	test('a Base URL with 100,000 slashes before /manager still reaches the API root, in the node and in the credential test', async () => {
		const baseUrl = `${server.url}${'/'.repeat(100_000)}manager/`;
		const credential = await testCredential({ baseUrl, apiKey: KEY, dialect: 'v2' });
		expect(credential).toEqual({ status: 'OK', message: 'Connection successful!' });
		server.script('ok');
		const sent = await runNode({
			parameters: { instance: 'demo', ...OPERATIONS['Send Text (a JSON POST)'] },
			credentials: { baseUrl, apiKey: KEY, dialect: 'v2', timeout: 5 },
		});
		expect(sent.error).toBeUndefined();
		expect(server.seen.map((request) => [request.method, request.path])).toEqual([
			['GET', '/instance/fetchInstances'],
			['POST', '/message/sendText/demo'],
		]);
	});

	test('a Request Timeout beyond what a timer holds is clamped, not turned into an instant timeout', async () => {
		server.script('ok');
		const result = await runNode({
			parameters: { instance: 'demo', ...OPERATIONS['Send Text (a JSON POST)'] },
			credentials: { baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout: 1e12 },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ key: { id: 'OK1' }, status: 'PENDING', messageId: 'OK1' }]);
	});

	test('a GET operation sends no body and no content type, a server route has no instance and keeps its query; a POST sends its JSON once', async () => {
		await run(OPERATIONS['Get State (a v2 GET)'], 'ok');
		await run(OPERATIONS['Get Many Instances (a server route with a query)'], 'ok');
		await run(OPERATIONS['Send Text (a JSON POST)'], 'ok');
		expect(server.seen.map((request) => [request.method, request.path, request.body, request.headers['content-type'], request.headers.apikey])).toEqual([
			['GET', '/instance/connectionState/demo', '', undefined, KEY],
			['GET', '/instance/fetchInstances?instanceName=demo', '', undefined, KEY],
			['POST', '/message/sendText/demo', JSON.stringify({ number: '5511999990000', text: 'hi', messageId: MESSAGE_IDS[0] }), 'application/json', KEY],
		]);
	});

	test('stopping the execution ends a hanging request at once, long before its deadline', async () => {
		server.script('hang');
		const started = Date.now();
		const result = await runNode({
			parameters: { instance: 'demo', ...OPERATIONS['Send Text (a JSON POST)'] },
			credentials: { baseUrl: server.url, apiKey: KEY, dialect: 'v2', timeout: 60 },
			cancelAfterMs: 200,
		});
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(server.seen).toHaveLength(1);
		expect(result.items).toEqual([]);
		expect(result.run.status).toBe('canceled');
		expect(result.error?.message).toBe('The execution was stopped while the request was under way');
		expect(visible(result)).not.toContain(KEY);
	}, 10_000);
});
