import { messageKeyProperties, readMessageKey } from '../fields';
import { quoted } from '../normalise';
import { factsOf, type DialectTable } from '../../../shared/dialect';
import type { Operation } from '../types';

/** Whether `number` goes as an integer (else as a string of digits). */
const NUMBER_IS_INTEGER: DialectTable<boolean> = { documented: true, v2: false };

export const updateMessage: Operation = {
	resource: 'chat',
	value: 'updateMessage',
	name: 'Update Message',
	action: 'Edit a sent message',
	update: { rule: 'sendOnlyWhatIsSet' },
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
		...messageKeyProperties('to edit (only your own messages can be edited)', true),
	],
	path: '/chat/updateMessage',
	buildBody: (params, dialect) => {
		const number = params.recipient('number');
		// The documented dialect carries the number as an integer, so it must be a phone number
		// that an integer holds exactly: at most 15 digits (E.164), and not zero.
		const digits = number.includes('@') ? number.slice(0, number.indexOf('@')) : number;
		if (!/^\d{1,15}$/.test(digits) || /^0+$/.test(digits)) {
			params.fail(params.label('number'), `must be a phone number with country code (at most 15 digits), not ${quoted(number)}`);
		}
		return {
			number: factsOf(NUMBER_IS_INTEGER, dialect) ? Number(digits) : digits,
			text: params.text('text'),
			key: readMessageKey(params),
		};
	},
};
