import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import type { ServerVersion } from '../../sandbox/versions';
import { testCredential } from '../harness/credentialTest';
import { MESSAGE_IDS } from '../harness/engine';
import { run, sent, useSandbox } from './helpers';

/**
 * The operations of Evolution API 2.4 and the fields added to older ones, against the sandbox
 * playing a release: the exact request of each, as the 2.4.0-rc2 schemas read it, what came
 * back, and the checks that stop an item before sending. The credential leaves Server Version
 * at Detect Automatically unless a test says otherwise: the node asks the sandbox's `GET /`.
 */

const ON_2_4 = {};

/** A v2 sandbox playing this release for the enclosing describe block. */
function useRelease(version: ServerVersion, licensed = true): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeAll(async () => {
		holder.current = await startSandbox({ dialect: 'v2', version, licensed, instances: [{ name: 'demo', token: 'demo-token' }] });
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => holder.current.clearRequests());
	return holder;
}
const GROUP = '120363000000000001@g.us';
const picked = (value: string) => ({ __rl: true, mode: 'list', value });
const CHAT = '5511988880000@s.whatsapp.net';

const button = (type: string, fields: IDataObject) => ({ type, displayText: `${type} it`, ...fields });

describe('2.4 operations send what the 2.4 server reads', () => {
	const sandbox = useRelease('2.4.0');
	beforeAll(() => sandbox.current.addGroup('demo', { id: GROUP, subject: 'Team', participants: ['5511988880000'] }));

	test('Send Carousel: cards with each button type, options after the cards', async () => {
		const result = await run(
			sandbox.current,
			{
				resource: 'message',
				operation: 'sendCarousel',
				number: '+55 11 98888-0000',
				body: 'Our menu',
				cards: {
					card: [
						{
							body: 'Pizza',
							footer: 'from 10 €',
							imageUrl: 'https://files.example.com/pizza.jpg',
							buttons: { button: [button('reply', { id: 'pizza' }), button('url', { url: 'https://example.com/pizza' })] },
						},
						{ body: 'Pasta', footer: '', imageUrl: '', buttons: { button: [button('call', { phoneNumber: '+5511999990000' }), button('copy', { copyCode: 'PASTA10' })] } },
					],
				},
				options: { delay: 0, quotedMessageId: '3EB0Q' },
			},
			ON_2_4,
		);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{
				method: 'POST',
				path: '/message/sendCarousel/demo',
				status: 201,
				body: {
					number: '5511988880000',
					body: 'Our menu',
					cards: [
						{
							body: 'Pizza',
							footer: 'from 10 €',
							imageUrl: 'https://files.example.com/pizza.jpg',
							buttons: [
								{ type: 'reply', displayText: 'reply it', id: 'pizza' },
								{ type: 'url', displayText: 'url it', url: 'https://example.com/pizza' },
							],
						},
						{
							body: 'Pasta',
							buttons: [
								{ type: 'call', displayText: 'call it', phoneNumber: '+5511999990000' },
								{ type: 'copy', displayText: 'copy it', copyCode: 'PASTA10' },
							],
						},
					],
					delay: 0,
					quoted: { key: { id: '3EB0Q' } },
				},
			},
		]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ key: { remoteJid: CHAT, fromMe: true } });
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('Mark as Played: a phone number becomes its phone JID', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'markAsPlayed', remoteJid: '5511988880000', messageId: '3EB0AUDIO', fromMe: false }, ON_2_4);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/markMessageAsPlayed/demo', status: 201, body: { playedMessages: [{ remoteJid: CHAT, fromMe: false, id: '3EB0AUDIO' }] } },
		]);
		expect(result.items.map((item) => item.json)).toEqual([{ message: 'Played messages', played: 'success' }]);
	});

	test('Get Poll Votes: the poll Send Poll sent, counted per option', async () => {
		const poll = await run(sandbox.current, { resource: 'message', operation: 'sendPoll', number: '5511988880000', name: 'Which day?', pollOptions: { option: [{ text: 'Mon' }, { text: 'Fri' }] } });
		const id = (poll.items[0].json.key as IDataObject).id as string;
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'message', operation: 'getPollVotes', remoteJid: CHAT, messageId: id }, ON_2_4);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/getPollVote/demo', status: 200, body: { message: { key: { id } }, remoteJid: CHAT } }]);
		expect(result.items.map((item) => item.json)).toEqual([
			{ poll: { name: 'Which day?', totalVotes: 0, results: { Mon: { votes: 0, voters: [] }, Fri: { votes: 0, voters: [] } } } },
		]);
	});

	test('Get Many Channels: pages of `limit` until Limit, one item per channel', async () => {
		for (let n = 0; n < 3; n++) await sandbox.current.injectMessage('demo', { from: `12036300000000${n}@newsletter`, text: `news ${n}` });
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'chat', operation: 'getManyChannels', limit: 2 }, ON_2_4);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/findChannels/demo', status: 200, body: { page: 1, limit: 2 } }]);
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		for (const item of result.items) expect(item.json).toEqual({ remoteJid: expect.stringMatching(/@newsletter$/), lastMessageTimestamp: expect.any(Number) });

		sandbox.current.clearRequests();
		const all = await run(sandbox.current, { resource: 'chat', operation: 'getManyChannels', returnAll: true }, ON_2_4);
		expect(all.items).toHaveLength(3);
		expect(sent(sandbox.current).map((request) => request.body)).toEqual([{ page: 1, limit: 50 }]);
	});

	test('Update Member Add Mode: the group in the query and the body, with the mode', async () => {
		const result = await run(sandbox.current, { resource: 'group', operation: 'updateMemberAddMode', groupJid: picked(GROUP), mode: 'all_member_add' }, ON_2_4);
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
			{ method: 'POST', path: '/group/updateMemberAddMode/demo', query: { groupJid: GROUP }, body: { groupJid: GROUP, mode: 'all_member_add' } },
		]);
		expect(result.items.map((item) => item.json)).toEqual([{ update: 'success', mode: 'all_member_add' }]);
	});
});

describe('fields added to older operations', () => {
	const sandbox = useSandbox('v2');
	beforeEach(async () => {
		await sandbox.current.injectMessage('demo', { from: '5511988880000', id: '3EB0LAST', text: 'hello' });
		sandbox.current.clearRequests();
	});

	const unread = { resource: 'chat', operation: 'markUnread', chat: CHAT, messageId: '3EB0LAST', fromMe: false };

	test('Mark as Unread sends the last message\'s timestamp in seconds when given, and nothing when left at 0', async () => {
		const withTime = await run(sandbox.current, { ...unread, messageTimestamp: 1763900000 });
		expect(withTime.error).toBeUndefined();
		const fresh = await run(sandbox.current, unread);
		expect(fresh.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/markChatUnread/demo', status: 201, body: { lastMessage: { key: { remoteJid: CHAT, fromMe: false, id: '3EB0LAST' }, messageTimestamp: 1763900000 }, chat: CHAT } },
			{ method: 'POST', path: '/chat/markChatUnread/demo', status: 201, body: { lastMessage: { key: { remoteJid: CHAT, fromMe: false, id: '3EB0LAST' } }, chat: CHAT } },
		]);
	});

	test('Contact → Get Many never sends an empty contact filter (2.3.7 refuses `where.remoteJid: ""`)', async () => {
		const result = await run(sandbox.current, { resource: 'contact', operation: 'getMany', limit: 5, filters: { remoteJid: '  ' } });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/findContacts/demo', status: 200, body: { where: {}, page: 1, offset: 5 } }]);
		expect(result.items.length).toBeGreaterThan(0);
	});

	test('Send Text sends Mention Everyone as the boolean `mentionsEveryOne` every version\'s send service reads', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '5511988880000', text: 'all', options: { mentionsEveryOne: true } });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/message/sendText/demo', status: 201, body: { number: '5511988880000', text: 'all', mentionsEveryOne: true, messageId: MESSAGE_IDS[0] } }]);
	});

	test('Instance → Create sends the Call Rejected Message with the settings', async () => {
		const result = await run(sandbox.current, {
			resource: 'instance',
			operation: 'create',
			instanceName: 'calls',
			integration: 'WHATSAPP-BAILEYS',
			qrcode: false,
			options: { rejectCall: true, msgCall: 'Please write instead' },
		});
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{
				method: 'POST',
				path: '/instance/create',
				status: 201,
				body: { instanceName: 'calls', integration: 'WHATSAPP-BAILEYS', qrcode: false, rejectCall: true, msgCall: 'Please write instead' },
			},
		]);
	});

	test('Send Media sends GIF Playback for a video', async () => {
		const result = await run(sandbox.current, {
			resource: 'message',
			operation: 'sendMedia',
			number: '5511988880000',
			mediaType: 'video',
			mediaSource: 'url',
			mediaUrl: 'https://files.example.com/dance.mp4',
			options: { gifPlayback: true },
		});
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{
				method: 'POST',
				path: '/message/sendMedia/demo',
				status: 201,
				body: { number: '5511988880000', mediatype: 'video', mimetype: 'video/mp4', media: 'https://files.example.com/dance.mp4', fileName: 'dance.mp4', gifPlayback: true, messageId: MESSAGE_IDS[0] },
			},
		]);
	});
});

describe('checks before sending, naming field and item', () => {
	const sandbox = useRelease('2.4.0');

	const cases: Array<{ title: string; parameters: INodeParameters; message: string }> = [
		{ title: 'a carousel without cards', parameters: { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: {} }, message: '"Cards" needs at least one card [item 0]' },
		{
			title: 'eleven cards',
			parameters: { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: { card: Array.from({ length: 11 }, () => ({ body: 'x', buttons: { button: [button('reply', { id: 'a' })] } })) } },
			message: '"Cards" has 11 cards; the server accepts at most 10 [item 0]',
		},
		{
			title: 'a card without buttons',
			parameters: { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: { card: [{ body: 'Pizza' }] } },
			message: '"Cards: card 1 buttons" needs at least one button [item 0]',
		},
		{
			title: 'four buttons on a card',
			parameters: { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: { card: [{ body: 'Pizza', buttons: { button: [1, 2, 3, 4].map((n) => button('reply', { id: `b${n}` })) } }] } },
			message: '"Cards: card 1 buttons" has 4 buttons; the server accepts at most 3 per card [item 0]',
		},
		{
			title: 'a URL button without its address',
			parameters: { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: { card: [{ body: 'Pizza', buttons: { button: [button('url', {})] } }] } },
			message: '"Cards: card 1, button 1 URL" is required for a url button [item 0]',
		},
		{
			title: 'a card with a blank body',
			parameters: { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: { card: [{ body: '  ', buttons: { button: [button('reply', { id: 'a' })] } }] } },
			message: '"Cards: card 1 body" is required [item 0]',
		},
		{
			title: 'a played mark on a LID chat (the server would skip it silently)',
			parameters: { resource: 'message', operation: 'markAsPlayed', remoteJid: '123456789012345@lid', messageId: '3EB0', fromMe: false },
			message: '"Chat (Remote JID)" must be a phone JID (…@s.whatsapp.net) or a group (…@g.us) [item 0]',
		},
		{
			title: 'a poll without its message ID',
			parameters: { resource: 'message', operation: 'getPollVotes', remoteJid: CHAT, messageId: ' ' },
			message: '"Message ID" is required [item 0]',
		},
		{
			title: 'a member add mode the server does not know',
			parameters: { resource: 'group', operation: 'updateMemberAddMode', groupJid: picked(GROUP), mode: 'everyone' },
			message: '"Who Can Add Members" must be one of "admin_add", "all_member_add", not "everyone" [item 0]',
		},
		{
			title: 'an unread timestamp in milliseconds',
			parameters: { resource: 'chat', operation: 'markUnread', chat: CHAT, messageId: '3EB0', fromMe: false, messageTimestamp: 1763900000000 },
			message: '"Last Message Timestamp" must be in seconds, not milliseconds [item 0]',
		},
		{
			title: 'GIF Playback for an image',
			parameters: { resource: 'message', operation: 'sendMedia', number: '5511988880000', mediaType: 'image', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.png', options: { gifPlayback: true } },
			message: '"Options: GIF Playback" needs a video, not an image [item 0]',
		},
	];

	test.each(cases)('$title', async ({ parameters, message }) => {
		const result = await run(sandbox.current, parameters, ON_2_4);
		expect(result.error?.message).toBe(message);
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('the same operations on a 2.3.x server', () => {
	const sandbox = useRelease('2.3.7');

	test.each([
		['Message → Send Carousel', { resource: 'message', operation: 'sendCarousel', number: '5511988880000', body: 'Menu', cards: { card: [{ body: 'Pizza', buttons: { button: [button('reply', { id: 'a' })] } }] } }],
		['Message → Mark as Played', { resource: 'message', operation: 'markAsPlayed', remoteJid: CHAT, messageId: '3EB0', fromMe: false }],
		['Message → Get Poll Votes', { resource: 'message', operation: 'getPollVotes', remoteJid: CHAT, messageId: '3EB0' }],
		['Chat → Get Many Channels', { resource: 'chat', operation: 'getManyChannels', limit: 5 }],
		['Group → Update Member Add Mode', { resource: 'group', operation: 'updateMemberAddMode', groupJid: picked(GROUP), mode: 'admin_add' }],
	] as Array<[string, INodeParameters]>)('%s is refused before sending, naming the version it needs', async (name, parameters) => {
		const result = await run(sandbox.current, parameters);
		expect(result.error?.message).toBe(`${name} needs Evolution API 2.4 or newer; this server is 2.3.7 [item 0]`);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('with the version wrongly fixed at 2.4.x, the server\'s 404 is told as the version it needs', async () => {
		const result = await run(sandbox.current, { resource: 'chat', operation: 'getManyChannels', limit: 5 }, { credentials: { serverVersion: '2.4.0' } });
		expect(result.error?.message).toBe('Chat → Get Many Channels needs Evolution API 2.4 or newer: the server does not know its route (HTTP 404)');
		// The sandbox does not read the body of a route it does not serve.
		expect(sent(sandbox.current).map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'POST', path: '/chat/findChannels/demo', status: 404 }]);
	});

	test('Set Webhook with a 2.4-only event is refused; the usual events go through', async () => {
		const webhook = { resource: 'webhook', operation: 'set', url: 'https://n8n.example.com/webhook/x', events: ['MESSAGES_UPSERT', 'MESSAGING_HISTORY_SET'] };
		const refused = await run(sandbox.current, webhook);
		expect(refused.error?.message).toBe('"Events" MESSAGING_HISTORY_SET not accepted by a v2.3.7 server [item 0]');
		expect(sandbox.current.requests).toEqual([]);
		const accepted = await run(sandbox.current, { ...webhook, events: ['MESSAGES_UPSERT'] });
		expect(accepted.error).toBeUndefined();
		expect(sent(sandbox.current).map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/webhook/set/demo', status: 201 }]);
	});
});

describe('a 2.4 server that is not activated', () => {
	const sandbox = useRelease('2.4.0', false);

	test('a send fails with what is missing, the register address the server gives and how to activate', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '5511988880000', text: 'hi' }, { continueOnFail: true });
		const registerUrl = (sandbox.current.requests[0].response as { register_url: string }).register_url;
		expect(registerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/manager\/login$/);
		expect(result.items).toEqual([
			{
				json: {
					error: 'The server is not activated: Evolution API 2.4 needs a licence before it serves any request (HTTP 503 LICENSE_REQUIRED)',
					description: `To activate the server, open ${registerUrl} and activate it there, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Nothing was sent.`,
					httpCode: '503',
				},
				pairedItem: { item: 0 },
			},
		]);
		// The gate answers before the body is read.
		expect(sent(sandbox.current).map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'POST', path: '/message/sendText/demo', status: 503 }]);
	});

	test('the credential test says the same', async () => {
		const result = await testCredential({ baseUrl: sandbox.current.url, apiKey: sandbox.current.apiKey, dialect: 'v2' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/until it is activated \(LICENSE_REQUIRED\): open the server's \/manager\/login page/);
		expect(result.message).toMatch(/valid licensing key as AUTHENTICATION_API_KEY/);
		expect(sent(sandbox.current).map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/instance/fetchInstances', status: 503 }]);
	});
});
