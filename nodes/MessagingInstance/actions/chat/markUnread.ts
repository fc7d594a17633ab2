import { lastMessageKeyProperties, readMessageKey } from '../fields';
import type { Operation } from '../types';

export const markChatUnread: Operation = {
	resource: 'chat',
	value: 'markUnread',
	name: 'Mark as Unread',
	action: 'Mark a chat as unread',
	description: 'Mark a chat as unread again, as a reminder to answer it',
	v2Only: true,
	properties: lastMessageKeyProperties('the server needs it'),
	path: '/chat/markChatUnread',
	buildBody: (params) => {
		const key = readMessageKey(params, 'chat');
		return { lastMessage: { key }, chat: key.remoteJid };
	},
};
