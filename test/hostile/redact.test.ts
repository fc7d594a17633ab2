import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { REDACTED, redactDeep, redactError, redactText } from '../../nodes/shared/redact';

/**
 * The one redaction both nodes use: every form of every secret, in values and in keys, under
 * any key that names a secret, at any depth it can reach without overflowing the stack.
 */

const KEY = 'sk-live/key+with "odd" chars';
const node: INode = { id: '1', name: 'Messaging Instance', type: 'messagingInstance', typeVersion: 1, position: [0, 0], parameters: {} };

describe('redactText', () => {
	test('the raw, URL-encoded and JSON-escaped forms of each secret go', () => {
		const text = `raw ${KEY} url ${encodeURIComponent(KEY)} json ${JSON.stringify(KEY)}`;
		const clean = redactText(text, [KEY]);
		expect(clean).toBe(`raw ${REDACTED} url ${REDACTED} json "${REDACTED}"`);
	});

	test('a short or numeric token is redacted, and the longest secret goes first', () => {
		expect(redactText('code 42 in token 4242-abc', ['42', '4242-abc'])).toBe(`code ${REDACTED} in token ${REDACTED}`);
	});

	test('an empty secret redacts nothing', () => {
		expect(redactText('nothing to hide', ['', 'absent'])).toBe('nothing to hide');
	});
});

describe('redactDeep', () => {
	test('a secret used as an object key, inside values, and in a binary file name', () => {
		const value = { [KEY]: true, list: [`Bearer ${KEY}`], binary: { data: { fileName: `${KEY}.pdf`, mimeType: 'application/pdf' } } };
		const clean = redactDeep(value, [KEY]);
		expect(JSON.stringify(clean)).not.toContain(KEY);
		expect(clean).toEqual({ [REDACTED]: true, list: [`Bearer ${REDACTED}`], binary: { data: { fileName: `${REDACTED}.pdf`, mimeType: 'application/pdf' } } });
	});

	test.each(['apikey', 'apiKey', 'api_key', 'API-KEY', 'x-api-key', 'token', 'accessToken', 'access_token', 'Authorization', 'password', 'secret', 'X-Messaging-Instance-Secret'])(
		'the value under "%s" is hidden whatever it holds, even when it is not a known secret',
		(name) => {
			const clean = redactDeep({ headers: { [name]: 'unknown-value', accept: 'application/json' } }, []);
			expect(clean).toEqual({ headers: { [name]: REDACTED, accept: 'application/json' } });
		},
	);

	test('the secrets of chatbot and event-bus answers are hidden by their names, outside any headers too', () => {
		const answer = { id: 'bot1', apiKey: 'app-1', basicAuthUser: 'bot', basicAuthPass: 'pass-1', fallback: { basicAuthPassword: 'pass-2' }, pusher: { key: 'public-key', secret: 'pusher-1' } };
		expect(redactDeep(answer, [])).toEqual({ id: 'bot1', apiKey: REDACTED, basicAuthUser: 'bot', basicAuthPass: REDACTED, fallback: { basicAuthPassword: REDACTED }, pusher: { key: 'public-key', secret: REDACTED } });
	});

	test('an empty value under a sensitive key stays empty, so the user sees the key was missing', () => {
		expect(redactDeep({ apikey: '' }, ['x'])).toEqual({ apikey: '' });
	});

	test('a cycle is cut, not walked forever', () => {
		const loop: Record<string, unknown> = { name: KEY };
		loop.self = loop;
		expect(redactDeep(loop, [KEY])).toEqual({ name: REDACTED, self: '[circular]' });
	});

	test('nesting 100,000 deep is cut without a stack overflow', () => {
		let deep: unknown = KEY;
		for (let level = 0; level < 100_000; level++) deep = { next: deep };
		const clean = redactDeep(deep, [KEY]);
		expect(JSON.stringify(clean)).toContain('[cut: too deep or too large]');
		expect(JSON.stringify(clean)).not.toContain(KEY);
	});

	test('a very wide value is cut by size, not walked whole', () => {
		const wide = Array.from({ length: 250_000 }, () => ({ text: KEY }));
		const clean = redactDeep(wide, [KEY]) as unknown[];
		expect(JSON.stringify(clean)).not.toContain(KEY);
		expect(clean).toContain('[cut: too deep or too large]');
	});

	test('prototype keys are dropped, and nothing reaches Object.prototype', () => {
		const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "ok": 1}') as object;
		const clean = redactDeep(hostile, []) as Record<string, unknown>;
		expect(Object.keys(clean)).toEqual(['ok']);
		expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('redactError', () => {
	test('message, description, stack, cause, context, errorResponse with the request headers, messages and nested errors', () => {
		const inner = new Error(`socket closed for ${KEY}`);
		const error = new NodeApiError(node, { message: `echo ${KEY}`, request: { headers: { apikey: KEY } } } as JsonObject, {
			message: `bad key ${KEY}`,
			description: `check ${encodeURIComponent(KEY)}`,
		});
		const record = error as unknown as Record<string, unknown>;
		record.cause = { error: inner, config: { headers: { apikey: KEY } } };
		record.context = { data: { [KEY]: 1 } };
		record.messages = [`first ${KEY}`];
		record.errorResponse = { request: { headers: { Apikey: KEY } }, message: KEY };
		error.stack = `NodeApiError: bad key ${KEY}\n    at somewhere`;

		const clean = redactError(error, [KEY]);

		expect(clean).toBe(error);
		expect(clean).toBeInstanceOf(NodeApiError);
		const everything = Object.getOwnPropertyNames(clean)
			.map((name) => `${name}=${JSON.stringify(record[name]) ?? ''}`)
			.join('\n');
		expect(everything).not.toContain(KEY);
		expect(everything).not.toContain(encodeURIComponent(KEY));
		expect(clean.message).toBe(`bad key ${REDACTED}`);
		expect(clean.description).toBe(`check ${REDACTED}`);
		expect(clean.stack).toContain(`bad key ${REDACTED}`);
		// The nested error keeps its (cleaned) message, so the user still learns what happened.
		expect((record.cause as { error: { message: string } }).error.message).toBe(`socket closed for ${REDACTED}`);
		expect(record.errorResponse).toEqual({ request: { headers: { Apikey: REDACTED } }, message: REDACTED });
		// The workflow's node is kept as it is: n8n needs it, and it holds no secret.
		expect(clean.node).toBe(node);
	});

	test('anything that is not an object comes back unchanged', () => {
		expect(redactError('text', [KEY])).toBe('text');
		expect(redactError(undefined, [KEY])).toBeUndefined();
	});
});
