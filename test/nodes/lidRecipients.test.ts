import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { runNode } from '../harness/engine';

/**
 * Every recipient field of the action node takes a contact's `…@lid` JID as typed, and each
 * release of the server accepts it (its numbers check counts a LID as existing). A field
 * that turned the LID into digits would address `<digits>@s.whatsapp.net`, which has no
 * account: each case checks the LID reached the server whole, and the server said yes.
 */

const LID = '123456789012345@lid';
const GROUP = '120363000000000055@g.us';
const KEY = { remoteJid: LID, messageId: '3AFROMLID0001', fromMe: false };

interface Case {
	parameters: INodeParameters;
	path: string;
	/** where the LID is in the body (or the query) the node sent */
	lidAt: (request: { body: any; query: Record<string, string> }) => unknown;
}

const CASES: Record<string, Case> = {
	'Send Text': { parameters: { resource: 'message', operation: 'sendText', number: LID, text: 'hi' }, path: '/message/sendText/demo', lidAt: ({ body }) => body.number },
	'Send Media': {
		parameters: { resource: 'message', operation: 'sendMedia', number: LID, mediaSource: 'url', mediaUrl: 'https://files.example.com/a.png' },
		path: '/message/sendMedia/demo',
		lidAt: ({ body }) => body.number,
	},
	'Send Audio': { parameters: { resource: 'message', operation: 'sendAudio', number: LID, mediaSource: 'url', mediaUrl: 'https://files.example.com/a.ogg' }, path: '/message/sendWhatsAppAudio/demo', lidAt: ({ body }) => body.number },
	'Send Sticker': { parameters: { resource: 'message', operation: 'sendSticker', number: LID, mediaSource: 'url', mediaUrl: 'https://files.example.com/s.webp' }, path: '/message/sendSticker/demo', lidAt: ({ body }) => body.number },
	'Send Video Note': { parameters: { resource: 'message', operation: 'sendVideoNote', number: LID, mediaSource: 'url', mediaUrl: 'https://files.example.com/v.mp4' }, path: '/message/sendPtv/demo', lidAt: ({ body }) => body.number },
	'Send Contact': {
		parameters: { resource: 'message', operation: 'sendContact', number: LID, contacts: { contact: [{ fullName: 'Ana Lima', phoneNumber: '+55 11 98888-0000' }] } },
		path: '/message/sendContact/demo',
		lidAt: ({ body }) => body.number,
	},
	'Send Poll': {
		parameters: { resource: 'message', operation: 'sendPoll', number: LID, name: 'Which day?', pollOptions: { option: [{ text: 'Mon' }, { text: 'Fri' }] } },
		path: '/message/sendPoll/demo',
		lidAt: ({ body }) => body.number,
	},
	'Send List': {
		parameters: {
			resource: 'message',
			operation: 'sendList',
			number: LID,
			title: 'T',
			description: 'D',
			buttonText: 'B',
			footerText: 'F',
			sections: { section: [{ title: 'S', rows: { row: [{ title: 'R', description: 'd', rowId: '1' }] } }] },
		},
		path: '/message/sendList/demo',
		lidAt: ({ body }) => body.number,
	},
	'Send Buttons': {
		parameters: { resource: 'message', operation: 'sendButtons', number: LID, title: 'T', description: 'D', footer: 'F', buttons: { button: [{ title: 'a', displayText: 'A', id: 'a' }] } },
		path: '/message/sendButtons/demo',
		lidAt: ({ body }) => body.number,
	},
	'Send Location': {
		parameters: { resource: 'message', operation: 'sendLocation', number: LID, name: 'N', address: 'A', latitude: 1, longitude: 2 },
		path: '/message/sendLocation/demo',
		lidAt: ({ body }) => body.number,
	},
	'Send Reaction': {
		parameters: { resource: 'message', operation: 'sendReaction', remoteJid: LID, messageId: KEY.messageId, fromMe: false, reaction: '👍' },
		path: '/message/sendReaction/demo',
		lidAt: ({ body }) => body.key.remoteJid,
	},
	'Send Status (to one contact)': {
		parameters: { resource: 'message', operation: 'sendStatus', type: 'text', content: 'C', caption: '', backgroundColor: '#112233', font: 1, allContacts: false, statusJidList: LID },
		path: '/message/sendStatus/demo',
		lidAt: ({ body }) => body.statusJidList[0],
	},
	'Mark as Read': { parameters: { resource: 'message', operation: 'markAsRead', ...KEY }, path: '/chat/markMessageAsRead/demo', lidAt: ({ body }) => body.readMessages[0].remoteJid },
	'Archive': { parameters: { resource: 'chat', operation: 'archive', chat: LID, archive: true, messageId: KEY.messageId, fromMe: false }, path: '/chat/archiveChat/demo', lidAt: ({ body }) => body.chat },
	'Mark Unread': { parameters: { resource: 'chat', operation: 'markUnread', chat: LID, messageId: KEY.messageId, fromMe: false }, path: '/chat/markChatUnread/demo', lidAt: ({ body }) => body.chat },
	'Check Numbers': { parameters: { resource: 'chat', operation: 'checkNumbers', numbers: LID }, path: '/chat/whatsappNumbers/demo', lidAt: ({ body }) => body.numbers[0] },
	'Send Presence': { parameters: { resource: 'chat', operation: 'sendPresence', number: LID, presence: 'composing', delay: 0 }, path: '/chat/sendPresence/demo', lidAt: ({ body }) => body.number },
	'Get Profile': { parameters: { resource: 'contact', operation: 'getProfile', number: LID }, path: '/chat/fetchProfile/demo', lidAt: ({ body }) => body.number },
	'Get Profile Picture': { parameters: { resource: 'contact', operation: 'getProfilePicture', number: LID }, path: '/chat/fetchProfilePictureUrl/demo', lidAt: ({ body }) => body.number },
	'Block': { parameters: { resource: 'contact', operation: 'updateBlock', number: LID, status: 'block' }, path: '/chat/updateBlockStatus/demo', lidAt: ({ body }) => body.number },
	'Add Participant': {
		parameters: { resource: 'group', operation: 'updateParticipants', groupJid: { __rl: true, mode: 'id', value: GROUP }, action: 'add', participants: LID },
		path: '/group/updateParticipant/demo',
		lidAt: ({ body }) => body.participants[0],
	},
	'Send Invite': {
		parameters: { resource: 'group', operation: 'sendInvite', groupJid: { __rl: true, mode: 'id', value: GROUP }, numbers: LID, description: 'Join us' },
		path: '/group/sendInvite/demo',
		lidAt: ({ body }) => body.numbers[0],
	},
};

describe.each(['2.3.6', '2.3.7', '2.4.0'] as const)('a …@lid recipient in every recipient field (Evolution API %s)', (release) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect: 'v2', version: release, instances: [{ name: 'demo' }] });
		sandbox.addGroup('demo', { id: GROUP, subject: 'LID team', participants: ['5511944440001'] });
		// the message the key-based operations name: one the LID contact wrote
		await sandbox.injectMessage('demo', { from: LID, id: KEY.messageId, text: 'hello' });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.clearRequests());

	test.each(Object.keys(CASES))('%s sends the LID whole and the server accepts it', async (name) => {
		const { parameters, path, lidAt } = CASES[name];
		const result = await runNode({ parameters: { instance: 'demo', ...parameters }, credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests.filter((request) => request.path === path);
		expect(requests).toHaveLength(1);
		expect(lidAt({ body: requests[0].body, query: requests[0].query })).toBe(LID);
		expect(JSON.stringify(requests[0].body)).not.toContain('123456789012345@s.whatsapp.net');
		expect(requests[0].status).toBeLessThan(300);
		expect(result.items.length).toBeGreaterThan(0);
	});
});
