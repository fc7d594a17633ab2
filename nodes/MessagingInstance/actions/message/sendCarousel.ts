import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { EVOLUTION_2_4 } from '../../../shared/serverVersion';
import { recipientProperty } from '../fields';
import type { ItemParameters } from '../parameters';
import type { Operation } from '../types';
import { mediaOptionsProperty, messageOptions, withMessageOptions } from './common';

const MAX_CARDS = 10;
const MAX_BUTTONS_PER_CARD = 3;
const BUTTON_TYPES = ['reply', 'url', 'call', 'copy'] as const;
type ButtonType = (typeof BUTTON_TYPES)[number];

/** The field each button type needs besides its text: the server checks none of them, so the node does. */
const TARGET_OF: Record<ButtonType, { field: string; label: string }> = {
	reply: { field: 'id', label: 'ID' },
	url: { field: 'url', label: 'URL' },
	call: { field: 'phoneNumber', label: 'Phone Number' },
	copy: { field: 'copyCode', label: 'Copy Code' },
};

const buttonValues: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'reply',
		options: [
			{ name: 'Call', value: 'call', description: 'Calls a phone number' },
			{ name: 'Copy', value: 'copy', description: 'Copies a code to the clipboard' },
			{ name: 'Reply', value: 'reply', description: 'Sends its ID back as the answer' },
			{ name: 'URL', value: 'url', description: 'Opens a web address' },
		],
	},
	{ displayName: 'Display Text', name: 'displayText', type: 'string', default: '', description: 'Text on the button' },
	{
		displayName: 'ID',
		name: 'id',
		type: 'string',
		default: '',
		displayOptions: { show: { type: ['reply'] } },
		description: 'Your identifier for this button, returned when the recipient taps it',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		displayOptions: { show: { type: ['url'] } },
		placeholder: 'https://example.com',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		displayOptions: { show: { type: ['call'] } },
		placeholder: '+5511999990000',
	},
	{
		displayName: 'Copy Code',
		name: 'copyCode',
		type: 'string',
		default: '',
		displayOptions: { show: { type: ['copy'] } },
		description: 'Text the button copies',
	},
];

function readButton(params: ItemParameters, button: IDataObject, where: string): IDataObject {
	const type = params.checkText(button?.type ?? 'reply', `${where} type`);
	if (!(BUTTON_TYPES as readonly string[]).includes(type)) params.fail(`${where} type`, `must be one of ${BUTTON_TYPES.join(', ')}`);
	const displayText = params.checkText(button.displayText, `${where} display text`);
	if (displayText.trim() === '') params.fail(`${where} display text`, 'is required');
	const target = TARGET_OF[type as ButtonType];
	const value = params.checkText(button[target.field], `${where} ${target.label}`).trim();
	if (value === '') params.fail(`${where} ${target.label}`, `is required for a ${type} button`);
	if (type === 'url' && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value)) {
		params.fail(`${where} URL`, 'must be a web address starting with http:// or https://');
	}
	return { type, displayText, [target.field]: value };
}

function readCard(params: ItemParameters, card: IDataObject, c: number): IDataObject {
	const where = `Cards: card ${c + 1}`;
	const body = params.checkText(card?.body, `${where} body`);
	if (body.trim() === '') params.fail(`${where} body`, 'is required');
	const footer = params.checkText(card.footer, `${where} footer`);
	const imageUrl = params.checkText(card.imageUrl, `${where} image URL`).trim();
	if (imageUrl !== '' && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(imageUrl)) {
		params.fail(`${where} image URL`, 'must be a web address starting with http:// or https://');
	}
	const given = ((card.buttons as IDataObject | undefined)?.button ?? []) as IDataObject[];
	if (!Array.isArray(given)) params.fail(`${where} buttons`, 'must be a list of buttons');
	if (given.length === 0) params.fail(`${where} buttons`, 'needs at least one button');
	if (given.length > MAX_BUTTONS_PER_CARD) {
		params.fail(`${where} buttons`, `has ${given.length} buttons; the server accepts at most ${MAX_BUTTONS_PER_CARD} per card`);
	}
	return {
		body,
		...(footer === '' ? {} : { footer }),
		...(imageUrl === '' ? {} : { imageUrl }),
		buttons: given.map((button, b) => readButton(params, button, `${where}, button ${b + 1}`)),
	};
}

export const sendCarousel: Operation = {
	resource: 'message',
	value: 'sendCarousel',
	name: 'Send Carousel',
	action: 'Send a carousel of cards',
	description: 'Send up to ten cards side by side, each with a text, an optional image and up to three buttons (Evolution API 2.4)',
	v2Only: true,
	minServerVersion: EVOLUTION_2_4,
	properties: [
		recipientProperty('Who receives the message (a number or a remote JID)'),
		{
			displayName: 'Text',
			name: 'body',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			required: true,
			description: 'Text shown above the cards',
		},
		{
			displayName: 'Cards',
			name: 'cards',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Card',
			default: {},
			required: true,
			description: 'One to ten cards. A single card without an image is sent as a plain message with buttons.',
			options: [
				{
					displayName: 'Card',
					name: 'card',
					values: [
						{ displayName: 'Body', name: 'body', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'Text of the card' },
						{ displayName: 'Footer', name: 'footer', type: 'string', default: '', description: 'Small text under the card. Left out when empty.' },
						{
							displayName: 'Image URL',
							name: 'imageUrl',
							type: 'string',
							default: '',
							placeholder: 'https://example.com/picture.jpg',
							description: 'Picture at the top of the card. Left out when empty.',
						},
						{
							displayName: 'Buttons',
							name: 'buttons',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true, sortable: true },
							placeholder: 'Add Button',
							default: {},
							description: 'One to three buttons',
							options: [{ displayName: 'Button', name: 'button', values: buttonValues }],
						},
					],
				},
			],
		},
		mediaOptionsProperty(),
	],
	path: '/message/sendCarousel',
	sendsMessage: { toNumber: true, typing: 'composing', notShownOnEveryAccount: 'WhatsApp does not show carousels on every account: on personal (non-Business) accounts and on some phones and WhatsApp Web they may not appear, or appear as an unsupported message. Try them with the accounts you send to before building on them.' },
	buildRequest: (params) => {
		const number = params.recipient('number');
		const body = params.text('body');
		const given = (params.collection('cards').card ?? []) as IDataObject[];
		if (!Array.isArray(given)) params.fail(params.label('cards'), 'must be a list of cards');
		if (given.length === 0) params.fail(params.label('cards'), 'needs at least one card');
		if (given.length > MAX_CARDS) params.fail(params.label('cards'), `has ${given.length} cards; the server accepts at most ${MAX_CARDS}`);
		const cards = given.map((card, c) => readCard(params, card, c));
		return withMessageOptions({ number, body, cards }, messageOptions(params));
	},
};
