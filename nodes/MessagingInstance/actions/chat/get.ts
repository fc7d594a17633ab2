import type { IDataObject } from 'n8n-workflow';

import { chatJidOf } from '../fields';
import type { Operation } from '../types';

export const getChat: Operation = {
	resource: 'chat',
	value: 'get',
	name: 'Get',
	action: 'Get a chat',
	description: 'Get one chat of the instance by its JID: name, labels, unread count',
	v2Only: true,
	properties: [
		{
			displayName: 'Chat (Remote JID)',
			name: 'remoteJid',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000@s.whatsapp.net',
			description: 'The chat\'s JID (the trigger outputs it as chatId); a phone number becomes its JID',
		},
	],
	method: 'GET',
	path: '/chat/findChatByRemoteJid',
	buildQuery: (params) => ({ remoteJid: chatJidOf(params.recipient('remoteJid', true)) }),
	toItems: (response, params) => {
		// The server answers 200 with null for a chat it does not have.
		if (!response || typeof response !== 'object' || Array.isArray(response)) {
			return params.fail(params.label('remoteJid'), 'names no chat of this instance', 'Use the JID exactly as the server stores it (e.g. from Chat → Get Many or the trigger\'s chatId).');
		}
		return [response as IDataObject];
	},
};
