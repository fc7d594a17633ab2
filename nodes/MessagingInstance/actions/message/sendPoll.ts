import type { IDataObject } from 'n8n-workflow';

import { recipientProperty } from '../fields';
import { quoted } from '../normalise';
import type { Operation } from '../types';
import { messageOptions, withMessageOptions, messageOptionsProperty } from './common';
import { messageIdFor, withMessageId, withMessageIdOption } from './messageId';

const MIN_OPTIONS = 2;
const MAX_OPTIONS = 10;

export const sendPoll: Operation = {
	resource: 'message',
	value: 'sendPoll',
	name: 'Send Poll',
	action: 'Send a poll',
	description: 'Send a poll with 2 to 10 options',
	v2Only: true,
	properties: [
		recipientProperty(),
		{
			displayName: 'Question',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Which day suits you?',
			description: 'The poll\'s question',
		},
		{
			displayName: 'Poll Options',
			name: 'pollOptions',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Poll Option',
			default: {},
			required: true,
			description: 'The answers to choose from: 2 to 10, all different',
			options: [
				{
					displayName: 'Option',
					name: 'option',
					values: [{ displayName: 'Text', name: 'text', type: 'string', default: '', description: 'The answer as voters read it' }],
				},
			],
		},
		{
			displayName: 'Selectable Count',
			name: 'selectableCount',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_OPTIONS, numberPrecision: 0 },
			default: 1,
			description: 'How many options a voter may pick (0: any number)',
		},
		withMessageIdOption(messageOptionsProperty),
	],
	path: '/message/sendPoll',
	sendsMessage: { toNumber: true, typing: 'composing' },
	carriesMessageId: true,
	buildRequest: (params, dialect, run) => {
		const number = params.recipient('number');
		const name = params.text('name');
		const given = params.collection('pollOptions').option as IDataObject[] | undefined;
		const values = (Array.isArray(given) ? given : []).map((entry, position) =>
			params.checkText(entry?.text, `Poll Options: option ${position + 1}`).trim(),
		);
		const blank = values.findIndex((value) => value === '');
		if (blank >= 0) params.fail(`Poll Options: option ${blank + 1}`, 'is empty');
		if (values.length < MIN_OPTIONS || values.length > MAX_OPTIONS) {
			params.fail(params.label('pollOptions'), `needs ${MIN_OPTIONS} to ${MAX_OPTIONS} options, not ${values.length}`);
		}
		const repeated = values.find((value, position) => values.indexOf(value) !== position);
		if (repeated !== undefined) params.fail(params.label('pollOptions'), `has ${quoted(repeated)} twice; options must differ`);
		const selectableCount = params.number('selectableCount', { min: 0, max: values.length, integer: true });
		return withMessageId(withMessageOptions({ number, name, selectableCount, values }, messageOptions(params)), messageIdFor(params, dialect, run));
	},
};
