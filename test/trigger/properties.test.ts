import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { INSTANCE, secretOf, setup, TOKEN, type Setup } from './helpers';

/**
 * Random and adversarial deliveries, as anyone holding the webhook URL can send them: batches, deep nesting, prototype keys, huge
 * ids, odd timestamps, unknown message types, secrets anywhere. Whatever comes, the trigger
 * answers 2xx or 4xx, never 5xx; it emits only what passes its filters (a new node ignores own
 * messages and group chats); and no secret reaches an item. Runs and sizes are bounded so the
 * file runs in a few seconds.
 */

const JID = '5511999990000@s.whatsapp.net';
const GROUP = '120363025246125486@g.us';

let s: Setup;
let secrets: string[];

beforeAll(async () => {
	s = await setup('v2', { events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE', 'SEND_MESSAGE'] });
	await s.harness.activate();
	secrets = [secretOf(s), s.sandbox.apiKey, TOKEN];
});
afterAll(async () => {
	await s.close();
});

/** A text that is sometimes one of the secrets, or holds one. */
const secretish = (): fc.Arbitrary<string> =>
	fc.oneof(
		fc.string({ maxLength: 20 }),
		fc.constantFrom(0, 1, 2).chain((index) =>
			fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => `${a}${secrets[index]}${b}`),
		),
	);

const timestamp = fc.oneof(
	fc.integer({ min: -1e6, max: 2e9 }),
	fc.double(),
	fc.constantFrom(1e14, 1e300, -0, 8.64e15 + 1),
	fc.record({ low: fc.integer(), high: fc.integer(), unsigned: fc.boolean() }),
	fc.string({ maxLength: 30 }),
	fc.jsonValue({ maxDepth: 2 }),
);

const messageContent = fc.oneof(
	fc.record({ conversation: secretish() }),
	fc.record({ extendedTextMessage: fc.record({ text: fc.string({ maxLength: 50 }) }) }),
	fc.record({
		imageMessage: fc.record({ mimetype: fc.constantFrom('image/png', 'x/y;z', ''), fileName: secretish(), caption: secretish() }, { requiredKeys: [] }),
		base64: fc.constantFrom('iVBORw0KGgo=', '', 'not base64 at all', 'data:image/png;base64,AAAA'),
	}),
	// An unknown message type.
	fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
);

const messageData = fc.record(
	{
		key: fc.record(
			{
				remoteJid: fc.oneof(fc.constantFrom(JID, GROUP), fc.string({ maxLength: 30 })),
				fromMe: fc.oneof(fc.boolean(), fc.constantFrom('true', 1, null)),
				id: fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constantFrom('X'.repeat(20_000)), secretish()),
				participant: fc.oneof(fc.constant(JID), fc.string({ maxLength: 10 })),
			},
			{ requiredKeys: ['remoteJid'] },
		),
		pushName: secretish(),
		message: messageContent,
		messageTimestamp: timestamp,
		extra: fc.dictionary(secretish(), fc.oneof(secretish(), fc.jsonValue({ maxDepth: 2 })), { maxKeys: 3 }),
	},
	{ requiredKeys: ['key', 'message'] },
);

/** JSON text `depth` levels deep, of objects or of arrays. */
const deep = fc.tuple(fc.integer({ min: 1, max: 3_000 }), fc.boolean()).map(([depth, arrays]) =>
	arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
);

const data = fc.oneof(
	{ weight: 4, arbitrary: messageData },
	{ weight: 2, arbitrary: fc.array(fc.oneof(messageData, fc.jsonValue({ maxDepth: 1 })), { maxLength: 6 }) },
	{ weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
	{ weight: 1, arbitrary: fc.record({ state: fc.constantFrom('open', 'close'), statusReason: fc.integer() }) },
);

const delivery = fc.record({
	event: fc.oneof(fc.constantFrom('messages.upsert', 'MESSAGES_UPSERT', 'connection.update', 'send.message', 'unknown.event', ''), fc.string({ maxLength: 12 })),
	instance: fc.oneof({ weight: 5, arbitrary: fc.constant<unknown>(INSTANCE) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
	data,
	date_time: fc.oneof(fc.constant('2026-11-23T06:00:00.000Z'), fc.string({ maxLength: 30 })),
	destination: fc.constant(`${'http://127.0.0.1/webhook/x/webhook'}?secret=`),
	/** Text spliced into `data` as it is sent: an own message under `__proto__`, or deep nesting. */
	splice: fc.oneof(
		fc.constant(''),
		fc.constant(`"__proto__":{"key":{"remoteJid":"${JID}","fromMe":true,"id":"PROTO"},"message":{"conversation":"proto"}},`),
		fc.constant(`"constructor":{"prototype":{"fromMe":true}},`),
		deep.map((text) => `"deep":${text},`),
	),
});

function bodyText(value: IDataObject & { splice: string }): string {
	const { splice, destination, ...rest } = value;
	const text = JSON.stringify({ ...rest, destination: `${String(destination)}${secrets[0]}`, apikey: TOKEN });
	// Only an object `data` can take the spliced member.
	return splice && /"data":\{/.test(text) ? text.replace('"data":{', `"data":{${splice}`) : text;
}

test('any delivery is answered 2xx or 4xx, and only filtered items without secrets are emitted', async () => {
	const seen = { emitted: 0, refused: 0, dropped: 0 };
	await fc.assert(
		fc.asyncProperty(delivery, async (value) => {
			const before = s.harness.emitted.length;
			const answer = await s.harness.post('production', bodyText(value as IDataObject & { splice: string }), {
				query: { secret: secrets[0] },
			});
			expect([200, 400]).toContain(answer.status);
			const items = s.harness.emitted.slice(before);
			if (answer.status === 400) seen.refused++;
			else if (items.length === 0) seen.dropped++;
			seen.emitted += items.length;
			for (const item of items) {
				const json = item.json;
				const raw = (json.raw ?? json) as IDataObject;
				// Filtered: no own message, no group chat, never a batch as one item.
				expect(json.fromMe).not.toBe(true);
				expect(json.isGroup).not.toBe(true);
				expect(Array.isArray(raw.data)).toBe(false);
				const key = (raw.data as IDataObject | undefined)?.key as IDataObject | undefined;
				if (key && typeof key.remoteJid === 'string') {
					expect(key.fromMe).not.toBe(true);
					expect(key.remoteJid.endsWith('@g.us')).toBe(false);
				}
				expect(typeof json.dedupeKey).toBe('string');
				const text = JSON.stringify(item);
				for (const secret of secrets) expect(text).not.toContain(secret);
			}
			s.harness.received.length = 0;
		}),
		{ numRuns: 200, seed: 20261123, endOnFailure: true },
	);
	// The runs reached every outcome: items, drops and refusals.
	expect(seen.emitted).toBeGreaterThan(20);
	expect(seen.dropped).toBeGreaterThan(20);
	expect(seen.refused).toBeGreaterThan(5);
}, 30_000);

test('random bodies and wrong secrets are refused before anything is read', async () => {
	s.harness.received.length = 0;
	await fc.assert(
		fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 50 }), async (body, secret) => {
			fc.pre(secret !== secrets[0]);
			const answer = await s.harness.post('production', JSON.stringify(body), { query: { secret } });
			expect(answer.status).toBe(401);
		}),
		{ numRuns: 50, seed: 7 },
	);
	expect(s.harness.received.every((record) => record.items === undefined)).toBe(true);
}, 30_000);
