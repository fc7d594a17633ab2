import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { run, useSandbox } from './helpers';

/**
 * Property: whatever a field is mapped to — any unicode, huge text, a wrong type, deep
 * nesting — every operation either sends a body the server accepts, or fails before any
 * request with an input error naming a field and the item. Never a crash, a hang, a request
 * the server refuses, or the API key in what comes back.
 */

/** A valid parameter set per operation; the property replaces some of its fields. */
const BASELINES: Record<string, INodeParameters> = {
	sendText: { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi', options: { delay: 0 } },
	sendList: {
		resource: 'message',
		operation: 'sendList',
		number: '5511999990000',
		title: 'T',
		description: 'D',
		buttonText: 'B',
		footerText: 'F',
		sections: { section: [{ title: 'S', rows: { row: [{ title: 'R', description: 'd', rowId: '1' }] } }] },
	},
	sendButtons: {
		resource: 'message',
		operation: 'sendButtons',
		number: '5511999990000',
		title: 'T',
		description: 'D',
		footer: 'F',
		buttons: { button: [{ title: 'a', displayText: 'A', id: 'a' }] },
	},
	sendLocation: { resource: 'message', operation: 'sendLocation', number: '5511999990000', name: 'N', address: 'A', latitude: 1, longitude: 2 },
	sendStatus: { resource: 'message', operation: 'sendStatus', type: 'text', content: 'C', caption: '', backgroundColor: '#112233', font: 1, allContacts: false, statusJidList: '5511999990000' },
	sendReaction: { resource: 'message', operation: 'sendReaction', remoteJid: '5511999990000@s.whatsapp.net', messageId: 'X', fromMe: false, reaction: '👍' },
	archive: { resource: 'chat', operation: 'archive', chat: '5511999990000@s.whatsapp.net', archive: true, messageId: 'X', fromMe: false },
	checkNumbers: { resource: 'chat', operation: 'checkNumbers', numbers: '5511999990000' },
	updateMessage: { resource: 'chat', operation: 'updateMessage', number: '5511999990000', text: 't', remoteJid: '5511999990000@s.whatsapp.net', messageId: 'X', fromMe: true },
	sendPresence: { resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'composing', delay: 0 },
	setSettings: { resource: 'settings', operation: 'set', rejectCall: false, msgCall: 'm', groupsIgnore: false, alwaysOnline: false, readMessages: false, readStatus: false, syncFullHistory: false },
	setWebhook: { resource: 'webhook', operation: 'set', enabled: true, url: 'https://example.com/h', webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] },
};

/** Values a mapped field can hold: text of any kind and size, numbers, switches, lists, objects, nesting. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.string({ unit: 'grapheme', maxLength: 40 }),
	fc.string({ unit: 'binary', maxLength: 40 }),
	fc.constantFrom('', ' ', '.', '..', '@', '+', '0', '-1', 'true', 'false', 'null', '__proto__', '👍', '#ZZZZZZ', 'https://x', '\u0000', '9'.repeat(400)),
	fc.nat({ max: 200_000 }).map((length) => 'x'.repeat(length)),
	fc.double(),
	fc.integer(),
	fc.constantFrom(2 ** 31, 2 ** 53 + 2, 5511999990000.5, -0, Number.MAX_VALUE),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
	fc.letrec<{ tree: unknown }>((tie) => ({
		tree: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 5 }), fc.array(tie('tree'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), tie('tree'), { maxKeys: 3 })),
	})).tree,
	// Deeper than about 1,500 levels, n8n's own copy of the item (and this harness) overflows first.
	fc.nat({ max: 1_000 }).map((depth) => {
		let nested: unknown = 'deep';
		for (let level = 0; level < depth; level++) nested = { a: nested };
		return nested;
	}),
);

/** The top-level fields of a baseline that a user can map (resource and operation cannot be). */
function mappable(parameters: INodeParameters): string[] {
	return Object.keys(parameters).filter((name) => name !== 'resource' && name !== 'operation');
}

describe.each(['documented', 'v2'] as const)('any mapped value (%s)', (dialect) => {
	const sandbox = useSandbox(dialect);

	test.each(Object.keys(BASELINES))('%s sends an accepted body or names the field, never more', async (name) => {
		const baseline = BASELINES[name];
		const numRuns = 40;
		let runs = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(fc.constantFrom(...mappable(baseline)), { minLength: 1, maxLength: 3 }),
				fc.array(hostileValue, { minLength: 3, maxLength: 3 }),
				async (fields, values) => {
					runs++;
					sandbox.current.clearRequests();
					const item: IDataObject = {};
					const parameters: INodeParameters = { ...baseline };
					fields.forEach((field, index) => {
						item[`v${index}`] = values[index] as IDataObject;
						parameters[field] = `={{ $json.v${index} }}`;
					});
					const result = await run(sandbox.current, parameters, { items: [item] });
					const requests = sandbox.current.requests;
					if (result.error && requests.length === 0) {
						// n8n's own engine may refuse a value before the node runs (e.g. a wrong type for a switch);
						// the node's own refusal names the field first and the item last.
						if (result.error.name === 'NodeOperationError') {
							expect(result.error.message).toMatch(/^"[^"\n]+" .+ \[item 0\]$/s);
							expect(result.error.message.length).toBeLessThan(400);
						}
						expect(requests).toEqual([]);
					} else if (requests[0]?.status === 400) {
						// The one refusal no check can foresee: the number has no account.
						expect(JSON.stringify(requests[0].response)).toMatch(/"exists":false/);
						expect(requests).toHaveLength(1);
					} else {
						expect(requests).toHaveLength(1);
						expect(requests[0].status).toBeLessThan(300);
						if (name !== 'checkNumbers') expect(result.items).toHaveLength(1);
					}
					expect(JSON.stringify(result.run)).not.toContain(sandbox.current.apiKey);
				},
			),
			// No time limit: a run cut short by a slow machine would pass with fewer cases checked.
			{ numRuns },
		);
		expect(runs).toBe(numRuns);
	});
});
