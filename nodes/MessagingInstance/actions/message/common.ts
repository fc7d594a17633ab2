import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';
import type { BuiltRequest } from '../types';

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

/** The Options of a message send: the fields the user added, and the wait the Delay asks for. */
export interface MessageOptions {
	fields: IDataObject;
	extraWaitMs: number;
}

/** A message send's request: its own fields, then the options the user added. */
export function withMessageOptions(body: IDataObject, options: MessageOptions): BuiltRequest {
	return { body: { ...body, ...options.fields }, extraWaitMs: options.extraWaitMs };
}

/** The optional fields of a message send: only those the user added are sent. */
export function messageOptions(params: ItemParameters): MessageOptions {
	const options = params.collection('options');
	const body: IDataObject = {};
	let extraWaitMs = 0;
	if (options.delay !== undefined) {
		extraWaitMs = body.delay = params.checkNumber(options.delay, params.label('options.delay'), { min: 0, max: MAX_DELAY_MS, integer: true });
	}
	if (options.linkPreview !== undefined) body.linkPreview = params.checkFlag(options.linkPreview, params.label('options.linkPreview'));
	if (options.mentionsEveryOne !== undefined) {
		body.mentionsEveryOne = params.checkFlag(options.mentionsEveryOne, params.label('options.mentionsEveryOne'));
	}
	if (options.mentioned !== undefined) {
		const mentioned = params.checkRecipientList(options.mentioned, params.label('options.mentioned'));
		if (mentioned.length > 0) body.mentioned = mentioned;
	}
	const quotedId = params.checkText(options.quotedMessageId, params.label('options.quotedMessageId')).trim();
	const quotedText =
		options.quotedText === undefined ? undefined : params.checkText(options.quotedText, params.label('options.quotedText'));
	if (quotedId !== '') {
		body.quoted = {
			key: { id: quotedId },
			...(quotedText !== undefined && quotedText !== '' ? { message: { conversation: quotedText } } : {}),
		};
	} else if (quotedText !== undefined && quotedText !== '') {
		params.fail(params.label('options.quotedMessageId'), 'is required when a quoted text is set');
	}
	return { fields: body, extraWaitMs };
}
