import { isSingleEmoji } from '../../../shared/normalise';
import type { Operation } from '../types';

export const sendReaction: Operation = {
	resource: 'message',
	value: 'sendReaction',
	name: 'Send Reaction',
	action: 'React to a message',
	description: 'Add an emoji reaction to a message, or remove yours',
	properties: [
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
			description: 'ID of the message to react to: its key.ID',
		},
		{
			displayName: 'From Me',
			name: 'fromMe',
			type: 'boolean',
			default: false,
			description: 'Whether the message was sent by this instance (its key.fromMe)',
		},
		{
			displayName: 'Reaction',
			name: 'reaction',
			type: 'string',
			default: '👍',
			description: 'One emoji. Leave empty to remove your reaction.',
		},
	],
	route: () => '/message/sendReaction',
	buildBody: (params) => {
		const remoteJid = params.recipient('remoteJid', 'Chat (Remote JID)');
		const id = params.text('messageId', 'Message ID').trim();
		const reaction = params.textOrEmpty('reaction').trim();
		if (reaction !== '' && !isSingleEmoji(reaction)) {
			params.fail('Reaction', `must be a single emoji or empty, not "${reaction}"`);
		}
		return { key: { remoteJid, fromMe: params.flag('fromMe'), id }, reaction };
	},
};
