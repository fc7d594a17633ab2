import { randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { SERVER_VERSIONS, type ServerVersion } from '../../sandbox/versions';
import { arrives, collect, CONTACT, CONTACT_JID, CONTACT_LID, GROUP, idsOf, output, QUIET, useBurstSandbox } from './collectBurstSetup';
import { run } from './helpers';

/**
 * Collect Burst's `options.silentAfterPersonMinutes`: while a person (the account's owner or an
 * agent on the phone) wrote in the chat within that many minutes, a run outputs nothing and
 * does not fail; once the person has been quiet that long, bursts are answered again. Decided
 * from the chat's stored history alone, on WhatsApp's time stamps. The person's messages are
 * sent "earlier" through the sandbox's `sentAt` (a message stamped when its phone sent it).
 */
const SILENT_5 = { ...QUIET, options: { silentAfterPersonMinutes: 5 } };
const MINUTE = 60_000;
const OTHER = '5511977776666';

const phoneId = (): string => '3A' + randomBytes(9).toString('hex').toUpperCase();

/** The account's owner writes in the chat from the phone (a fromMe message with the phone's id), `minutesAgo` before now. */
async function personWrites(sandbox: ReturnType<typeof useBurstSandbox>['current'], minutesAgo: number, extra: IDataObject = {}): Promise<string> {
	const id = phoneId();
	await sandbox.injectMessage('demo', { from: CONTACT, id, text: 'A person answers', fromMe: true, sentAt: Date.now() - minutesAgo * MINUTE, ...extra });
	return id;
}

describe('Collect Burst: silent while a person answers', () => {
	const sandbox = useBurstSandbox();

	test('a person who wrote within the minutes set silences the next bursts; once quiet that long, the bot answers again', async () => {
		await personWrites(sandbox.current, 6);
		// 5½ minutes ago the person had written half a minute before: that burst was not answered.
		const earlier = await arrives(sandbox.current, { from: CONTACT, id: 'E1', text: 'thanks, and the invoice?', sentAt: Date.now() - 5.5 * MINUTE });
		const now = await arrives(sandbox.current, { from: CONTACT, id: 'N1', text: 'hello? anyone?' });

		const runs = await Promise.all([collect(sandbox.current, earlier, SILENT_5), collect(sandbox.current, now, SILENT_5)]);
		expect(output(runs[0])).toBeUndefined();
		// The person wrote 6 minutes before this burst: no longer silent.
		expect(output(runs[1])).toMatchObject({ chatId: CONTACT_JID, text: 'hello? anyone?', firstMessageId: 'N1', lastMessageId: 'N1' });
	}, 30_000);

	test('a person who wrote 4 minutes ago keeps a 5-minute rule silent, and the run is no failure; with the rule off it answers', async () => {
		await personWrites(sandbox.current, 4);
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'S1', text: 'one more question' });
		const silent = await collect(sandbox.current, item, SILENT_5);
		expect(silent.run.status).toBe('success');
		expect(output(silent)).toBeUndefined();
		// 0 turns it off, as does a fresh node without the option.
		expect(idsOf(output(await collect(sandbox.current, item, { ...QUIET, options: { silentAfterPersonMinutes: 0 } })))).toEqual(['S1']);
		expect(idsOf(output(await collect(sandbox.current, item, QUIET)))).toEqual(['S1']);
	}, 30_000);

	test('a person writing while the run waits silences it', async () => {
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'W1', text: 'can I change my address?' });
		const running = collect(sandbox.current, item, SILENT_5);
		await personWrites(sandbox.current, 0);
		expect(output(await running)).toBeUndefined();
	}, 30_000);

	test("a person writing in one chat leaves the other chats' bursts answered", async () => {
		await personWrites(sandbox.current, 1);
		const item = await arrives(sandbox.current, { from: OTHER, id: 'O1', text: 'hi there' });
		expect(idsOf(output(await collect(sandbox.current, item, SILENT_5)))).toEqual(['O1']);
	}, 30_000);

	test('in a group: a person writing in the group silences the bursts of its members', async () => {
		await personWrites(sandbox.current, 2, { group: GROUP });
		const item = await arrives(sandbox.current, { from: OTHER, id: 'G1', text: 'who can help?', group: GROUP, pushName: 'Bea' });
		expect(output(await collect(sandbox.current, item, SILENT_5))).toBeUndefined();
		const direct = await arrives(sandbox.current, { from: OTHER, id: 'G2', text: 'me again, directly' });
		expect(idsOf(output(await collect(sandbox.current, direct, SILENT_5)))).toEqual(['G2']);
	}, 30_000);

	test("a voice note's transcription is part of the burst's text, marked as one", async () => {
		const creds = await fetch(`${sandbox.current.url}/openai/creds/demo`, {
			method: 'POST',
			headers: { apikey: sandbox.current.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'whisper', apiKey: 'sk-sandbox-burst-key' }),
		}).then(async (answer) => (await answer.json()) as { id: string });
		const settings = await fetch(`${sandbox.current.url}/openai/settings/demo`, {
			method: 'POST',
			headers: { apikey: sandbox.current.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ openaiCredsId: creds.id, expire: 0, keywordFinish: 'bye', delayMessage: 1000, unknownMessage: 'sorry', listeningFromMe: false, stopBotFromMe: false, keepOpen: false, debounceTime: 0, ignoreJids: [], speechToText: true }),
		});
		expect(settings.status).toBe(200);
		const first = await arrives(sandbox.current, { from: CONTACT, id: 'T1', text: 'about my order' });
		const voice = await arrives(sandbox.current, { from: CONTACT, id: 'T2', media: { kind: 'audio', mimetype: 'audio/ogg; codecs=opus', base64: Buffer.from('OggS').toString('base64'), transcript: 'it arrived broken' } });
		const runs = await Promise.all([collect(sandbox.current, first), collect(sandbox.current, voice)]);
		expect(output(runs[0])).toBeUndefined();
		const burst = output(runs[1]);
		expect(burst?.text).toBe('about my order\nit arrived broken');
		expect(burst?.messages).toEqual([
			expect.objectContaining({ messageId: 'T1', text: 'about my order', textFrom: 'message', hasFile: false }),
			expect.objectContaining({ messageId: 'T2', messageType: 'audioMessage', text: 'it arrived broken', textFrom: 'transcription', hasFile: true }),
		]);
	}, 30_000);

	test.each([
		[-1, '"Silent After Person (Minutes)" must be between 0 and 1440 [item 0]'],
		['soon', '"Silent After Person (Minutes)" must be a number [item 0]'],
	])('silentAfterPersonMinutes %p fails the item before any request', async (minutes, message) => {
		const item = { chatId: CONTACT_JID, messageId: 'X1' };
		const failed = await collect(sandbox.current, item, { ...QUIET, options: { silentAfterPersonMinutes: minutes } });
		expect(failed.error?.message).toBe(message);
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe.each<ServerVersion>([...SERVER_VERSIONS])("on %s: the workflow's own replies never silence it; a LID contact", (version) => {
	const sandbox = useBurstSandbox(version);

	test('the contact writes, the workflow answers through Send Text, the contact writes again: answered', async () => {
		const first = await arrives(sandbox.current, { from: CONTACT, id: 'R1', text: 'hi' });
		expect(idsOf(output(await collect(sandbox.current, first, SILENT_5)))).toEqual(['R1']);
		const reply = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: CONTACT, text: 'Hello! How can I help?' });
		expect(reply.error).toBeUndefined();
		const second = await arrives(sandbox.current, { from: CONTACT, id: 'R2', text: 'my order is late' });
		expect(idsOf(output(await collect(sandbox.current, second, SILENT_5)))).toEqual(['R2']);
	}, 30_000);

	test('a contact known by LID: the person writing in its chat silences it', async () => {
		await personWrites(sandbox.current, 1, { lid: CONTACT_LID });
		const item = await arrives(sandbox.current, { from: CONTACT, lid: CONTACT_LID, id: 'L1', text: 'are you there?' });
		const silent = await collect(sandbox.current, item, SILENT_5);
		expect(output(silent)).toBeUndefined();
		expect(idsOf(output(await collect(sandbox.current, item, QUIET)))).toEqual(['L1']);
	}, 30_000);
});
