import { createHash } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MESSAGE_IDS, runNode } from '../harness/engine';
import { expectNoSecrets, INSTANCE, secretOf, setup, TOKEN, type Setup } from './helpers';

/**
 * Contacts known by LID: the same message as each server version delivers it. 2.3.6 puts the
 * LID in `remoteJid` and the phone JID in `remoteJidAlt`; 2.3.7 writes the phone JID into
 * both; 2.4 swaps them. Groups carry the author as `participant`/`participantAlt` in either
 * order. The deliveries are written by hand, shaped as those servers send them.
 */

const PHONE = '5511999990000@s.whatsapp.net';
const LID = '104857600123456@lid';
const GROUP = '120363025246125486@g.us';
const GROUP_AUTHOR_PHONE = '5511988887777@s.whatsapp.net';
const GROUP_AUTHOR_LID = '209715200654321@lid';

interface Shape {
	name: string;
	key: IDataObject;
	chatId: string;
	sender: string;
	senderLid: string | null;
	isGroup: boolean;
}

const DIRECT: Shape[] = [
	{ name: '2.3.6 direct', key: { remoteJid: LID, remoteJidAlt: PHONE, addressingMode: 'lid' }, chatId: PHONE, sender: PHONE, senderLid: LID, isGroup: false },
	{ name: '2.3.7 direct', key: { remoteJid: PHONE, remoteJidAlt: PHONE, addressingMode: 'lid' }, chatId: PHONE, sender: PHONE, senderLid: null, isGroup: false },
	{ name: '2.4 direct', key: { remoteJid: PHONE, remoteJidAlt: LID, addressingMode: 'pn' }, chatId: PHONE, sender: PHONE, senderLid: LID, isGroup: false },
	{ name: 'LID-only direct', key: { remoteJid: LID }, chatId: LID, sender: LID, senderLid: LID, isGroup: false },
];

const GROUPS: Shape[] = [
	{
		name: 'group, LID addressing',
		key: { remoteJid: GROUP, participant: GROUP_AUTHOR_LID, participantAlt: GROUP_AUTHOR_PHONE, addressingMode: 'lid' },
		chatId: GROUP,
		sender: GROUP_AUTHOR_PHONE,
		senderLid: GROUP_AUTHOR_LID,
		isGroup: true,
	},
	{
		name: 'group, phone addressing',
		key: { remoteJid: GROUP, participant: GROUP_AUTHOR_PHONE, participantAlt: GROUP_AUTHOR_LID, addressingMode: 'pn' },
		chatId: GROUP,
		sender: GROUP_AUTHOR_PHONE,
		senderLid: GROUP_AUTHOR_LID,
		isGroup: true,
	},
	{
		name: 'LID-only group author',
		key: { remoteJid: GROUP, participant: GROUP_AUTHOR_LID },
		chatId: GROUP,
		sender: GROUP_AUTHOR_LID,
		senderLid: GROUP_AUTHOR_LID,
		isGroup: true,
	},
];

const SHAPES = [...DIRECT, ...GROUPS];

/** A message's dedupe key as it has always been made: SHA-256 of instance, event, chat, direction and id. */
function expectedDedupeKey(chat: string, fromMe: boolean, id: string): string {
	return createHash('sha256').update(JSON.stringify(['message', INSTANCE, 'MESSAGES_UPSERT', chat, fromMe, id])).digest('base64url');
}

function bodyOf(s: Setup, key: IDataObject, text: string): string {
	return JSON.stringify({
		event: 'messages.upsert',
		instance: INSTANCE,
		data: {
			key,
			pushName: 'Ana',
			message: { conversation: text },
			messageType: 'conversation',
			messageTimestamp: 1_763_790_000,
		},
		destination: s.harness.productionUrl(),
		date_time: '2025-11-22T05:40:00.000Z',
		sender: '5511900000000@s.whatsapp.net',
		server_url: s.sandbox.url,
		apikey: TOKEN,
	});
}

describe('trigger: contacts known by LID, as each server version delivers them', () => {
	let s: Setup;
	const start = async (parameters: INodeParameters = {}): Promise<Setup> => {
		s = await setup('v2', parameters);
		await s.harness.activate();
		return s;
	};
	afterEach(async () => {
		await s.close();
	});
	const deliver = async (key: IDataObject, text: string) =>
		await s.harness.post('production', bodyOf(s, key, text), { query: { secret: secretOf(s) } });

	it('emits chatId, sender, senderLid and remoteJid for every shape, direct and group', async () => {
		const { harness } = await start({ options: { ignoreGroups: false } });
		for (const [index, shape] of SHAPES.entries()) {
			const answer = await deliver({ ...shape.key, fromMe: false, id: `LID-${index}` }, shape.name);
			expect(answer).toMatchObject({ status: 200, body: { received: true } });
		}
		expect(harness.emitted.map((item) => item.json)).toEqual(
			SHAPES.map((shape, index) =>
				expect.objectContaining({
					text: shape.name,
					chatId: shape.chatId,
					sender: shape.sender,
					senderLid: shape.senderLid,
					remoteJid: shape.key.remoteJid,
					isGroup: shape.isGroup,
					fromMe: false,
					messageId: `LID-${index}`,
					dedupeKey: expectedDedupeKey(shape.chatId, false, `LID-${index}`),
				}),
			),
		);
		// The raw event keeps the key exactly as delivered.
		expect(harness.emitted.map((item) => (item.json.raw as { data: { key: IDataObject } }).data.key)).toEqual(
			SHAPES.map((shape, index) => ({ ...shape.key, fromMe: false, id: `LID-${index}` })),
		);
		expectNoSecrets(harness.emitted, [secretOf(s), s.sandbox.apiKey, TOKEN]);
	});

	it('ignores own messages and group chats in every shape', async () => {
		const { harness } = await start({ options: { ignoreOwnMessages: true, ignoreGroups: true } });
		const answers: unknown[] = [];
		for (const [index, shape] of SHAPES.entries()) {
			answers.push((await deliver({ ...shape.key, fromMe: true, id: `OWN-${index}` }, `own ${shape.name}`)).body);
			answers.push((await deliver({ ...shape.key, fromMe: false, id: `IN-${index}` }, shape.name)).body);
		}
		expect(answers).toEqual(
			SHAPES.flatMap((shape) => [
				{ received: true, ignored: 'own message' },
				shape.isGroup ? { received: true, ignored: 'group chat' } : { received: true },
			]),
		);
		expect(harness.emitted.map((item) => item.json.text)).toEqual(DIRECT.map((shape) => shape.name));
	});

	it('emits own messages in every direct shape when Ignore Own Messages is off, addressed to the contact', async () => {
		const { harness } = await start({ options: { ignoreOwnMessages: false } });
		for (const [index, shape] of DIRECT.entries()) await deliver({ ...shape.key, fromMe: true, id: `MINE-${index}` }, shape.name);
		expect(harness.emitted.map((item) => [item.json.chatId, item.json.fromMe, item.json.dedupeKey])).toEqual(
			DIRECT.map((shape, index) => [shape.chatId, true, expectedDedupeKey(shape.chatId, true, `MINE-${index}`)]),
		);
	});

	it('emits a message once whichever shape each copy of it comes in', async () => {
		const { harness } = await start({ options: { ignoreGroups: false } });
		const direct = [DIRECT[0], DIRECT[2], DIRECT[1]];
		const answers: unknown[] = [];
		for (const shape of direct) answers.push((await deliver({ ...shape.key, fromMe: false, id: 'SAME-DIRECT' }, shape.name)).body);
		for (const shape of GROUPS.slice(0, 2)) answers.push((await deliver({ ...shape.key, fromMe: false, id: 'SAME-GROUP' }, shape.name)).body);
		// A plain delivery without any LID field, as servers before LIDs sent it: the same message.
		answers.push((await deliver({ remoteJid: PHONE, fromMe: false, id: 'SAME-DIRECT' }, 'plain')).body);
		const duplicate = { received: true, ignored: 'duplicate' };
		expect(answers).toEqual([{ received: true }, duplicate, duplicate, { received: true }, duplicate, duplicate]);
		expect(harness.emitted.map((item) => [item.json.text, item.json.dedupeKey])).toEqual([
			['2.3.6 direct', expectedDedupeKey(PHONE, false, 'SAME-DIRECT')],
			['group, LID addressing', expectedDedupeKey(GROUP, false, 'SAME-GROUP')],
		]);
	});

	it("the README's echo recipe (Send Text to {{ $json.chatId }}) replies to the person's phone JID in every shape that carries one", async () => {
		const { sandbox, harness } = await start({ options: { ignoreGroups: false } });
		// The LID-only contact is left out: its chatId is the LID, which this sandbox does not accept as a recipient yet.
		const replied = SHAPES.filter((shape) => shape.chatId !== LID);
		for (const [index, shape] of replied.entries()) await deliver({ ...shape.key, fromMe: false, id: `ECHO-${index}` }, shape.name);
		expect(harness.emitted).toHaveLength(replied.length);
		sandbox.clearRequests();
		const reply = await runNode({
			parameters: { instance: INSTANCE, resource: 'message', operation: 'sendText', number: '={{ $json.chatId }}', text: '=You said: {{ $json.text }}' },
			items: harness.emitted.map((item) => item.json),
			credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' },
		});
		expect(reply.error).toBeUndefined();
		expect(sandbox.requests.map(({ method, path, body, status }) => ({ method, path, body, status }))).toEqual(
			replied.map((shape, index) => ({
				method: 'POST',
				path: `/message/sendText/${INSTANCE}`,
				body: { number: shape.chatId, text: `You said: ${shape.name}`, messageId: MESSAGE_IDS[index] },
				status: 201,
			})),
		);
		// Each of the three server versions' direct shapes gets the reply at the contact's phone JID.
		const direct = sandbox.requests.slice(0, 3).map((request) => (request.body as IDataObject).number);
		expect(direct).toEqual([PHONE, PHONE, PHONE]);
	});
});

describe.each(['2.3.6', '2.3.7', '2.4.0'] as const)('trigger on a server playing Evolution API %s: registered, delivered to, with that release\'s headers and keys', (release) => {
	let s: Setup;
	afterEach(async () => {
		await s.close();
	});

	it('the trigger registers with Set Webhook, the release delivers a LID contact\'s message with its headers, the item has the phone JID as chatId; the same delivery again is a duplicate', async () => {
		s = await setup('v2', {}, 1, { version: release, licensed: true });
		await s.harness.activate();
		const registered = s.sandbox.requests.filter((request) => request.path === `/webhook/set/${INSTANCE}`);
		expect(registered.map((request) => request.status)).toEqual([201]);
		const delivery = await s.sandbox.injectMessage(INSTANCE, { from: PHONE, lid: LID, text: `hi from ${release}`, id: `REL-${release}` });
		expect(delivery?.attempts).toEqual([{ status: 200, responseBody: JSON.stringify({ received: true }) }]);
		// 2.4 adds its own headers to the delivery; the trigger takes it all the same
		const added = ['x-instance-id', 'x-instance-name', 'x-event-type', 'x-timestamp'].filter((name) => Object.keys(delivery?.headers ?? {}).some((header) => header.toLowerCase() === name));
		expect(added).toEqual(release === '2.4.0' ? ['x-instance-id', 'x-instance-name', 'x-event-type', 'x-timestamp'] : []);
		expect(s.harness.emitted).toHaveLength(1);
		const item = s.harness.emitted[0].json;
		expect({ chatId: item.chatId, sender: item.sender, senderLid: item.senderLid, remoteJid: item.remoteJid, text: item.text }).toEqual({
			chatId: PHONE,
			sender: PHONE,
			senderLid: release === '2.3.7' ? null : LID,
			remoteJid: release === '2.3.6' ? LID : PHONE,
			text: `hi from ${release}`,
		});
		const again = await s.sandbox.redeliver(delivery!);
		expect(again.attempts.at(-1)?.responseBody).toMatch(/duplicate/);
		expect(s.harness.emitted).toHaveLength(1);
		expectNoSecrets(s.harness.emitted, [secretOf(s), s.sandbox.apiKey, TOKEN]);
	});
});
