import { startSandbox } from '../../sandbox/server';
import { run, useSandbox } from './helpers';

const sendText = { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' };

/** Everything a user or a log could see of a failed run. */
function visible(result: { error?: unknown; items: unknown[] }): string {
	const error = result.error as { message?: string; description?: string } | undefined;
	return JSON.stringify([result.items, result.error, error?.message, error?.description]);
}

describe.each(['documented', 'v2'] as const)('server errors become NodeApiErrors with the server text (%s)', (dialect) => {
	const sandbox = useSandbox(dialect);

	test('401: the server message, the status and a hint about the key; sent once (a wrong key stays wrong)', async () => {
		const result = await run(sandbox.current, sendText, { credentials: { apiKey: 'wrong-secret-key' } });
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'Unauthorized (HTTP 401)',
			description: expect.stringMatching(/Check the API key/),
			httpCode: '401',
		});
		expect(sandbox.current.requests.map((r) => [r.path, r.status])).toEqual([['/message/sendText/demo', 401]]);
		expect(visible(result)).not.toContain('wrong-secret-key');
	});

	test('404 unknown instance: names the instance to check', async () => {
		const result = await run(sandbox.current, { ...sendText, instance: 'ghost' });
		expect(result.error).toMatchObject({
			message: 'The "ghost" instance does not exist (HTTP 404)',
			description: 'Check the instance name: the server has no instance called "ghost".',
			httpCode: '404',
		});
		expect(sandbox.current.requests.map((r) => [r.path, r.status])).toEqual([['/message/sendText/ghost', 404]]);
	});

	test('404 unknown route: points at the base URL and the dialect', async () => {
		const result = await run(sandbox.current, sendText, { credentials: { baseUrl: `${sandbox.current.url}/api/` } });
		expect(result.error).toMatchObject({
			message: 'Cannot POST /api/message/sendText/demo (HTTP 404)',
			description: expect.stringMatching(/Check the Base URL .* and its dialect/),
		});
	});

	test('400 validation: the nested message arrays are flattened into readable text', async () => {
		// A number whose digits start with 0 has no account in the sandbox, as on a real server.
		const result = await run(sandbox.current, { ...sendText, number: '0551199990000' });
		expect(result.error).toMatchObject({
			message: '0551199990000 has no account on the messaging network (HTTP 400)',
			description: expect.stringMatching(/no account/),
			httpCode: '400',
		});
	});

	test('400 no account: the hint says what to do when the number was a LID\'s digits', async () => {
		// A LID's digits typed as a phone number: the server looks for <digits>@s.whatsapp.net.
		const result = await run(sandbox.current, { ...sendText, number: '0123456789012345' });
		expect(result.error).toMatchObject({
			message: '0123456789012345 has no account on the messaging network (HTTP 400)',
			description: expect.stringMatching(/known by LID .* whole …@lid id or to the trigger's chatId/),
		});
	});

	test('400 schema error from a server of the other dialect shows the jsonschema text', async () => {
		const other = dialect === 'v2' ? 'documented' : 'v2';
		const result = await run(
			sandbox.current,
			{ resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'composing', delay: 0 },
			{ credentials: { dialect: other } },
		);
		expect(result.error?.message).toMatch(/^instance requires property "(options|presence)".*\(HTTP 400\)$/);
		expect(result.error).toMatchObject({ httpCode: '400', description: expect.stringMatching(/rejected the request body/) });
	});

	test('500: the crash text and a hint to look at the server', async () => {
		sandbox.current.failNext({ status: 500, message: 'Connection Closed' });
		const result = await run(sandbox.current, sendText);
		expect(result.error).toMatchObject({
			message: 'Connection Closed (HTTP 500)',
			description: expect.stringMatching(/server failed/),
			httpCode: '500',
		});
	});

	test('connection refused: says the server is unreachable, with no key in sight', async () => {
		const closed = await startSandbox({ dialect });
		const url = closed.url;
		await closed.close();
		const result = await run(sandbox.current, sendText, { credentials: { baseUrl: url } });
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'The server is unreachable: connection refused',
			description: expect.stringMatching(/Check the Base URL/),
		});
		expect(visible(result)).not.toContain(sandbox.current.apiKey);
	});

	test('Continue On Fail: failed items become paired error items and the others still run', async () => {
		const result = await run(
			sandbox.current,
			{ ...sendText, number: '={{ $json.to }}', text: '={{ $json.text }}' },
			{
				continueOnFail: true,
				items: [
					{ to: '5511999990001', text: 'first' },
					{ to: 'nobody', text: 'bad input' },
					{ to: '0999', text: 'no account' },
					{ to: '5511999990004', text: 'last' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ status: 'PENDING' }), pairedItem: { item: 0 } },
			{ json: { error: '"Number" has no digits ("nobody") [item 1]', description: expect.any(String) }, pairedItem: { item: 1 } },
			{ json: { error: '0999 has no account on the messaging network (HTTP 400)', description: expect.any(String), httpCode: '400' }, pairedItem: { item: 2 } },
			{ json: expect.objectContaining({ status: 'PENDING' }), pairedItem: { item: 3 } },
		]);
		expect(sandbox.current.requests.map((r) => (r.body as { text: string }).text)).toEqual(['first', 'no account', 'last']);
		expect(visible(result)).not.toContain(sandbox.current.apiKey);
	});
});
