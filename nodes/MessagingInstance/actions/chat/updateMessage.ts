import type { Operation } from '../types';

export const updateMessage: Operation = {
	resource: 'chat',
	value: 'updateMessage',
	name: 'Update Message',
	action: 'Edit a sent message',
	description: 'Replace the text of a message this instance sent',
	properties: [
		{
			displayName: 'Number',
			name: 'number',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000',
			description: 'Phone number of the chat, with country code',
			hint: 'Digits with country code; +, spaces and dashes are removed',
		},
		{
			displayName: 'New Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description: 'The new content of the message',
		},
		{
			displayName: 'Chat (Remote JID)',
			name: 'remoteJid',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000@s.whatsapp.net',
			description: 'The chat of the message: its key.remoteJid',
		},
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3EB0C431C26A1916E07A',
			description: 'ID of the message to edit: its key.ID',
		},
		{
			displayName: 'From Me',
			name: 'fromMe',
			type: 'boolean',
			default: true,
			description: 'Whether the message was sent by this instance (only your own messages can be edited)',
		},
	],
	route: () => '/chat/updateMessage',
	buildBody: (params, dialect) => {
		const number = params.recipient('number', 'Number');
		// The documented dialect carries the number as an integer, so it must be a phone number.
		const digits = number.includes('@') ? number.slice(0, number.indexOf('@')) : number;
		if (!/^\d+$/.test(digits)) {
			params.fail('Number', `must be a phone number with country code, not "${number}"`);
		}
		return {
			number: dialect.updateMessageNumber(digits),
			text: params.text('text', 'New Text'),
			key: {
				remoteJid: params.recipient('remoteJid', 'Chat (Remote JID)'),
				fromMe: params.flag('fromMe'),
				id: params.text('messageId', 'Message ID').trim(),
			},
		};
	},
};
