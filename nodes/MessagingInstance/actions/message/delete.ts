import { messageKeyProperties, readMessageKey } from '../fields';
import type { Operation } from '../types';

export const deleteMessage: Operation = {
	resource: 'message',
	value: 'delete',
	name: 'Delete',
	action: 'Delete a message for everyone',
	description: 'Delete a message for everyone in the chat (your own messages, or any as a group admin)',
	v2Only: true,
	method: 'DELETE',
	properties: [
		...messageKeyProperties('to delete', true),
		{
			displayName: 'Participant',
			name: 'participant',
			type: 'string',
			default: '',
			placeholder: '5511988880000@s.whatsapp.net',
			description: 'In a group, the JID of who sent the message (its key.participant); leave empty otherwise',
		},
	],
	path: '/chat/deleteMessageForEveryone',
	// The route reads the key from the body of the DELETE request.
	buildBody: (params) => {
		const { remoteJid, fromMe, id } = readMessageKey(params);
		const participant = params.textOrEmpty('participant').trim();
		return {
			id,
			fromMe,
			remoteJid,
			...(participant !== '' ? { participant: params.checkRecipient(participant, 'Participant', true) } : {}),
		};
	},
};
