import { startSandbox } from '../../sandbox/server';
import { TINY_PNG_BASE64 } from '../../sandbox/messages';
import { SERVER_VERSIONS } from '../../sandbox/versions';
import { declareSecrets } from '../harness/secrets';
import { arrives, chatPage, collect, CONTACT, CONTACT_JID, CONTACT_LID, findRequests, GROUP, instanceWrites, output, useBurstSandbox } from '../nodes/collectBurstSetup';
import { runAgent, type AgentRun, type Turn } from './agentHarness';

/**
 * The chat memory against the sandbox: what n8n's AI Agent is given as history is the chat the
 * server stored, oldest first, the contact's messages as the user's turns and the instance's
 * (this workflow's answers, a person on the phone) as the assistant's, the run's own messages
 * left out, at most Context Window Length interactions.
 */
const sandbox = useBurstSandbox();
const OTHER = '5511977776666';

/** The agent's error as n8n reports a sub-node's: "Error in sub-node …", the memory's own message as its description. */
function errorOf(run: AgentRun): string {
	expect(run.error).toBeDefined();
	return `${run.error?.message} | ${run.error?.description ?? ''}`;
}

function user(text: string): Turn {
	return { role: 'user', text };
}
function assistant(text: string): Turn {
	return { role: 'assistant', text };
}

describe('Messaging Instance Chat Memory', () => {
	test("a fresh node gives the agent the chat before the trigger's message, oldest first, one turn per side", async () => {
		await arrives(sandbox.current, { from: CONTACT, id: 'H1', text: 'hi, is the shop open?' });
		await instanceWrites(sandbox.current, CONTACT, 'Yes, until 6 pm.');
		await instanceWrites(sandbox.current, CONTACT, 'How can I help?');
		await arrives(sandbox.current, { from: OTHER, id: 'X1', text: 'another chat' });
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'H2', text: 'do you have size 42?' });

		const run = await runAgent(sandbox.current, [{ ...item, text: 'do you have size 42?' }]);

		expect(run.error).toBeUndefined();
		expect(run.items[0].history).toEqual([user('hi, is the shop open?'), assistant('Yes, until 6 pm.\nHow can I help?')]);
		// One request: the chat's newest page by its JID in either key field.
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID)]);
	}, 20_000);

	test("what a person typed on the phone is the assistant's turn too", async () => {
		await arrives(sandbox.current, { from: CONTACT, id: 'P1', text: 'can I pick it up today?' });
		await arrives(sandbox.current, { from: CONTACT, fromMe: true, id: 'P2', text: 'Sure, come after 3.' });
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'P3', text: 'great, on my way' });

		const run = await runAgent(sandbox.current, [item]);

		expect(run.items[0].history).toEqual([user('can I pick it up today?'), assistant('Sure, come after 3.')]);
	}, 20_000);

	test("after Collect Burst the burst is the agent's input, not history; nor is what came after it", async () => {
		await arrives(sandbox.current, { from: CONTACT, id: 'B0', text: 'yesterday question' });
		await instanceWrites(sandbox.current, CONTACT, 'yesterday answer');
		const burst = [await arrives(sandbox.current, { from: CONTACT, id: 'B1', text: 'hi' }), await arrives(sandbox.current, { from: CONTACT, id: 'B2', text: 'order 4411?' })];
		const runs = await Promise.all(burst.map((item) => collect(sandbox.current, item, { quietSeconds: 0.5, maxWaitSeconds: 60 })));
		const burstItem = output(runs[1]);
		expect(burstItem).toMatchObject({ firstMessageId: 'B1', lastMessageId: 'B2' });
		// The contact writes again while the agent thinks: that is the next run's input.
		await arrives(sandbox.current, { from: CONTACT, id: 'B3', text: 'also, gift wrap?' });

		const run = await runAgent(sandbox.current, [burstItem!]);

		expect(run.items[0].history).toEqual([user('yesterday question'), assistant('yesterday answer')]);
	}, 30_000);

	test('Context Window Length counts interactions: a turn of the contact and the answer', async () => {
		for (let turn = 1; turn <= 6; turn++) {
			await arrives(sandbox.current, { from: CONTACT, id: `W${turn}a`, text: `question ${turn}` });
			await arrives(sandbox.current, { from: CONTACT, id: `W${turn}b`, text: `more ${turn}` });
			await instanceWrites(sandbox.current, CONTACT, `answer ${turn}`);
		}
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'W7', text: 'question 7' });

		const run = await runAgent(sandbox.current, [item], { contextWindowLength: 2 });

		expect(run.items[0].history).toEqual([user('question 5\nmore 5'), assistant('answer 5'), user('question 6\nmore 6'), assistant('answer 6')]);
	}, 30_000);

	test("within one agent run the memory keeps the turn it saved; the next run reads the server's chat", async () => {
		await arrives(sandbox.current, { from: CONTACT, id: 'S1', text: 'hello' });
		await instanceWrites(sandbox.current, CONTACT, 'Hi! How can I help?');
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'S2', text: 'price of the blue one?' });

		const before = sandbox.current.requests.length;
		const run = await runAgent(sandbox.current, [{ ...item, save: { input: 'price of the blue one?', output: 'It is 40 euros.' } }]);
		expect(run.items[0].afterSave).toEqual([user('hello'), assistant('Hi! How can I help?'), user('price of the blue one?'), assistant('It is 40 euros.')]);
		// Nothing was written to the server.
		expect(sandbox.current.requests.slice(before).map((request) => request.path)).toEqual(['/chat/findMessages/demo']);

		await instanceWrites(sandbox.current, CONTACT, 'It is 40 euros.');
		const next = await runAgent(sandbox.current, [await arrives(sandbox.current, { from: CONTACT, id: 'S3', text: 'ok, I take it' })]);
		expect(next.items[0].history).toEqual([user('hello'), assistant('Hi! How can I help?'), user('price of the blue one?'), assistant('It is 40 euros.')]);
	}, 30_000);

	test("in a group each member's turn says who wrote it", async () => {
		await arrives(sandbox.current, { from: CONTACT, group: GROUP, pushName: 'Ana', id: 'G1', text: 'who is buying?' });
		await arrives(sandbox.current, { from: OTHER, group: GROUP, pushName: 'Bia', id: 'G2', text: 'me' });
		await instanceWrites(sandbox.current, GROUP, 'Noted, Bia.');
		const item = await arrives(sandbox.current, { from: CONTACT, group: GROUP, pushName: 'Ana', id: 'G3', text: 'and me' });

		const run = await runAgent(sandbox.current, [item]);

		expect(item.chatId).toBe(GROUP);
		expect(run.items[0].history).toEqual([user(`Ana (${CONTACT}): who is buying?\nBia (${OTHER}): me`), assistant('Noted, Bia.')]);
	}, 20_000);

	test('a photo is a short placeholder with its caption, a voice note without a transcription its placeholder', async () => {
		const voice = Buffer.from('OggS voice').toString('base64');
		await arrives(sandbox.current, { from: CONTACT, id: 'F1', text: 'is this the model?', media: { kind: 'image', mimetype: 'image/png', base64: TINY_PNG_BASE64 } });
		await arrives(sandbox.current, { from: CONTACT, id: 'F2', media: { kind: 'audio', mimetype: 'audio/ogg; codecs=opus', base64: voice } });
		await instanceWrites(sandbox.current, CONTACT, 'Yes, it is.');
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'F3', text: 'thanks' });

		const run = await runAgent(sandbox.current, [item]);

		const [first] = run.items[0].history;
		expect(first.role).toBe('user');
		expect(first.text).toMatch(/^\[photo\] is this the model\?\n\[(voice note|audio)\]$/);
		// No file content reaches the model.
		expect(JSON.stringify(run.items[0].history)).not.toContain(TINY_PNG_BASE64.slice(0, 40));
	}, 20_000);

	test('a chat with no message stored yet: the agent gets no history, and the run says what stores them', async () => {
		const run = await runAgent(sandbox.current, [{ chatId: CONTACT_JID }]);
		expect(run.error).toBeUndefined();
		expect(run.items[0].history).toEqual([]);
		const hints = JSON.stringify(run.run.data.resultData.runData['Chat Memory'] ?? run.run.data.resultData.runData);
		expect(hints).toContain('DATABASE_SAVE_DATA_NEW_MESSAGE');
	}, 20_000);
});

describe('refusals', () => {
	test('the message the run answers is not stored: the error names the server setting that stores messages', async () => {
		const run = await runAgent(sandbox.current, [{ chatId: CONTACT_JID, messageId: 'NOT-STORED' }]);
		expect(errorOf(run)).toContain('is not among the messages the server stored');
		expect(errorOf(run)).toContain('DATABASE_SAVE_DATA_NEW_MESSAGE=true');
		expect(run.items).toEqual([]);
	}, 20_000);

	test('the message the run answers is of another chat: refused, naming both', async () => {
		const item = await arrives(sandbox.current, { from: OTHER, id: 'O1', text: 'hi' });
		const run = await runAgent(sandbox.current, [{ chatId: CONTACT_JID, messageId: item.messageId }]);
		expect(errorOf(run)).toContain(`is a message of the chat ${OTHER}@s.whatsapp.net, not of ${CONTACT_JID}`);
	}, 20_000);

	test('the documented dialect has no Find Messages: a clear error, nothing asked', async () => {
		const run = await runAgent(sandbox.current, [{ chatId: CONTACT_JID, messageId: 'M1' }], {}, { dialect: 'documented' });
		expect(errorOf(run)).toContain('reads the chat with Find Messages, which servers of the documented interface do not have');
		expect(findRequests(sandbox.current)).toEqual([]);
	}, 20_000);

	test.each([
		[{ chatId: '' }, '"Chat ID" is required'],
		[{ chatId: 'not a jid' }, '"Chat ID" is not a chat JID'],
		[{ chatId: CONTACT_JID, messageId: { id: 'x' } }, '"Current Message IDs" holds something that is not a message ID'],
	])('bad input %j is refused before any request', async (item, message) => {
		const run = await runAgent(sandbox.current, [item]);
		expect(errorOf(run)).toContain(message);
		expect(findRequests(sandbox.current)).toEqual([]);
	}, 20_000);
});

describe.each(SERVER_VERSIONS)('a contact known by LID, on %s', (version) => {
	test('the phone JID and the LID are one contact: the whole conversation, in order', async () => {
		const sb = await startSandbox({ dialect: 'v2', version, instances: [{ name: 'demo', token: 'demo-token' }] });
		declareSecrets('demo-token');
		try {
			const lid = { from: CONTACT, lid: CONTACT_LID };
			await arrives(sb, { ...lid, id: 'L1', text: 'hi' });
			await instanceWrites(sb, CONTACT, 'Hello! How can I help?');
			const item = await arrives(sb, { ...lid, id: 'L2', text: 'order 4411' });

			const run = await runAgent(sb, [item]);

			expect(run.error).toBeUndefined();
			expect(item.chatId).toBe(CONTACT_JID);
			expect(run.items[0].history).toEqual([user('hi'), assistant('Hello! How can I help?')]);
			// 2.3.6 matches remoteJid alone: the run's message is looked up, and the LID's pages read too.
			expect(findRequests(sb)).toEqual(
				version === '2.3.6' ? [chatPage(CONTACT_JID), { where: { key: { id: 'L2' } }, page: 1, offset: 10 }, chatPage(CONTACT_LID)] : [chatPage(CONTACT_JID)],
			);
		} finally {
			await sb.close();
		}
	}, 30_000);
});
