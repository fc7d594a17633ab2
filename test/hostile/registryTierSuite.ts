import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { runNode, type NodeRun } from '../harness/engine';
import { requestOf } from './helperTiers';
import { baselineOf, mappableFields, secretFieldsOf } from './registry';
import { useHostileServer, type Behaviour, type HostileServer } from './server';
import { visible } from './visible';

/**
 * The three hostile tiers over EVERY operation of the registry (`OPERATIONS`), with the fields
 * each declares (test/hostile/registry.ts): no hand list an operation can miss.
 *
 * - hostile values: each mappable field mapped to a dot segment, an encoded one, 10 kB of text,
 *   an object and 2^53 + 2: refused before any request naming a field and the item, or sent
 *   without any path segment that resolves elsewhere and without a 10 kB segment;
 * - hostile server: a hang, an HTML page, a 500 echoing the key, a redirect to another host:
 *   an error (never a success), nothing to the other host, the key nowhere;
 * - secret echo: the server echoes every secret the request carried (API key, the operation's
 *   secret fields) in a 2xx and in a 500: none reaches an item, an error or the stored run.
 */

const KEY = 'registry-tier-key-0123456789';

async function run(hostile: { readonly current: HostileServer }, parameters: INodeParameters, item: IDataObject = {}, timeout = 2): Promise<NodeRun> {
	return await runNode({
		parameters: { instance: 'demo', ...parameters },
		items: [item],
		// The server's version is known: these tiers are about the fields and the answers, not version detection.
		credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2', timeout, serverVersion: '2.4.0' },
	});
}

export const keyOf = (operation: Operation) => `${operation.resource}/${operation.value}`;

/** A path whose segments a URL parser or the server would resolve into another route. */
function resolvesElsewhere(path: string): boolean {
	return path
		.split('?')[0]
		.split('/')
		.some((segment) => {
			let text = segment;
			for (let round = 0; round < 3; round++) {
				try {
					text = decodeURIComponent(text);
				} catch {
					break;
				}
			}
			return text.trim() === '.' || text.trim() === '..';
		});
}

/**
 * Whether a received request is one the operation declares (actions/requests.ts: its main
 * routes and every helper request's), or the server's version (GET /, asked once per
 * execution for any operation that needs it). Anything else is a request it did not declare.
 */
function isDeclared(operation: Operation, received: string, method: string): boolean {
	return requestOf(operation, { method, path: received }) !== undefined;
}

const HOSTILE_VALUES: Array<[string, unknown]> = [
	['a dot segment', '..'],
	['an encoded dot segment', '%2e%2e'],
	['10 kB of text', 'x'.repeat(10_000)],
	['an object', { a: { b: [1, 2] } }],
	['2^53 + 2', 2 ** 53 + 2],
];

/** Generated values besides the fixed ones: any text, numbers, nesting (fast-check). */
const generatedValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.string({ unit: 'grapheme', maxLength: 30 }),
	fc.constantFrom('.', '..', '%2E%2e', '../../instance/delete', '\u0000', '9'.repeat(400), 'x'.repeat(3_000)),
	fc.double(),
	fc.constantFrom(2 ** 64, -(2 ** 53) - 2, 1e300),
	fc.jsonValue({ maxDepth: 3 }),
);

/** Hostile values in the operation's mappable fields: refused naming the field, or sent without a path that resolves elsewhere. */
async function expectHeld(hostile: { readonly current: HostileServer }, operation: Operation, field: string, what: string, value: unknown): Promise<void> {
	hostile.current.seen.length = 0;
	const result = await run(hostile, { ...baselineOf(operation), [field]: '={{ $json.v }}' }, { v: value as IDataObject });
	const context = `${field} = ${what}`;
	if (result.error) expect([context, result.error.name]).toEqual([context, expect.stringMatching(/^Node(Operation|Api)Error$/)]);
	if (result.error && hostile.current.seen.length === 0 && result.error.name === 'NodeOperationError') {
		expect([context, result.error.message]).toEqual([context, expect.stringMatching(/^(\S.*) \[item 0\]$|expected a list|look-up/s)]);
		expect([context, result.error.message.length < 1_000]).toEqual([context, true]);
	}
	for (const request of hostile.current.seen) {
		expect([context, resolvesElsewhere(request.path)]).toEqual([context, false]);
		expect([context, request.path.split('?')[0], isDeclared(operation, request.path, request.method)]).toEqual([context, request.path.split('?')[0], true]);
		expect([context, request.path.split('?')[0].split('/').every((segment) => segment.length <= 3 * 2048)]).toEqual([context, true]);
	}
	expect(hostile.current.seenByOther).toEqual([]);
	expect(visible(result)).not.toContain(KEY);
}

/** The three tiers over the given operations: the registry's, or a registry a test extends. */
export function describeRegistryTiers(operations: readonly Operation[]): void {
	const hostile = useHostileServer();
	describe.each(operations.map((operation) => [keyOf(operation), operation] as const))('%s', (_key, operation) => {
		test('hostile values in every mappable field: refused naming the field, or sent as one bounded segment', async () => {
			hostile.current.answerAll(() => ({ status: 200, json: operation.pagination ? [] : { key: { id: 'OK1' } } }));
			for (const field of mappableFields(operation)) {
				for (const [what, value] of HOSTILE_VALUES) await expectHeld(hostile, operation, field.property.name, what, value);
			}
		}, 120_000);

		test('generated values in generated fields (property): held the same way', async () => {
			const fields = mappableFields(operation).map((field) => field.property.name);
			hostile.current.answerAll(() => ({ status: 200, json: operation.pagination ? [] : { key: { id: 'OK1' } } }));
			if (fields.length === 0) return;
			await fc.assert(
				fc.asyncProperty(fc.constantFrom(...fields), generatedValue, async (field, value) => await expectHeld(hostile, operation, field, JSON.stringify(value)?.slice(0, 40) ?? String(value), value)),
				{ numRuns: 8 },
			);
		}, 120_000);

		test.each<[Behaviour, RegExp]>([
			['hang', /did not answer in time/],
			['html', /HTML page instead of JSON/],
			['echo-key-500', /\(HTTP 500\)$/],
			['redirect-other-host', /redirects to/],
		])('a hostile server (%s): an error, nothing elsewhere, no key', async (behaviour, message) => {
			hostile.current.script(behaviour, behaviour, behaviour);
			const result = await run(hostile, baselineOf(operation), {}, 0.3);
			// On a loaded machine the server may record a request the node already gave up on (hang) a moment later.
			for (let waited = 0; hostile.current.seen.length === 0 && message.test(result.error?.message ?? '') && waited < 2000; waited += 50) {
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			if (hostile.current.seen.length > 0) expect(result.error?.message).toMatch(message);
			else expect(result.error?.message).toMatch(/\[item 0\]$/);
			expect(hostile.current.seenByOther).toEqual([]);
			expect(visible(result)).not.toContain(KEY);
		});

		test('the server echoes every secret the request carried, in a 2xx and in a 500: none shows', async () => {
			const secrets = [KEY, ...secretFieldsOf(operation).map((field) => String(baselineOf(operation)[field.property.name]))];
			for (const status of [200, 500]) {
				hostile.current.answerAll((request) => ({
					status,
					json: { message: `echo ${String(request.headers.apikey)} ${request.body}`, error: status === 500, received: request.body, [String(request.headers.apikey)]: true },
				}));
				const result = await run(hostile, baselineOf(operation));
				for (const secret of secrets) expect(visible(result)).not.toContain(secret);
				for (const request of hostile.current.seen) expect([request.method, request.path, isDeclared(operation, request.path, request.method)]).toEqual([request.method, request.path, true]);
			}
		});
	});
}
