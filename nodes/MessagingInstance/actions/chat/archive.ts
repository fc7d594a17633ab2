import { readMessageKey } from '../fields';
import type { Operation } from '../types';

const ARCHIVE_KEY_LABELS = { remoteJid: 'Chat', messageId: 'Last Message ID', fromMe: 'Last Message From Me' };

export const archiveChat: Operation = {
	resource: 'chat',
	value: 'archive',
	name: 'Archive',
	action: 'Archive or unarchive a chat',
	description: 'Archive a chat, or bring it back from the archive',
	properties: [
		{
			displayName: 'Chat',
			name: 'chat',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000@s.whatsapp.net',
			description: 'The remote JID of the chat (or the contact\'s number)',
		},
		{
			displayName: 'Archive',
			name: 'archive',
			type: 'boolean',
			default: true,
			description: 'Whether to archive the chat; off brings it back from the archive',
		},
		{
			displayName: 'Last Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3EB0C431C26A1916E07A',
			description: 'ID of the last message of the chat (its key.ID); the server needs it to archive',
		},
		{
			displayName: 'Last Message From Me',
			name: 'fromMe',
			type: 'boolean',
			default: false,
			description: 'Whether that last message was sent by this instance',
		},
	],
	path: '/chat/archiveChat',
	buildBody: (params) => {
		const key = readMessageKey(params, ARCHIVE_KEY_LABELS, 'chat');
		return { lastMessage: { key }, archive: params.flag('archive', 'Archive'), chat: key.remoteJid };
	},
};
