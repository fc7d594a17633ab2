import type { IDataObject } from 'n8n-workflow';

import { factsOf, type DialectTable } from '../../../shared/dialect';
import type { Operation } from '../types';
import { recipientProperty } from '../fields';
import { messageOptions, withMessageOptions, messageOptionsProperty } from './common';

const MAX_BUTTONS = 3;

/** How a button is written: `titled` is `{title, displayText, id}`, `reply` is `{type: "reply", displayText, id}`. */
const BUTTON_STYLE: DialectTable<'titled' | 'reply'> = { documented: 'titled', v2: 'reply' };

export const sendButtons: Operation = {
	resource: 'message',
	value: 'sendButtons',
	name: 'Send Buttons',
	action: 'Send a message with buttons',
	description: 'Send a message with up to three reply buttons',
	properties: [
		recipientProperty('Who receives the message (a number or a remote JID)'),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			required: true,
			description: 'Title of the message',
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			required: true,
			description: 'Text shown above the buttons',
		},
		{
			displayName: 'Footer',
			name: 'footer',
			type: 'string',
			default: '',
			description: 'Small text under the message. Left out when empty.',
		},
		{
			displayName: 'Buttons',
			name: 'buttons',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Button',
			default: {},
			required: true,
			description: 'One to three reply buttons',
			options: [
				{
					displayName: 'Button',
					name: 'button',
					values: [
						{
							displayName: 'Title',
							name: 'title',
							type: 'string',
							default: '',
							description: 'Title of the button (documented dialect; v2 servers send reply buttons without a title)',
						},
						{
							displayName: 'Display Text',
							name: 'displayText',
							type: 'string',
							default: '',
							description: 'Text on the button',
						},
						{
							displayName: 'ID',
							name: 'id',
							type: 'string',
							default: '',
							description: 'Your identifier for this button, returned when the recipient taps it',
						},
					],
				},
			],
		},
		messageOptionsProperty,
	],
	path: '/message/sendButtons',
	sendsMessage: { toNumber: true, typing: 'composing', notShownOnEveryAccount: 'WhatsApp does not show buttons on every account: on personal (non-Business) accounts and on some phones and WhatsApp Web they may not appear, or appear as an unsupported message. Try them with the accounts you send to before building on them.' },
	buildRequest: (params, dialect) => {
		const number = params.recipient('number');
		const title = params.text('title');
		const description = params.text('description');
		const footer = params.textOrEmpty('footer');
		const given = (params.collection('buttons').button ?? []) as IDataObject[];
		if (!Array.isArray(given)) params.fail(params.label('buttons'), 'must be a list of buttons');
		if (given.length === 0) params.fail(params.label('buttons'), 'needs at least one button');
		if (given.length > MAX_BUTTONS) {
			params.fail(params.label('buttons'), `has ${given.length} buttons; the server accepts at most ${MAX_BUTTONS}`);
		}
		const buttons = given.map((button, b) => {
			const where = `Buttons: button ${b + 1}`;
			const displayText = params.checkText(button?.displayText, `${where} display text`);
			if (displayText.trim() === '') params.fail(`${where} display text`, 'is required');
			const id = params.checkText(button.id, `${where} ID`);
			return factsOf(BUTTON_STYLE, dialect) === 'reply'
				? { type: 'reply', displayText, id }
				: { title: params.checkText(button.title, `${where} title`), displayText, id };
		});
		return withMessageOptions(
			{
				number,
				title,
				description,
				...(footer === '' ? {} : { footer }),
				buttons,
			},
			messageOptions(params),
		);
	},
};
