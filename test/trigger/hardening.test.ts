import { createHash } from 'node:crypto';
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { dedupeFootprint, MAX_ENTRY_CHARS } from '../../nodes/MessagingInstanceTrigger/dedupe';
import { ALL_EVENTS } from '../../nodes/shared/dialect';
import { eventOptions } from '../../nodes/shared/events';
import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';
import type { Dialect } from '../../sandbox/server';
import { expectNoSecrets, INSTANCE, savedParameters, secretOf, setup, setWebhookBodies, TOKEN, type Setup } from './helpers';

const FROM = '5511999990000';
const JID = `${FROM}@s.whatsapp.net`;
const GROUP = '120363025246125486@g.us';
const PNG =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SECONDS = 1_763_870_000;

/** One message event's data as a server sends it. */
function messageData(id: string, text: string, extra: { fromMe?: boolean; group?: boolean; data?: IDataObject } = {}): IDataObject {
	return {
		key: extra.group
			? { remoteJid: GROUP, fromMe: extra.fromMe ?? false, id, participant: JID }
			: { remoteJid: JID, fromMe: extra.fromMe ?? false, id },
		pushName: 'Ana',
		message: { conversation: text },
		messageType: 'conversation',
		messageTimestamp: SECONDS,
		...extra.data,
	};
}

function envelope(data: unknown, event = 'messages.upsert'): IDataObject {
	return { event, instance: INSTANCE, data: data as IDataObject, date_time: '2026-11-23T06:00:00.000Z', sender: JID, apikey: TOKEN };
}

describe.each<Dialect>(['documented', 'v2'])('trigger hardening (%s)', (dialect) => {
	let s: Setup;
	const start = async (parameters: INodeParameters = {}): Promise<Setup> => {
		s = await setup(dialect, parameters);
		await s.harness.activate();
		return s;
	};
	afterEach(async () => {
		await s.close();
	});
	const texts = (): unknown[] => s.harness.emitted.map((item) => item.json.text);

	// What a user gets without opening Options must be the safe choice: binary media, no echo loops, no group noise.
	it('a new node as the editor saves it (Options never opened) asks for media as binary and drops own messages and group chats', async () => {
		expect(savedParameters({ instance: INSTANCE })).toEqual({ instance: INSTANCE, events: ['MESSAGES_UPSERT'], options: {} });
		const { sandbox, harness } = await start();
		expect(sandbox.webhookOf(INSTANCE)?.base64).toBe(true);
		expect(JSON.stringify(setWebhookBodies(sandbox))).toMatch(/"(webhookBase64|base64)":true/);
		const own = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'my own reply', fromMe: true });
		const group = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'in a group', group: GROUP });
		await sandbox.injectMessage(INSTANCE, { from: FROM, id: `${dialect}-P0`, media: { kind: 'image', mimetype: 'image/png', base64: PNG } });
		expect(own?.attempts[0].responseBody).toBe(JSON.stringify({ received: true, ignored: 'own message' }));
		expect(group?.attempts[0].responseBody).toBe(JSON.stringify({ received: true, ignored: 'group chat' }));
		expect(harness.emitted).toHaveLength(1);
		expect(harness.emitted[0].binary?.data).toMatchObject({ mimeType: 'image/png', fileName: `${dialect}-P0.png`, data: PNG });
	});

	// Servers deliver as soon as Set Webhook returns, which can be before n8n has saved the node's static data.
	it('a delivery that arrives before n8n stored the static data is accepted: the secret is derived, not stored', async () => {
		const { sandbox, harness } = await start();
		expect(harness.nodeStaticData.secret).toBeUndefined();
		// n8n stores the static data only after `create`, and a queue-mode webhook process may
		// read it later still: the delivery must pass with nothing stored.
		harness.persistedStaticData = {};
		const early = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'first message' });
		expect(early?.attempts.map((attempt) => attempt.status)).toEqual([200]);
		expect(texts()).toEqual(['first message']);
		// A fresh activation from empty static data derives the very same secret.
		const registered = sandbox.webhookOf(INSTANCE)?.url;
		await harness.activate();
		expect(sandbox.webhookOf(INSTANCE)?.url).toBe(registered);
	});

	it('a secret stored by an earlier version is accepted until the derived one is registered', async () => {
		const { harness } = await start();
		const legacy = 'legacy-secret-0123456789-abcdefghijklmnop';
		harness.persistedStaticData = { 'node:Messaging Instance Trigger': { secret: legacy } };
		const body = JSON.stringify(envelope(messageData(`${dialect}-L1`, 'legacy')));
		expect((await harness.post('production', body, { query: { secret: legacy } })).status).toBe(200);
		await harness.restart();
		expect(harness.nodeStaticData.secret).toBeUndefined();
		expect((await harness.post('production', body, { query: { secret: legacy } })).status).toBe(401);
		expect(texts()).toEqual(['legacy']);
	});

	// Servers log or retry on a body they cannot read; a small JSON answer is what they expect.
	it('an accepted delivery is answered with a small JSON acknowledgement', async () => {
		const { sandbox } = await start();
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'ack me' });
		expect(delivery?.attempts).toEqual([{ status: 200, responseBody: '{"received":true}' }]);
	});
});

describe('trigger hardening: shapes, secrets, memory (v2)', () => {
	let s: Setup;
	beforeEach(async () => {
		// Options set explicitly, so each test shows its own behaviour (the defaults have their own test above).
		s = await setup('v2', { options: { ignoreOwnMessages: true, ignoreGroups: true, mediaAsBinary: true } });
		await s.harness.activate();
	});
	afterEach(async () => {
		await s.close();
	});
	const post = async (body: unknown) =>
		await s.harness.post('production', typeof body === 'string' ? body : JSON.stringify(body), { query: { secret: secretOf(s) } });
	const emittedJson = (): IDataObject[] => s.harness.emitted.map((item) => item.json);

	// Servers may send several messages in one delivery; each must pass the same filters as a single one.
	it('a batch (data as an array) gives one item per message, each filtered, never the raw array', async () => {
		const a = messageData('B-A', 'direct a');
		const b = messageData('B-B', 'direct b');
		const batch = [messageData('B-OWN', 'own', { fromMe: true }), messageData('B-G', 'group', { group: true }), a, 'junk', 42, b, a];
		const answer = await post(envelope(batch));
		expect(answer).toEqual({ status: 200, body: { received: true } });
		expect(emittedJson().map((json) => [json.messageId, json.text, json.fromMe, json.isGroup])).toEqual([
			['B-A', 'direct a', false, false],
			['B-B', 'direct b', false, false],
		]);
		// Each item's raw event holds its own message, not the batch.
		expect(emittedJson().map((json) => (json.raw as IDataObject).data)).toEqual([a, b]);
		const onlyFiltered = await post(envelope([messageData('B-OWN2', 'own', { fromMe: true }), messageData('B-G2', 'group', { group: true })]));
		expect(onlyFiltered).toEqual({ status: 200, body: { received: true, ignored: 'own message, group chat' } });
		expect(s.harness.emitted).toHaveLength(2);
	});

	// Timestamps arrive as numbers, Long objects or text depending on the server's protobuf library.
	it('a malformed messageTimestamp (1e14, a Long object, text, negative) is normalised or dropped, never a 5xx', async () => {
		const odd: unknown[] = [1e14, { low: SECONDS, high: 0, unsigned: false }, { low: -1, high: -1 }, '99999999999999999999', -5, 1.5e300, 'soon', null, [], {}];
		const answers = [];
		for (const [index, value] of odd.entries()) {
			answers.push((await post(envelope(messageData(`T-${index}`, `t${index}`, { data: { messageTimestamp: value as IDataObject[string] } })))).status);
		}
		expect(answers).toEqual(odd.map(() => 200));
		const stamps = emittedJson().map((json) => json.timestamp);
		expect(stamps).toHaveLength(odd.length);
		for (const stamp of stamps) expect(stamp === null || !Number.isNaN(Date.parse(String(stamp)))).toBe(true);
		// A Long is read as the number it holds; what is not a time falls back to the delivery's date_time.
		expect(stamps[1]).toBe(new Date(SECONDS * 1000).toISOString());
		expect(stamps[6]).toBe('2026-11-23T06:00:00.000Z');
	});

	// Anyone who knows the URL and secret controls the nesting; a recursive walk must not overflow the stack.
	it('absurdly deep nesting is refused with a 400, never a 5xx; ordinary nesting passes', async () => {
		const depth = 200_000;
		const deepObject = `{"event":"messages.upsert","instance":"${INSTANCE}","data":{"key":{"remoteJid":"${JID}","fromMe":false,"id":"D1"},"message":{"conversation":"deep","extra":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}`;
		const deepArray = `{"event":"connection.update","instance":"${INSTANCE}","data":{"state":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
		const answers = [await post(deepObject), await post(deepArray)];
		expect(answers.map((answer) => answer.status)).toEqual([400, 400]);
		expect(answers[0].body).toEqual({ message: 'The delivery is nested deeper than 64 levels' });
		const ordinary = messageData('D2', 'nested a little', { data: { contextInfo: JSON.parse(`${'{"q":'.repeat(30)}1${'}'.repeat(30)}`) as IDataObject } });
		expect((await post(envelope(ordinary))).status).toBe(200);
		expect(emittedJson().map((json) => json.text)).toEqual(['nested a little']);
	});

	it('__proto__ and constructor keys cannot make the emitted copy differ from the filtered one', async () => {
		const smuggled = `{"event":"messages.upsert","instance":"${INSTANCE}","data":{"__proto__":{"key":{"remoteJid":"${JID}","fromMe":true,"id":"PROTO1"},"message":{"conversation":"smuggled own"}}}}`;
		const ownWithNoise = `{"event":"messages.upsert","instance":"${INSTANCE}","data":{"key":{"__proto__":{"fromMe":false},"constructor":{"x":1},"remoteJid":"${JID}","fromMe":true,"id":"PROTO2"},"message":{"conversation":"own with noise"}}}`;
		const answers = [await post(smuggled), await post(ownWithNoise)];
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		expect(answers[1].body).toEqual({ received: true, ignored: 'own message' });
		for (const json of emittedJson()) {
			expect(json.fromMe).not.toBe(true);
			expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		}
		expect(JSON.stringify(s.harness.emitted)).not.toContain('smuggled own');
		expect(JSON.stringify(s.harness.emitted)).not.toContain('own with noise');
	});

	// Deliveries carry the instance token in places a plain key-name check misses.
	it('no secret in any item: as an object key, a short numeric token, a camelCase apiKey, or inside a binary file name', async () => {
		const secret = secretOf(s);
		const apiKey = s.sandbox.apiKey;
		const token = 8086;
		const data = messageData('R1', 'redact me', {
			data: {
				message: {
					imageMessage: { mimetype: 'image/png', fileName: `photo-${secret}.png`, caption: `key ${apiKey}` },
					base64: PNG,
				},
				extra: { [secret]: 'as a key', [apiKey]: 1, apiKey, token, tokens: [String(token), `${secret}`], [`${token}`]: true },
			},
		});
		const answer = await post({ ...envelope(data), apikey: token });
		expect(answer.status).toBe(200);
		expect(s.harness.emitted).toHaveLength(1);
		const { json, binary } = s.harness.emitted[0];
		expect(binary?.data.fileName).toBe('photo-[redacted].png');
		expect(json.text).toBe('key [redacted]');
		expectNoSecrets(s.harness.emitted, [secret, apiKey, TOKEN]);
		expect(JSON.stringify(s.harness.emitted)).not.toMatch(/\b8086\b/);
	});

	// In queue mode the same delivery can reach two processes; a key made of the event alone lets a later step drop the copy.
	it('every item carries a stable dedupeKey: the same for a copy elsewhere, different for another event, made of the event alone', async () => {
		const { sandbox, harness } = s;
		const first = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'keyed', id: 'K1' });
		await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'another', id: 'K2' });
		const [one, two] = emittedJson();
		const expected = createHash('sha256')
			.update(JSON.stringify(['message', INSTANCE, 'MESSAGES_UPSERT', JID, false, 'K1']))
			.digest('base64url');
		expect(one.dedupeKey).toBe(expected);
		expect(two.dedupeKey).not.toBe(one.dedupeKey);
		// The same delivery reaching another listener (here the test URL: another dedupe scope, as
		// another process would be) carries the same key.
		await harness.listenForTest();
		const copy = await harness.post('test', JSON.stringify(first?.body), { query: { secret: secretOf(s) } });
		expect(copy.status).toBe(200);
		expect(harness.emitted.at(-1)?.json.dedupeKey).toBe(one.dedupeKey);
		// Other events: the same body is the same key, another time stamp another event.
		harness.setParameters(savedParameters({ instance: INSTANCE, events: ['CONNECTION_UPDATE'] }));
		const update = { state: 'open', statusReason: 200 };
		const keys = [];
		for (const [id, at] of [['a', '2026-11-23T06:00:00.000Z'], ['b', '2026-11-23T06:05:00.000Z']]) {
			await harness.post('production', JSON.stringify({ ...envelope(update, 'connection.update'), date_time: at }), { query: { secret: secretOf(s) } });
			keys.push(`${id}:${String(harness.emitted.at(-1)?.json.dedupeKey)}`);
		}
		expect(new Set(keys.map((key) => key.slice(2))).size).toBe(2);
	});

	// The sender picks the id's length, so the dedupe memory must be bounded by size, not by count.
	it('the duplicate memory stays flat: 1,000 deliveries with 1 MB message ids keep a bounded entry each', async () => {
		const gc = (() => {
			v8.setFlagsFromString('--expose-gc');
			return runInNewContext('gc') as () => void;
		})();
		const before = dedupeFootprint();
		gc();
		const heapBefore = process.memoryUsage().heapUsed;
		const megabyte = 'x'.repeat(1024 * 1024);
		for (let index = 0; index < 1000; index++) {
			const id = `${index}-${megabyte}`;
			const body = `{"event":"messages.upsert","instance":"${INSTANCE}","data":{"key":{"remoteJid":"${JID}","fromMe":false,"id":"${id}"},"message":{"conversation":"m${index}"}}}`;
			const answer = await post(body);
			if (answer.status !== 200) throw new Error(`delivery ${index} answered ${answer.status}`);
			s.harness.received.length = 0;
		}
		const after = dedupeFootprint();
		expect(after.entries - before.entries).toBe(1000);
		// Each entry is the scope and a 43-character hash: a bounded size, whatever the id's.
		expect((after.keyChars - before.keyChars) / 1000).toBeLessThanOrEqual(MAX_ENTRY_CHARS);
		gc();
		// 1,000 ids of 1 MB would be 1 GB if kept; what stays is a few hundred kilobytes.
		expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
	}, 120_000);
});

// Labels are what users search for in the editor; they follow n8n's own capitalisation.
describe('trigger labels', () => {
	it('event labels read like n8n\'s own nodes: QR Code Updated, New JWT Token, every word capitalised, and are names only', () => {
		const names = eventOptions(ALL_EVENTS).map((option) => option.name);
		expect(names).toContain('QR Code Updated');
		expect(names).toContain('New JWT Token');
		expect(names).toContain('Messages Upsert');
		expect(names).toContain('Messaging History Set');
		// n8n's panel lists a trigger's events as "On <name>": a note in a name would read "On new jwt token documented only".
		for (const name of names) expect(name).toMatch(/^([A-Z][a-z0-9]*|QR|JWT)( ([A-Z][a-z0-9]*|QR|JWT))*$/);
	});

	it('which servers send an event is in its description: one dialect only, or a newer release', () => {
		const description = (value: string) => eventOptions(ALL_EVENTS).find((option) => option.value === value)?.description;
		expect(description('NEW_JWT_TOKEN')).toBe('NEW_JWT_TOKEN. Sent by servers of the documented dialect only (v2 servers do not know it).');
		expect(description('MESSAGES_EDITED')).toBe('MESSAGES_EDITED. A message was edited. Sent by v2 servers only (not in the documented dialect).');
		expect(description('MESSAGING_HISTORY_SET')).toBe('MESSAGING_HISTORY_SET. Sent by v2 servers 2.4 or newer only.');
		expect(description('MESSAGES_UPSERT')).toBe('MESSAGES_UPSERT. A message arrived (or the account wrote one on its phone or WhatsApp Web).');
	});

	it('what people start with comes first (Messages Upsert, the other message events, the connection); the rest alphabetically', () => {
		const options = eventOptions(ALL_EVENTS);
		expect(options.slice(0, 7).map((option) => option.name)).toEqual(['Messages Upsert', 'Messages Update', 'Messages Edited', 'Messages Delete', 'Send Message', 'Connection Update', 'QR Code Updated']);
		const rest = options.slice(options.findIndex((option) => option.value === 'CALL') + 1).map((option) => option.name);
		expect(rest.length).toBeGreaterThan(20);
		expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
		expect(options.map((option) => option.value).sort()).toEqual([...ALL_EVENTS].sort());
	});

	it('the node panel lists the trigger\'s events in a person\'s words ("On new message", not "On messages upsert"), one entry each, the values unchanged', () => {
		const events = new MessagingInstanceTrigger().description.properties.find((property) => property.name === 'events')!;
		const options = (events.options ?? []) as Array<{ name: string; value: string; action?: string }>;
		expect(options.map((option) => option.value).sort()).toEqual([...ALL_EVENTS].sort());
		const action = (value: string) => options.find((option) => option.value === value)?.action;
		expect(action('MESSAGES_UPSERT')).toBe('On new message');
		expect(action('QRCODE_UPDATED')).toBe('On QR code updated');
		expect(action('NEW_JWT_TOKEN')).toBe('On new JWT token');
		for (const option of options) {
			expect(option.action).toMatch(/^On [a-zA-Z]/);
			// what the panel shows for an option without words of its own: "On " and its name in lower case ("On new jwt token")
			expect(option.action).not.toBe(`On ${option.name.toLowerCase()}`);
		}
		expect(new Set(options.map((option) => option.action)).size).toBe(options.length);
	});
});
