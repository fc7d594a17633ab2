import { lastMessageKeyProperties, readMessageKey } from '../fields';
import type { Operation } from '../types';

const [chatProperty, ...lastMessageProperties] = lastMessageKeyProperties('the server needs it to archive');

export const archiveChat: Operation = {
	resource: 'chat',
	value: 'archive',
	name: 'Archive',
	action: 'Archive or unarchive a chat',
	description: 'Archive a chat, or bring it back from the archive',
	properties: [
		chatProperty,
		{
			displayName: 'Archive',
			name: 'archive',
			type: 'boolean',
			default: true,
			description: 'Whether to archive the chat; off brings it back from the archive',
		},
		...lastMessageProperties,
	],
	path: '/chat/archiveChat',
	buildBody: (params) => {
		const key = readMessageKey(params, 'chat');
		return { lastMessage: { key }, archive: params.flag('archive'), chat: key.remoteJid };
	},
};
