import { arrives, chatPage, collect, CONTACT, CONTACT_JID, findRequests, idsOf, instanceWrites, output, QUIET, useBurstSandbox } from './collectBurstSetup';
import { runNode } from '../harness/engine';
import { credentialsFor } from './helpers';
import { TINY_PNG_BASE64 } from '../../sandbox/messages';

/**
 * Message → Collect Burst: a run waits until the contact is quiet, then outputs one item for
 * the whole burst, or nothing when a newer message of the burst exists (its run answers).
 */
const sandbox = useBurstSandbox();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/;

describe('Collect Burst', () => {
	test('three messages in a row: only the run of the last outputs, one item holding all three', async () => {
		const items = [];
		for (const [id, text] of [['M1', 'hi'], ['M2', 'I need help'], ['M3', 'with my order 4411']]) {
			items.push(await arrives(sandbox.current, { from: CONTACT, id, text, pushName: 'Ana' }));
		}
		const runs = await Promise.all(items.map((item) => collect(sandbox.current, item)));

		expect(runs.map(output).slice(0, 2)).toEqual([undefined, undefined]);
		expect(output(runs[2])).toEqual({
			chatId: CONTACT_JID,
			sender: CONTACT_JID,
			text: 'hi\nI need help\nwith my order 4411',
			messages: [
				{ messageId: 'M1', messageType: 'conversation', text: 'hi', textFrom: 'message', timestamp: expect.stringMatching(ISO), hasFile: false },
				{ messageId: 'M2', messageType: 'conversation', text: 'I need help', textFrom: 'message', timestamp: expect.stringMatching(ISO), hasFile: false },
				{ messageId: 'M3', messageType: 'conversation', text: 'with my order 4411', textFrom: 'message', timestamp: expect.stringMatching(ISO), hasFile: false },
			],
			count: 3,
			firstMessageId: 'M1',
			lastMessageId: 'M3',
		});
		// One Find Messages per message: the chat's newest page, by the phone JID in either key field.
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID), chatPage(CONTACT_JID), chatPage(CONTACT_JID)]);
	}, 20_000);

	test('a run waits for the quiet time plus the settling time before it asks the server', async () => {
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'W1', text: 'hello' });
		const started = Date.now();
		const run = await collect(sandbox.current, item, { quietSeconds: 1.5, maxWaitSeconds: 60 });
		expect(idsOf(output(run))).toEqual(['W1']);
		const asked = sandbox.current.requests.find((request) => request.path === '/chat/findMessages/demo');
		expect(asked?.at).toBeGreaterThanOrEqual(started + 3_500);
	}, 20_000);

	test('a stopped execution stops waiting: nothing is asked, the run ends at once', async () => {
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'S1', text: 'hello' });
		const started = Date.now();
		const run = await runNode({
			parameters: { resource: 'message', operation: 'collectBurst', instance: 'demo', quietSeconds: 30, maxWaitSeconds: 60 },
			items: [item],
			credentials: credentialsFor(sandbox.current),
			cancelAfterMs: 300,
		});
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(run.run.status).toBe('canceled');
		expect(run.items).toEqual([]);
		expect(findRequests(sandbox.current)).toEqual([]);
	}, 20_000);

	test('a message after the reply starts a new burst', async () => {
		const first = [await arrives(sandbox.current, { from: CONTACT, id: 'A1', text: 'hi' }), await arrives(sandbox.current, { from: CONTACT, id: 'A2', text: 'are you open?' })];
		const runs = await Promise.all(first.map((item) => collect(sandbox.current, item)));
		expect(runs.map((run) => idsOf(output(run)))).toEqual([undefined, ['A1', 'A2']]);
		await instanceWrites(sandbox.current, CONTACT, 'Yes, until 6 pm.');

		const next = await collect(sandbox.current, await arrives(sandbox.current, { from: CONTACT, id: 'A3', text: 'thanks' }));
		expect(output(next)).toMatchObject({ text: 'thanks', count: 1, firstMessageId: 'A3', lastMessageId: 'A3' });
	}, 20_000);

	test("the instance's own message ends a burst: the contact's messages before it are answered apart", async () => {
		const before = await arrives(sandbox.current, { from: CONTACT, id: 'B1', text: 'is anyone there?' });
		const firstRun = collect(sandbox.current, before);
		// A person answers from the phone while the run waits; the contact writes again.
		await instanceWrites(sandbox.current, CONTACT, 'One moment');
		const after = await arrives(sandbox.current, { from: CONTACT, id: 'B2', text: 'ok' });
		const runs = await Promise.all([firstRun, collect(sandbox.current, after)]);
		expect(runs.map((run) => idsOf(output(run)))).toEqual([['B1'], ['B2']]);
	}, 20_000);

	test('a photo and a voice note in a burst: marked as files, their message ids download them', async () => {
		const voice = Buffer.from('OggS voice note bytes').toString('base64');
		const items = [
			await arrives(sandbox.current, { from: CONTACT, id: 'F1', text: 'look at this', media: { kind: 'image', mimetype: 'image/png', base64: TINY_PNG_BASE64 } }),
			await arrives(sandbox.current, { from: CONTACT, id: 'F2', media: { kind: 'audio', mimetype: 'audio/ogg; codecs=opus', base64: voice } }),
		];
		const runs = await Promise.all(items.map((item) => collect(sandbox.current, item)));
		const burst = output(runs[1]);
		expect(burst?.text).toBe('look at this');
		expect(burst?.messages).toEqual([
			{ messageId: 'F1', messageType: 'imageMessage', text: 'look at this', textFrom: 'message', timestamp: expect.stringMatching(ISO), hasFile: true },
			{ messageId: 'F2', messageType: 'audioMessage', text: '', textFrom: 'message', timestamp: expect.stringMatching(ISO), hasFile: true },
		]);

		// The recipe: each message with a file → Download Media with its messageId.
		const download = await runNode({
			parameters: { resource: 'message', operation: 'downloadMedia', instance: 'demo', messageId: '={{ $json.messageId }}' },
			items: (burst?.messages as Array<{ messageId: string; hasFile: boolean }>).filter((message) => message.hasFile),
			credentials: credentialsFor(sandbox.current),
		});
		expect(download.error).toBeUndefined();
		const files = download.items.map((item) => Buffer.from(item.binary?.data.data ?? '', 'base64').toString('base64'));
		expect(files).toEqual([TINY_PNG_BASE64, voice]);
	}, 20_000);

	test('a fresh node reads the chat and the message from the trigger item and waits 8 s', async () => {
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'D1', text: 'hello' });
		const started = Date.now();
		const run = await collect(sandbox.current, { ...item, text: 'hello', sender: CONTACT_JID }, {});
		expect(idsOf(output(run))).toEqual(['D1']);
		expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID)]);
	}, 30_000);
});

describe('Collect Burst refuses before it waits', () => {
	test('with the documented dialect, which has no Find Messages', async () => {
		const started = Date.now();
		const run = await collect(sandbox.current, { chatId: CONTACT_JID, messageId: 'X1' }, { quietSeconds: 30, maxWaitSeconds: 60 }, { dialect: 'documented' });
		expect(run.error?.message).toBe("Message → Collect Burst needs an Evolution API v2.x server; the credential's Server Dialect is the documented interface [item 0]");
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(sandbox.current.requests).toEqual([]);
	});

	test.each([
		[{ quietSeconds: -1 }, '"Quiet Seconds" must be between 0 and 600 [item 0]'],
		[{ maxWaitSeconds: 0 }, '"Max Wait Seconds" must be between 1 and 3600 [item 0]'],
		[{ quietSeconds: 'soon' }, '"Quiet Seconds" must be a number [item 0]'],
		[{ messageId: '={{ $json.nothing }}' }, '"Message ID" is required [item 0]'],
		[{ chatId: '={{ $json.nothing }}' }, '"Chat ID" is required [item 0]'],
	])('%j', async (parameters, message) => {
		const started = Date.now();
		const run = await collect(sandbox.current, { chatId: CONTACT_JID, messageId: 'X1' }, { ...QUIET, quietSeconds: 30, ...parameters });
		expect(run.error?.message).toBe(message);
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(sandbox.current.requests).toEqual([]);
	});
});

