import type { IDataObject } from 'n8n-workflow';

import { recipientProperty } from '../fields';
import { quoted } from '../normalise';
import type { Operation } from '../types';

/** A v2.x server refuses a contact phone shorter than 10 characters. */
const MIN_PHONE_LENGTH = 10;

export const sendContact: Operation = {
	resource: 'message',
	value: 'sendContact',
	name: 'Send Contact',
	action: 'Send a contact card',
	description: 'Send one or more contact cards (name, phone, organisation, email, URL)',
	v2Only: true,
	properties: [
		recipientProperty(),
		{
			displayName: 'Contacts',
			name: 'contacts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Contact',
			default: {},
			required: true,
			description: 'The cards to send; several go as one message',
			options: [
				{
					displayName: 'Contact',
					name: 'contact',
					values: [
						{
							displayName: 'Email',
							name: 'email',
							type: 'string',
							placeholder: 'name@email.com',
							default: '',
						},
						{
							displayName: 'Full Name',
							name: 'fullName',
							type: 'string',
							default: '',
							description: 'Name on the card',
						},
						{
							displayName: 'Organization',
							name: 'organization',
							type: 'string',
							default: '',
						},
						{
							displayName: 'Phone Number',
							name: 'phoneNumber',
							type: 'string',
							default: '',
							placeholder: '+55 11 99999-0000',
							description: 'Phone number with country code, as it should appear on the card',
						},
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'https://example.com',
						},
					],
				},
			],
		},
	],
	path: '/message/sendContact',
	sendsMessage: { toNumber: true },
	buildBody: (params) => {
		const number = params.recipient('number');
		const given = params.collection('contacts').contact as IDataObject[] | undefined;
		if (!Array.isArray(given) || given.length === 0) return params.fail(params.label('contacts'), 'needs at least one contact');
		const seen = new Set<string>();
		const contact = given.map((entry, position) => {
			const where = `Contacts: contact ${position + 1}`;
			const fullName = params.checkText(entry?.fullName, `${where} full name`).trim();
			if (fullName === '') params.fail(`${where} full name`, 'is required');
			const phoneNumber = params.checkText(entry.phoneNumber, `${where} phone number`).trim();
			const digits = phoneNumber.replace(/[\s+\-().]/g, '');
			if (!/^\d+$/.test(digits)) {
				params.fail(`${where} phone number`, `must be a phone number with country code, not ${quoted(phoneNumber)}`);
			}
			if (phoneNumber.length < MIN_PHONE_LENGTH) {
				params.fail(`${where} phone number`, `must have at least ${MIN_PHONE_LENGTH} characters with the country code`);
			}
			const card: IDataObject = { fullName, wuid: digits, phoneNumber };
			for (const [field, label] of [['organization', 'organization'], ['email', 'email'], ['url', 'URL']] as const) {
				const value = params.checkText(entry[field], `${where} ${label}`).trim();
				if (value !== '') card[field] = value;
			}
			const identity = JSON.stringify(card);
			if (seen.has(identity)) params.fail(where, 'repeats an earlier contact (the server refuses repeats)');
			seen.add(identity);
			return card;
		});
		return { number, contact };
	},
};
