import { arrives, chatPage, collect, CONTACT, CONTACT_JID, findRequests, GROUP, idsOf, instanceWrites, output, useBurstSandbox } from './collectBurstSetup';

/**
 * Collect Burst decides only from the chat's own history, read strictly: an answer holding
 * another chat's messages (a server that ignores the chat filter), an entry that is not a
 * stored message, or a group message that does not name its author fails the item naming
 * what came, instead of answering one contact with another's text or losing a message
 * without a word. A server that stamps milliseconds is read as such.
 */
const sandbox = useBurstSandbox();
const BRUNO = '5511977776666';
const BRUNO_JID = `${BRUNO}@s.whatsapp.net`;
const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/;

/** A record of this contact's chat as the real server stores one, stamped `secondsAgo` before now. */
function earlierRecord(secondsAgo: number): Record<string, unknown> {
	return {
		id: 'c000000000000000',
		key: { id: 'EARLIER', fromMe: true, remoteJid: CONTACT_JID },
		messageType: 'conversation',
		message: { conversation: 'Welcome!' },
		messageTimestamp: Math.floor(Date.now() / 1000) - secondsAgo,
	};
}

describe('Collect Burst reads only the chat it was given', () => {
	test("a server that ignores the chat filter: the item fails naming the other chat's message; the other contact's text goes nowhere", async () => {
		const ana = await arrives(sandbox.current, { from: CONTACT, id: 'A1', text: 'hi, is my order ready?' });
		await arrives(sandbox.current, { from: BRUNO, id: 'B1', text: 'Bruno here: my card is 4111 1111 1111 1111' });
		await instanceWrites(sandbox.current, BRUNO, 'Thanks Bruno, paid.');
		const reply = sandbox.current.chat[sandbox.current.chat.length - 1].messageId;

		// The server answers as asked: Ana's burst is Ana's message alone, whatever was written elsewhere.
		expect(output(await collect(sandbox.current, ana))).toMatchObject({ text: 'hi, is my order ready?', count: 1, lastMessageId: 'A1' });

		sandbox.current.historyQuirks({ ignoresWhere: true });
		sandbox.current.clearRequests();
		const run = await collect(sandbox.current, ana);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			`"Find Messages" answered page 1 of the chat ${CONTACT_JID} with message ${reply} of the chat ${BRUNO_JID} (entry 1): the server did not apply the filter, so the answer is not what was asked and nothing is decided from it [item 0]`,
		);
		expect(JSON.stringify(run.error)).not.toContain('4111');
		// One page, read once: an answer of the wrong chat is not asked again, nor read further.
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID)]);
	}, 20_000);

	test("the instance's reply in another chat neither ends nor answers this contact's burst", async () => {
		const items = [await arrives(sandbox.current, { from: CONTACT, id: 'C1', text: 'hello' })];
		await instanceWrites(sandbox.current, BRUNO, 'Your parcel left today.');
		items.push(await arrives(sandbox.current, { from: CONTACT, id: 'C2', text: 'anyone?' }));

		const runs = await Promise.all(items.map((item) => collect(sandbox.current, item)));
		expect(runs.map((run) => idsOf(output(run)))).toEqual([undefined, ['C1', 'C2']]);

		sandbox.current.historyQuirks({ ignoresWhere: true });
		const again = await Promise.all(items.map((item) => collect(sandbox.current, item)));
		for (const run of again) {
			expect(run.items).toEqual([]);
			expect(run.error?.message).toMatch(new RegExp(`^"Find Messages" answered page 1 of the chat ${CONTACT_JID} with message \\w+ of the chat ${BRUNO_JID} \\(entry 2\\)`));
		}
	}, 20_000);

	test('the look-up of the run\'s own message by id answered with another message fails the item, instead of "not stored yet"', async () => {
		// The chat's page holds no OWN1 (not stored yet); the look-up by id answers a message it did not ask for.
		sandbox.current.historyQuirks({ extraEntries: [earlierRecord(60)] });
		const run = await collect(sandbox.current, { chatId: CONTACT_JID, messageId: 'OWN1' });
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			`"Find Messages" answered the look-up of message OWN1 with message EARLIER of the chat ${CONTACT_JID} (entry 1): the server did not apply the filter, so the answer is not what was asked and nothing is decided from it [item 0]`,
		);
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID), { where: { key: { id: 'OWN1' } }, page: 1, offset: 10 }]);
	}, 20_000);
});

describe('Collect Burst reads the history strictly: an entry it cannot read fails the item naming its place', () => {
	test.each([
		// An entry that is no record at all is refused by the router's door, which reads every answer of a declared request.
		['a text', 'junk', 'door: a list whose entry 2 is a string, not a record'],
		['a number', 42, 'door: a list whose entry 2 is a number, not a record'],
		['null', null, 'door: a list whose entry 2 is null, not a record'],
		['a list', [{ key: { id: 'X' } }], 'door: a list whose entry 2 is a list, not a record'],
		['an empty record', {}, 'got a list whose entry 2 is not a stored message: its key has no id and chat (key.id, key.remoteJid)'],
		[
			'a record without a time',
			{ key: { id: 'NOTIME', fromMe: false, remoteJid: CONTACT_JID }, message: { conversation: 'lost?' }, messageTimestamp: 'soon' },
			'got a list whose entry 2 (message NOTIME) has no messageTimestamp that is a time',
		],
	])('%s', async (_name, entry, problem) => {
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'S1', text: 'hello' });
		sandbox.current.historyQuirks({ extraEntries: [earlierRecord(60), entry] });
		const run = await collect(sandbox.current, item);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			problem.startsWith('door: ')
				? `The read of the chat (Find Messages) (POST /chat/findMessages/demo) answered ${problem.slice('door: '.length)}; nothing was output`
				: `"Find Messages" answered page 1 of the chat ${CONTACT_JID}: ${problem} [item 0]`,
		);
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID)]);
	}, 20_000);

	test('a group message that does not name its author fails the item instead of belonging to no one', async () => {
		const ana = '5511911110000';
		const item = await arrives(sandbox.current, { from: ana, group: GROUP, id: 'GA1', text: 'who is buying?' });
		const authorless = {
			id: 'c000000000000001',
			key: { id: 'GX', fromMe: false, remoteJid: GROUP },
			messageType: 'conversation',
			message: { conversation: 'me, two boxes' },
			messageTimestamp: Math.floor(Date.now() / 1000),
		};
		sandbox.current.historyQuirks({ extraEntries: [authorless] });
		const run = await collect(sandbox.current, item);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			`"Find Messages" answered page 1 of the chat ${GROUP}: got a list whose entry 1 (message GX of the group ${GROUP}) does not name its author (key.participant) [item 0]`,
		);

		// The instance's own messages in a group need no author: they only end bursts.
		sandbox.current.historyQuirks({ extraEntries: [{ ...authorless, key: { id: 'GME', fromMe: true, remoteJid: GROUP } }] });
		const next = await collect(sandbox.current, await arrives(sandbox.current, { from: ana, group: GROUP, id: 'GA2', text: 'ok' }));
		expect(idsOf(output(next))).toEqual(['GA2']);
	}, 20_000);
});

describe('Collect Burst with a server that stamps milliseconds', () => {
	test('three messages in a row are still one burst, answered once, at the second they were stored', async () => {
		sandbox.current.historyQuirks({ milliseconds: true });
		const before = Math.floor(Date.now() / 1000) * 1000;
		const items = [];
		for (const [id, text] of [['MS1', 'hi'], ['MS2', 'I need help'], ['MS3', 'with my order 4411']]) {
			items.push(await arrives(sandbox.current, { from: CONTACT, id, text }));
		}
		const after = Date.now();
		const runs = await Promise.all(items.map((item) => collect(sandbox.current, item)));
		expect(runs.slice(0, 2).map(output)).toEqual([undefined, undefined]);
		const burst = output(runs[2]);
		expect(burst).toMatchObject({ text: 'hi\nI need help\nwith my order 4411', count: 3, firstMessageId: 'MS1', lastMessageId: 'MS3' });
		for (const message of burst?.messages as Array<{ timestamp: string }>) {
			expect(message.timestamp).toMatch(ISO_SECOND);
			expect(Date.parse(message.timestamp)).toBeGreaterThanOrEqual(before);
			expect(Date.parse(message.timestamp)).toBeLessThanOrEqual(after);
		}
		// What the server answered was milliseconds indeed.
		const answer = sandbox.current.requests.find((request) => request.path === '/chat/findMessages/demo')?.response as { messages: { records: Array<{ messageTimestamp: number }> } };
		expect(answer.messages.records[0].messageTimestamp).toBeGreaterThan(1e12);
	}, 20_000);
});
