import { startSandbox, type Sandbox } from '../../sandbox/server';
import { runNode } from '../harness/engine';
import { sent } from './helpers';

/**
 * Two routes whose answers differ by Evolution API release, run through the node against the
 * sandbox playing each: Find Messages (Message → Get Many) for a contact known by LID, whose
 * incoming messages the server stores under Baileys' key (LID in remoteJid, phone JID in
 * remoteJidAlt); and Download Media of a message that has no file.
 */

const RELEASES = ['2.3.6', '2.3.7', '2.4.0'] as const;
type Release = (typeof RELEASES)[number];

const PHONE_JID = '5511944440001@s.whatsapp.net';
const LID = '123456789012345@lid';

async function withRelease(release: Release, body: (sandbox: Sandbox) => Promise<void>): Promise<void> {
	const sandbox = await startSandbox({ dialect: 'v2', version: release, instances: [{ name: 'demo' }] });
	try {
		await body(sandbox);
	} finally {
		await sandbox.close();
	}
}

const credentials = (sandbox: Sandbox) => ({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' });

describe.each(RELEASES)('Message → Get Many of a chat with a contact known by LID (Evolution API %s)', (release) => {
	/** The contact wrote (stored under its LID), the instance answered (stored under the phone JID). */
	async function conversation(sandbox: Sandbox): Promise<void> {
		await sandbox.injectMessage('demo', { from: PHONE_JID, lid: LID, id: '3AFROMTHELID', text: 'where is my order?' });
		const reply = await fetch(`${sandbox.url}/message/sendText/demo`, {
			method: 'POST',
			headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ number: PHONE_JID, text: 'on its way' }),
		});
		expect(reply.status).toBe(201);
		sandbox.clearRequests();
	}

	test("the chat's phone JID (the trigger's chatId) as the filter: both key filters are sent; 2.3.7 and later find the whole conversation, 2.3.6 the reply only", async () => {
		await withRelease(release, async (sandbox) => {
			await conversation(sandbox);
			const result = await runNode({
				parameters: { instance: 'demo', resource: 'message', operation: 'getMany', returnAll: true, filters: { remoteJid: PHONE_JID } },
				credentials: credentials(sandbox),
			});
			expect(result.error).toBeUndefined();
			expect(sent(sandbox)).toEqual([
				{ method: 'POST', path: '/chat/findMessages/demo', status: 200, body: { where: { key: { remoteJid: PHONE_JID, remoteJidAlt: PHONE_JID } }, page: 1, offset: 50 } },
			]);
			const found = result.items.map((item) => [(item.json.key as { remoteJid: string }).remoteJid, (item.json.message as { conversation: string }).conversation]);
			expect(found).toEqual(
				release === '2.3.6'
					? [[PHONE_JID, 'on its way']]
					: [
							[PHONE_JID, 'on its way'],
							[LID, 'where is my order?'],
						],
			);
		});
	});

	test('the LID as the filter finds what the contact wrote, on every release', async () => {
		await withRelease(release, async (sandbox) => {
			await conversation(sandbox);
			const result = await runNode({
				parameters: { instance: 'demo', resource: 'message', operation: 'getMany', returnAll: true, filters: { remoteJid: LID } },
				credentials: credentials(sandbox),
			});
			expect(result.error).toBeUndefined();
			expect(sent(sandbox).map((request) => [request.status, request.body])).toEqual([[200, { where: { key: { remoteJid: LID, remoteJidAlt: LID } }, page: 1, offset: 50 }]]);
			expect(result.items.map((item) => item.json.key)).toEqual([{ remoteJid: LID, fromMe: false, id: '3AFROMTHELID', remoteJidAlt: PHONE_JID, addressingMode: 'lid' }]);
		});
	});
});

const NO_FILE_MESSAGE = '"Message ID" is the ID of a message without a file [item 0]';
const NO_FILE_HINT =
	"Download Media takes the ID of an image, video, audio, document or sticker message. This one is a text, or a message with no content (WhatsApp sends some that carry only context information). Check the trigger's messageType first: imageMessage, videoMessage, audioMessage, documentMessage or stickerMessage.";

describe.each(RELEASES)('Download Media of a message without a file (Evolution API %s)', (release) => {
	/** What the release answers a message with only messageContextInfo: 2.3.6 refuses it, later ones answer null. */
	const contextOnlyAnswer = release === '2.3.6' ? { status: 400, message: ['The message is messageContextInfo'] } : { status: 201, message: null };

	test.each([
		['a text message', { text: 'just words' }, { status: 400, message: ['The message is not of the media type'] }],
		['a message with only messageContextInfo', { contextInfoOnly: true }, contextOnlyAnswer],
	])('%s: the error names the field and the item and says what to do; nothing is output', async (_title, content, answer) => {
		await withRelease(release, async (sandbox) => {
			await sandbox.injectMessage('demo', { from: '5511988880000', id: '3ANOFILE', ...content });
			sandbox.clearRequests();
			const result = await runNode({
				parameters: { instance: 'demo', resource: 'message', operation: 'downloadMedia', messageId: '3ANOFILE' },
				credentials: credentials(sandbox),
			});
			expect(sent(sandbox)).toEqual([
				{ method: 'POST', path: '/chat/getBase64FromMediaMessage/demo', status: answer.status, body: { message: { key: { id: '3ANOFILE' } }, convertToMp4: false } },
			]);
			const response = sandbox.requests[0].response as { response?: { message?: unknown } } | null;
			expect(answer.message === null ? response : response?.response?.message).toEqual(answer.message);
			expect(result.items).toEqual([]);
			expect({ name: result.error?.name, message: result.error?.message, description: result.error?.description }).toEqual({
				name: 'NodeOperationError',
				message: NO_FILE_MESSAGE,
				description: NO_FILE_HINT,
			});
		});
	});

	test('with Continue On Fail, each item says it: the second of two items, a file message first', async () => {
		await withRelease(release, async (sandbox) => {
			const png = '89504e470d0a1a0a0000000d4948445200000001000000010806000000';
			await sandbox.injectMessage('demo', { from: '5511988880000', id: '3APHOTO', media: { kind: 'image', mimetype: 'image/png', base64: Buffer.from(png, 'hex').toString('base64') } });
			await sandbox.injectMessage('demo', { from: '5511988880000', id: '3ACONTEXT', contextInfoOnly: true });
			sandbox.clearRequests();
			const result = await runNode({
				parameters: { instance: 'demo', resource: 'message', operation: 'downloadMedia', messageId: '={{ $json.id }}' },
				items: [{ id: '3APHOTO' }, { id: '3ACONTEXT' }],
				continueOnFail: true,
				credentials: credentials(sandbox),
			});
			expect(result.error).toBeUndefined();
			expect(sent(sandbox).map((request) => [request.body, request.status])).toEqual([
				[{ message: { key: { id: '3APHOTO' } }, convertToMp4: false }, 201],
				[{ message: { key: { id: '3ACONTEXT' } }, convertToMp4: false }, contextOnlyAnswer.status],
			]);
			expect(result.items[0].binary?.data.mimeType).toBe('image/png');
			expect(result.items[1]).toEqual({ json: { error: NO_FILE_MESSAGE.replace('[item 0]', '[item 1]'), description: NO_FILE_HINT }, pairedItem: { item: 1 } });
		});
	});
});

describe.each(['2.3.7', '2.4.0'] as const)('the five sends that carry a message id: the output names the id (Evolution API %s)', (release) => {
	const TO = '5511977770000';
	const SENDS: Array<[string, Record<string, unknown>, string]> = [
		['Send Text', { operation: 'sendText', text: 'hi' }, '/message/sendText/demo'],
		['Send Media', { operation: 'sendMedia', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.png' }, '/message/sendMedia/demo'],
		['Send Video Note', { operation: 'sendVideoNote', mediaSource: 'url', mediaUrl: 'https://files.example.com/v.mp4' }, '/message/sendPtv/demo'],
		['Send Sticker', { operation: 'sendSticker', mediaSource: 'url', mediaUrl: 'https://files.example.com/s.webp' }, '/message/sendSticker/demo'],
		['Send Poll', { operation: 'sendPoll', name: 'Which day?', pollOptions: { option: [{ text: 'Mon' }, { text: 'Fri' }] } }, '/message/sendPoll/demo'],
	];

	test.each(SENDS)("%s: the node's id goes in the body; the output's messageId is the message's key.id (the node's on 2.4, the server's own on 2.3.7)", async (_name, parameters, path) => {
		await withRelease(release, async (sandbox) => {
			const result = await runNode({ parameters: { instance: 'demo', resource: 'message', number: TO, ...parameters }, credentials: credentials(sandbox) });
			expect(result.error).toBeUndefined();
			const requests = sent(sandbox);
			expect(requests.map((request) => [request.path, request.status])).toEqual([[path, 201]]);
			const chosen = (requests[0].body as { messageId?: unknown }).messageId;
			expect(chosen).toMatch(/^3EB0[0-9A-F]{18}$/);
			const json = result.items[0].json as { key: { id: string }; messageId: string };
			expect(json.messageId).toBe(json.key.id);
			if (release === '2.4.0') expect(json.messageId).toBe(chosen);
			else expect(json.messageId).not.toBe(chosen);
			// the stored message has that id
			expect(sandbox.chat.filter((entry) => entry.direction === 'out').map((entry) => entry.messageId)).toEqual([json.messageId]);
		});
	});
});
