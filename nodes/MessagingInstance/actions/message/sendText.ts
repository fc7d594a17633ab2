import type { Operation } from '../types';
import { recipientProperty } from '../fields';
import { messageOptions, withMessageOptions, messageOptionsProperty } from './common';
import { messageIdFor, withMessageId, withMessageIdOption } from './messageId';

export const sendText: Operation = {
	resource: 'message',
	value: 'sendText',
	name: 'Send Text',
	action: 'Send a text message',
	description: 'Send a text message to a contact or group',
	properties: [
		recipientProperty(),
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			required: true,
			description: 'The message text. Supports *bold*, _italic_ and ~strikethrough~.',
		},
		withMessageIdOption(messageOptionsProperty),
	],
	path: '/message/sendText',
	sendsMessage: { toNumber: true, typing: 'composing' },
	carriesMessageId: true,
	buildRequest: (params, dialect, run) =>
		withMessageId(
			withMessageOptions({ number: params.recipient('number'), text: params.text('text') }, messageOptions(params)),
			messageIdFor(params, dialect, run),
		),
};
