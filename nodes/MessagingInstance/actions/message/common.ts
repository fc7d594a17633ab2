import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';

/** The longest wait a send may ask the server for: a timer past 2^31 ms would overflow. */
export const MAX_DELAY_MS = 300_000;

/** The `options` collection shared by the message sends. */
export const messageOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Delay (Milliseconds)',
			name: 'delay',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_DELAY_MS, numberPrecision: 0 },
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

/** The options of a media send: those of a message but the link preview, plus what is set apart. */
export function mediaOptionsProperty(extra: INodeProperties[] = []): INodeProperties {
	return {
		...messageOptionsProperty,
		options: [
			...(messageOptionsProperty.options as INodeProperties[]).filter((option) => option.name !== 'linkPreview'),
			...extra,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** The optional fields of a message send: only those the user added are sent. */
export function messageOptions(params: ItemParameters): IDataObject {
	const options = params.collection('options', 'Options');
	const body: IDataObject = {};
	if (options.delay !== undefined) {
		body.delay = params.checkNumber(options.delay, 'Options: Delay (Milliseconds)', { min: 0, max: MAX_DELAY_MS, integer: true });
	}
	if (options.linkPreview !== undefined) body.linkPreview = params.checkFlag(options.linkPreview, 'Options: Link Preview');
	if (options.mentionsEveryOne !== undefined) {
		body.mentionsEveryOne = params.checkFlag(options.mentionsEveryOne, 'Options: Mention Everyone');
	}
	if (options.mentioned !== undefined) {
		const mentioned = params.checkRecipientList(options.mentioned, 'Options: Mentioned Numbers');
		if (mentioned.length > 0) body.mentioned = mentioned;
	}
	const quotedId = params.checkText(options.quotedMessageId, 'Options: Quoted Message ID').trim();
	const quotedText =
		options.quotedText === undefined ? undefined : params.checkText(options.quotedText, 'Options: Quoted Message Text');
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
