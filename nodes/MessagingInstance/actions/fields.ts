import type { INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from './parameters';

/**
 * Fields that several operations share, defined once: who receives something, and the key
 * that names one message (its chat, its id, and whether this instance sent it).
 */

export const RECIPIENT_HINT =
	'With country code: digits, or as pasted (+55 (11) 99999-0000 becomes 5511999990000). A JID such as 5511999990000@s.whatsapp.net or a group 120363000000000000@g.us is sent as typed.';

export function recipientProperty(description = 'Who receives the message'): INodeProperties {
	return {
		displayName: 'Number',
		name: 'number',
		type: 'string',
		default: '',
		required: true,
		placeholder: '5511999990000',
		description,
		hint: RECIPIENT_HINT,
	};
}

/** Labels of the message-key fields, as errors name them. */
export interface MessageKeyLabels {
	remoteJid: string;
	messageId: string;
	fromMe: string;
}

export const MESSAGE_KEY_LABELS: MessageKeyLabels = {
	remoteJid: 'Chat (Remote JID)',
	messageId: 'Message ID',
	fromMe: 'From Me',
};

/** The message key as parameters `remoteJid`, `messageId` and `fromMe`. */
export function messageKeyProperties(purpose: string, fromMeDefault = false): INodeProperties[] {
	const fromMe: INodeProperties = {
		displayName: MESSAGE_KEY_LABELS.fromMe,
		name: 'fromMe',
		type: 'boolean',
		default: false,
		description: 'Whether the message was sent by this instance (its key.fromMe)',
	};
	if (fromMeDefault) fromMe.default = true;
	return [
		{
			displayName: MESSAGE_KEY_LABELS.remoteJid,
			name: 'remoteJid',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000@s.whatsapp.net',
			description: 'The chat of the message: its key.remoteJid (the trigger outputs it as chatId)',
		},
		{
			displayName: MESSAGE_KEY_LABELS.messageId,
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3EB0C431C26A1916E07A',
			description: `ID of the message ${purpose}: its key.ID (the trigger outputs it as messageId)`,
		},
		fromMe,
	];
}

export interface MessageKey {
	remoteJid: string;
	fromMe: boolean;
	id: string;
}

/** Reads a message key; `chatParameter` names the parameter that holds the chat. */
export function readMessageKey(
	params: ItemParameters,
	labels: MessageKeyLabels = MESSAGE_KEY_LABELS,
	chatParameter = 'remoteJid',
): MessageKey {
	return {
		remoteJid: params.recipient(chatParameter, labels.remoteJid, true),
		fromMe: params.flag('fromMe', labels.fromMe),
		id: params.text('messageId', labels.messageId).trim(),
	};
}
