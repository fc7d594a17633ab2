import type { IDataObject } from 'n8n-workflow';

import { HISTORY_LIMITS } from '../../nodes/shared/chatHistory';
import { useHostileServer, type Behaviour } from '../hostile/server';
import { runAgent, type AgentRun } from './agentHarness';

/**
 * The chat memory against a server that answers Find Messages as the test says: the stored
 * rows as the real servers shape them (reactions, edits, deletions, transcriptions, files),
 * and answers that are not a page of messages, which stop the run (fail closed) without a
 * secret in what the model, the execution or the error gets.
 */
const hostile = useHostileServer();
const KEY = 'memory-tier-key-0123456789';
const CHAT = '5511988887777@s.whatsapp.net';
const GROUP = '120363000000000077@g.us';
const server = () => ({ url: hostile.current.url, apiKey: KEY, dialect: 'v2' as const });

let clock = 1_790_000_000;
/** A stored row as Find Messages answers it (key, message, messageType, messageTimestamp, MessageUpdate). */
function row(id: string, fromMe: boolean, message: IDataObject, extra: IDataObject = {}): IDataObject {
	clock += 10;
	const { key, ...rest } = extra;
	return {
		id: `c${clock}${id}`,
		key: { id, fromMe, remoteJid: CHAT, ...(key as IDataObject | undefined) },
		pushName: fromMe ? 'Você' : 'Ana',
		messageType: Object.keys(message)[0] ?? 'unknown',
		message,
		messageTimestamp: clock,
		instanceId: 'i1',
		source: 'android',
		contextInfo: null,
		MessageUpdate: [],
		...rest,
	};
}
const text = (id: string, fromMe: boolean, words: string, extra: IDataObject = {}) => row(id, fromMe, { conversation: words }, extra);

/** The server answers every Find Messages with these rows (oldest first here), newest first as the real server does. */
function stores(rows: IDataObject[]): void {
	const newestFirst = [...rows].reverse();
	hostile.current.answerAll((request) => {
		const body = JSON.parse(request.body || '{}') as { page?: number; where?: { key?: { id?: string } } };
		const matching = body.where?.key?.id ? newestFirst.filter((r) => (r.key as IDataObject).id === body.where?.key?.id) : newestFirst;
		const page = body.page ?? 1;
		const size = HISTORY_LIMITS.pageSize;
		return { json: { messages: { total: matching.length, pages: Math.ceil(matching.length / size), currentPage: page, records: matching.slice((page - 1) * size, page * size) } } };
	});
}

async function history(item: IDataObject): Promise<AgentRun['items'][number]['history']> {
	const run = await runAgent(server(), [item], {}, { apiKey: KEY });
	expect(run.error).toBeUndefined();
	return run.items[0].history;
}

function errorOf(run: AgentRun): string {
	expect(run.error).toBeDefined();
	return `${run.error?.message} | ${run.error?.description ?? ''}`;
}

describe('stored rows as the real servers shape them', () => {
	test('reactions are applied to the message they are about, not listed; the last reaction of a person counts', async () => {
		stores([
			text('A1', false, 'can you send the invoice?'),
			text('B1', true, 'Sent it by email.'),
			row('R1', false, { reactionMessage: { key: { id: 'B1', remoteJid: CHAT, fromMe: true }, text: '👎' } }),
			row('R2', false, { reactionMessage: { key: { id: 'B1', remoteJid: CHAT, fromMe: true }, text: '👍' } }),
			row('R3', true, { reactionMessage: { key: { id: 'A1', remoteJid: CHAT, fromMe: false }, text: '' } }),
			text('NOW', false, 'thanks'),
		]);
		expect(await history({ chatId: CHAT, messageId: 'NOW' })).toEqual([
			{ role: 'user', text: 'can you send the invoice?' },
			{ role: 'assistant', text: 'Sent it by email. (reactions: 👍)' },
		]);
	});

	test('deleted messages are left out: the instance\'s (key.deleted), the contact\'s (a DELETED update), a revoke stored as a message', async () => {
		stores([
			text('A1', false, 'my address is Rua A, 1'),
			text('A2', false, 'oops wrong one', { MessageUpdate: [{ status: 'DELIVERY_ACK' }, { status: 'DELETED' }] }),
			text('B1', true, 'wrong chat, sorry', { key: { deleted: true } }),
			text('B2', true, 'Got it.'),
			text('A3', false, 'forget that'),
			row('P1', false, { protocolMessage: { key: { id: 'A3', remoteJid: CHAT }, type: 0 } }),
			text('NOW', false, 'when does it arrive?'),
		]);
		expect(await history({ chatId: CHAT, messageId: 'NOW' })).toEqual([
			{ role: 'user', text: 'my address is Rua A, 1' },
			{ role: 'assistant', text: 'Got it.' },
		]);
	});

	test('an edit shows the new text: stored in place (2.3.x) or as a protocol message', async () => {
		stores([
			text('A1', false, 'I want 2 boxes', { status: 'EDITED' }),
			text('A2', false, 'size M'),
			row('E1', false, { protocolMessage: { key: { id: 'A2', remoteJid: CHAT }, type: 14, editedMessage: { conversation: 'size L' } } }),
			text('NOW', false, 'is it in stock?'),
		]);
		expect(await history({ chatId: CHAT, messageId: 'NOW' })).toEqual([{ role: 'user', text: 'I want 2 boxes\nsize L' }]);
	});

	test('files are short placeholders: a voice note its stored transcription, a document its name, a sticker, a location', async () => {
		stores([
			row('V1', false, { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, url: 'https://mmg.whatsapp.net/x' }, speechToText: '[audio] I need it by Friday' }),
			row('V2', false, { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } }),
			row('D1', true, { documentMessage: { mimetype: 'application/pdf', fileName: 'invoice-1042.pdf', jpegThumbnail: 'AAAA'.repeat(100) } }),
			row('S1', false, { stickerMessage: { mimetype: 'image/webp' } }),
			row('L1', false, { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Paulista Ave' } }),
			row('I1', false, { viewOnceMessageV2: { message: { imageMessage: { mimetype: 'image/jpeg', caption: 'this one' } } } }),
			text('NOW', false, 'ok?'),
		]);
		expect(await history({ chatId: CHAT, messageId: 'NOW' })).toEqual([
			{ role: 'user', text: '[voice note] I need it by Friday\n[voice note]' },
			{ role: 'assistant', text: '[document invoice-1042.pdf]' },
			{ role: 'user', text: '[sticker]\n[location] Paulista Ave\n[photo] this one' },
		]);
	});

	test('rows that are no message of the conversation (key distribution, unknown) are not turns', async () => {
		stores([
			row('K1', false, { senderKeyDistributionMessage: { groupId: GROUP } }),
			row('U1', false, { messageContextInfo: {} }, { messageType: 'unknown' }),
			text('A1', false, 'hello'),
			text('NOW', false, 'anyone?'),
		]);
		expect(await history({ chatId: CHAT, messageId: 'NOW' })).toEqual([{ role: 'user', text: 'hello' }]);
	});

	test.each<[string, IDataObject, RegExp]>([
		['a row without a usable key', { id: 'broken', key: { remoteJid: CHAT }, message: { conversation: 'no id' }, messageTimestamp: 1_790_000_000 }, /entry 2 is not a stored message: its key has no id and chat/],
		['a message of another chat', text('X1', false, 'not yours', { key: { remoteJid: '5511900000000@s.whatsapp.net' } }), /message X1 of the chat 5511900000000@s\.whatsapp\.net/],
	])('%s in the answer stops the run (the answer is not this chat\'s history)', async (_what, stranger, message) => {
		stores([stranger, text('NOW', false, 'anyone?')]);
		const run = await runAgent(server(), [{ chatId: CHAT, messageId: 'NOW' }], {}, { apiKey: KEY });
		expect(errorOf(run)).toMatch(message);
		expect(run.items).toEqual([]);
	});

	test('a very long message is cut: a pasted document does not crowd out the chat', async () => {
		stores([text('A1', false, 'x'.repeat(50_000)), text('NOW', false, 'and?')]);
		const [turn] = await history({ chatId: CHAT, messageId: 'NOW' });
		expect(turn.text).toBe(`${'x'.repeat(2_000)}…`);
	});

	test('the API key inside a stored message never reaches the model, the execution or the error', async () => {
		stores([text('A1', false, `my key is ${KEY}, right?`), text('NOW', false, 'well?')]);
		const turns = await history({ chatId: CHAT, messageId: 'NOW' });
		expect(JSON.stringify(turns)).not.toContain(KEY);
		expect(turns[0].text).toMatch(/^my key is \S+, right\?$/);
	});

	test('the window is read page by page, newest first, and no further than it needs', async () => {
		const rows = [];
		for (let i = 1; i <= 120; i++) rows.push(text(`Q${i}`, false, `question ${i}`), text(`A${i}`, true, `answer ${i}`));
		stores([...rows, text('NOW', false, 'last')]);
		const turns = await history({ chatId: CHAT, messageId: 'NOW' });
		expect(turns.map((turn) => turn.text)).toEqual(['question 116', 'answer 116', 'question 117', 'answer 117', 'question 118', 'answer 118', 'question 119', 'answer 119', 'question 120', 'answer 120']);
		expect(hostile.current.seen.map((request) => JSON.parse(request.body).page)).toEqual([1]);
	});
});

describe('answers that are not a page of messages stop the run', () => {
	test.each<[string, unknown, RegExp]>([
		['null', null, /The memory's read of the chat \(Find Messages\) \(POST \/chat\/findMessages\) answered null, not a page of records/],
		['an object without records', { messages: {} }, /answered a page without records/],
		['a list where the page is', [], /answered a list, not a page of records/],
		['a page larger than asked', { messages: { pages: 1, currentPage: 1, records: Array.from({ length: 51 }, (_, i) => ({ key: { id: `x${i}` } })) } }, /51 messages for a page of 50: the server does not page Find Messages as asked/],
	])('%s', async (_what, answer, message) => {
		hostile.current.answerAll(() => ({ json: answer }));
		const run = await runAgent(server(), [{ chatId: CHAT }], {}, { apiKey: KEY });
		expect(errorOf(run)).toMatch(message);
		expect(run.items).toEqual([]);
	});

	test.each<[Behaviour, RegExp]>([
		['html', /HTML page instead of JSON/],
		['echo-key-500', /HTTP 500/],
		['redirect-other-host', /redirects to/],
		['hang', /did not answer in time/],
	])('a hostile server (%s): an error, nothing sent elsewhere, no key', async (behaviour, message) => {
		hostile.current.script(behaviour, behaviour, behaviour);
		const run = await runAgent(server(), [{ chatId: CHAT }], {}, { apiKey: KEY, timeout: 0.5 });
		expect(errorOf(run)).toMatch(message);
		expect(hostile.current.seenByOther).toEqual([]);
		expect(JSON.stringify(run.run)).not.toContain(KEY);
	});

	test('a server that pages without end is read no further than the bound', async () => {
		hostile.current.answerAll((request) => {
			const page = (JSON.parse(request.body) as { page: number }).page;
			const records = Array.from({ length: 50 }, (_, i) => ({ id: `r${page}-${i}`, key: { id: `m${page}-${i}`, fromMe: false, remoteJid: CHAT }, message: { conversation: 'same' }, messageTimestamp: 1_790_000_000 - page * 100 - i }));
			return { json: { messages: { pages: 1_000, currentPage: page, records } } };
		});
		const run = await runAgent(server(), [{ chatId: CHAT }], {}, { apiKey: KEY });
		expect(run.error).toBeUndefined();
		expect(hostile.current.seen.length).toBe(HISTORY_LIMITS.pages);
	});
});
