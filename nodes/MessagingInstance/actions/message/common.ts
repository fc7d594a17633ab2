import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';

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

/** The `options` collection shared by Send Text, Send List, Send Buttons and Send Location. */
export const messageOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Delay (Ms)',
			name: 'delay',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 1200,
			description:
				'How long, in milliseconds, the recipient sees "typing…" before the message arrives. The request waits that long.',
		},
		{
			displayName: 'Link Preview',
			name: 'linkPreview',
			type: 'boolean',
			default: true,
			description: 'Whether to show a preview of the website when the message contains a link',
		},
		{
			displayName: 'Mention Everyone',
			name: 'mentionsEveryOne',
			type: 'boolean',
			default: false,
			description: 'Whether to mention every participant (in a group)',
		},
		{
			displayName: 'Mentioned Numbers',
			name: 'mentioned',
			type: 'string',
			default: '',
			placeholder: '5511999990000, 5511888880000',
			description: 'Numbers to mention, separated by commas or new lines',
		},
		{
			displayName: 'Quoted Message ID',
			name: 'quotedMessageId',
			type: 'string',
			default: '',
			placeholder: '3EB0C431C26A1916E07A',
			description: 'ID of the message to reply to (its key.ID)',
		},
		{
			displayName: 'Quoted Message Text',
			name: 'quotedText',
			type: 'string',
			default: '',
			description: 'Text of the quoted message, shown in the reply bubble. Needs the Quoted Message ID.',
		},
	],
};

/** The optional fields of a message send: only those the user added are sent. */
export function messageOptions(params: ItemParameters): IDataObject {
	const options = params.collection('options');
	const body: IDataObject = {};
	if (options.delay !== undefined) {
		body.delay = params.checkNumber(options.delay, 'Options: Delay (Ms)', { min: 0, integer: true });
	}
	if (options.linkPreview !== undefined) body.linkPreview = options.linkPreview === true;
	if (options.mentionsEveryOne !== undefined) body.mentionsEveryOne = options.mentionsEveryOne === true;
	if (options.mentioned !== undefined) {
		const mentioned = params.checkRecipientList(options.mentioned, 'Options: Mentioned Numbers');
		if (mentioned.length > 0) body.mentioned = [...new Set(mentioned)];
	}
	const quotedId = String(options.quotedMessageId ?? '').trim();
	const quotedText = options.quotedText === undefined ? undefined : String(options.quotedText);
	if (quotedId !== '') {
		body.quoted = {
			key: { id: quotedId },
			...(quotedText !== undefined && quotedText !== '' ? { message: { conversation: quotedText } } : {}),
		};
	} else if (quotedText !== undefined && quotedText !== '') {
		params.fail('Options: Quoted Message ID', 'is required when a quoted text is set');
	}
	return body;
}
