import { randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { storedMessageOf } from '../../nodes/shared/chatHistory';
import { SERVER_VERSIONS, type ServerVersion } from '../../sandbox/versions';
import { run } from '../nodes/helpers';
import { INSTANCE, setup, type Setup } from './helpers';

/**
 * Who wrote it (`sentBy`), per server release: the trigger's items for the contact, the
 * account's owner on the phone and on WhatsApp Web, and an API send; the same messages as the
 * chat's stored history tells them (the rule Collect Burst's silence and the chat memory read).
 * And a voice note's transcription as the item's text, where the server made one.
 */
const CONTACT = '5511988880000';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
const CONTACT_LID = '204381957620000@lid';
const GROUP = '120363000000000099@g.us';
const OGG = Buffer.from('OggS sandbox voice note').toString('base64');

/** An id as WhatsApp Web makes one: `3EB0` and 18 hex digits, like an API send's. */
const webId = (): string => '3EB0' + randomBytes(9).toString('hex').toUpperCase();
/** An id as the iPhone app makes one. */
const phoneId = (): string => '3A' + randomBytes(9).toString('hex').toUpperCase();

async function api(s: Setup, path: string, body: IDataObject): Promise<IDataObject> {
	const answer = await fetch(`${s.sandbox.url}${path}`, { method: 'POST', headers: { apikey: s.sandbox.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
	expect(answer.status).toBeLessThan(300);
	return (await answer.json()) as IDataObject;
}

/** The chat's stored messages as Find Messages answers them, read as every node reads them: message id → sentBy. */
async function storedSentBy(s: Setup, jid: string): Promise<Record<string, string>> {
	const answer = await api(s, `/chat/findMessages/${INSTANCE}`, { where: { key: { remoteJid: jid } }, page: 1, offset: 50 });
	const records = (answer.messages as { records: unknown[] }).records;
	return Object.fromEntries(records.map(storedMessageOf).map((message) => [message?.messageId, message?.sentBy]));
}

/** Turns on the server's OpenAI speech-to-text for the instance (credentials, then default settings). */
async function transcribeVoiceNotes(s: Setup): Promise<void> {
	const creds = await api(s, `/openai/creds/${INSTANCE}`, { name: 'whisper', apiKey: 'sk-sandbox-transcription-key' });
	await api(s, `/openai/settings/${INSTANCE}`, {
		openaiCredsId: creds.id as string,
		expire: 0,
		keywordFinish: 'bye',
		delayMessage: 1000,
		unknownMessage: 'sorry',
		listeningFromMe: false,
		stopBotFromMe: false,
		keepOpen: false,
		debounceTime: 0,
		ignoreJids: [],
		speechToText: true,
	});
}

describe.each<ServerVersion>([...SERVER_VERSIONS])('who wrote it, on %s', (version) => {
	let s: Setup;
	beforeEach(async () => {
		s = await setup('v2', { events: ['MESSAGES_UPSERT', 'SEND_MESSAGE'], options: { ignoreOwnMessages: false, ignoreGroups: false } }, 1, { version, licensed: true });
		await s.harness.activate();
	});
	afterEach(async () => await s.close());

	test('the contact, a person on the phone or WhatsApp Web, and the workflow each get their sentBy', async () => {
		const onPhone = phoneId();
		const onWeb = webId();
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: 'CONTACT1', text: 'is my order ready?' });
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: onPhone, text: 'let me check', fromMe: true });
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: onWeb, text: 'it is ready', fromMe: true });
		const send = await run(s.sandbox, { resource: 'message', operation: 'sendText', number: CONTACT, text: 'Your order is ready (bot)' });
		expect(send.error).toBeUndefined();
		await s.sandbox.settled();
		const sentId = (send.items[0].json.key as IDataObject).id as string;

		expect(s.harness.emitted.map((item) => [item.json.event, item.json.messageId, item.json.fromMe, item.json.sentBy])).toEqual([
			['messages.upsert', 'CONTACT1', false, 'contact'],
			// The server's API sends never come back as upserts (Baileys' emitOwnEvents is off): a fromMe upsert is a person's.
			['messages.upsert', onPhone, true, 'person'],
			['messages.upsert', onWeb, true, 'person'],
			['send.message', sentId, true, 'automation'],
		]);

		// In the stored history the send and the WhatsApp Web message both have source "web": only the package's own ids (2.4) tell.
		expect(await storedSentBy(s, CONTACT_JID)).toEqual({
			CONTACT1: 'contact',
			[onPhone]: 'person',
			[onWeb]: 'unknown',
			[sentId]: version === '2.4.0' ? 'automation' : 'unknown',
		});
		expect(sentId).toMatch(/^3EB0[0-9A-F]{18}$/);
	});

	test('in a group and from a contact known by LID', async () => {
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: 'GROUP1', text: 'hi all', group: GROUP, pushName: 'Ana' });
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: phoneId(), text: 'welcome', group: GROUP, fromMe: true });
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, lid: CONTACT_LID, id: 'LID1', text: 'hello from a LID contact' });
		expect(s.harness.emitted.map((item) => [item.json.text, item.json.isGroup, item.json.sentBy])).toEqual([
			['hi all', true, 'contact'],
			['welcome', true, 'person'],
			['hello from a LID contact', false, 'contact'],
		]);
		expect(Object.values(await storedSentBy(s, GROUP))).toEqual(['person', 'contact']);
	});

	test("a voice note's text is the server's transcription, where its speech-to-text is on; the file stays", async () => {
		const voice = { kind: 'audio' as const, mimetype: 'audio/ogg; codecs=opus', base64: OGG };
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: 'VOICE1', media: { ...voice, transcript: 'not transcribed' } });
		await transcribeVoiceNotes(s);
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: 'VOICE2', media: { ...voice, transcript: 'Can I pick it up at five?' } });
		await s.sandbox.injectMessage(INSTANCE, { from: CONTACT, id: 'TEXT1', text: 'thanks' });

		expect(s.harness.emitted.map((item) => [item.json.messageId, item.json.text, item.json.textFrom, (item.json.media as IDataObject | undefined)?.kind])).toEqual([
			['VOICE1', '', 'message', 'audio'],
			['VOICE2', 'Can I pick it up at five?', 'transcription', 'audio'],
			['TEXT1', 'thanks', 'message', undefined],
		]);
		expect(s.harness.emitted[1].binary?.data?.mimeType).toBe('audio/ogg');
	});
});
