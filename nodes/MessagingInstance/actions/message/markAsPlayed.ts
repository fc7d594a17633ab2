import { EVOLUTION_2_4 } from '../../../shared/serverVersion';
import { messageKeyProperties, readMessageKey } from '../fields';
import type { Operation } from '../types';

/**
 * The server sends a played receipt only for a person's phone JID or a group: any other chat
 * (a `…@lid` JID, a bare number, a channel) is skipped while the answer still says success.
 * So the node makes a bare number a phone JID and refuses the others before sending.
 */
const PLAYABLE_CHAT = /@(s\.whatsapp\.net|g\.us)$/;

export const markAsPlayed: Operation = {
	resource: 'message',
	value: 'markAsPlayed',
	name: 'Mark as Played',
	action: 'Mark a voice message as played',
	description: 'Mark a received voice or audio message as played: the sender sees the blue microphone (Evolution API 2.4)',
	v2Only: true,
	minServerVersion: EVOLUTION_2_4,
	properties: messageKeyProperties('to mark as played'),
	path: '/chat/markMessageAsPlayed',
	buildBody: (params) => {
		const key = readMessageKey(params);
		const remoteJid = /^\d+$/.test(key.remoteJid) ? `${key.remoteJid}@s.whatsapp.net` : key.remoteJid;
		if (!PLAYABLE_CHAT.test(remoteJid)) {
			params.fail(
				params.label('remoteJid'),
				'must be a phone JID (…@s.whatsapp.net) or a group (…@g.us)',
				'The server skips other chats without telling: for a contact known by LID, use the phone JID the trigger outputs as chatId.',
			);
		}
		return { playedMessages: [{ ...key, remoteJid }] };
	},
};
