import type { IDataObject } from 'n8n-workflow';

import { factsOf, type DialectTable } from '../../../shared/dialect';
import type { Operation } from '../types';
import { recipientProperty } from '../fields';
import { messageOptions, withMessageOptions, messageOptionsProperty } from './common';

interface ListFacts {
	/** The field that carries the sections. */
	sectionsField: 'values' | 'sections';
	/** Whether `footerText` must be sent (as "" when the user left it empty). */
	footerRequired: boolean;
}

const LIST: DialectTable<ListFacts> = {
	documented: { sectionsField: 'values', footerRequired: false },
	v2: { sectionsField: 'sections', footerRequired: true },
};

interface SectionsParameter {
	section?: Array<{ title?: unknown; rows?: { row?: IDataObject[] } }>;
}

interface ListSection {
	title: string;
	rows: Array<{ title: string; description: string; rowId: string }>;
}

export const sendList: Operation = {
	resource: 'message',
	value: 'sendList',
	name: 'Send List',
	action: 'Send a list message',
	description: 'Send a message with a button that opens a list of choices',
	properties: [
		recipientProperty('Who receives the list (a number or a remote JID)'),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			required: true,
			description: 'Title of the list message',
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			required: true,
			description: 'Text shown under the title',
		},
		{
			displayName: 'Button Text',
			name: 'buttonText',
			type: 'string',
			default: 'Choose',
			required: true,
			description: 'Label of the button that opens the list',
		},
		{
			displayName: 'Footer Text',
			name: 'footerText',
			type: 'string',
			default: '',
			description: 'Small text under the message. Left out when empty (sent as "" to v2 servers, which require it).',
		},
		{
			displayName: 'Sections',
			name: 'sections',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Section',
			default: {},
			required: true,
			description: 'Sections of the list, each with its rows (choices)',
			options: [
				{
					displayName: 'Section',
					name: 'section',
					values: [
						{
							displayName: 'Section Title',
							name: 'title',
							type: 'string',
							default: '',
							description: 'Heading of this group of rows',
						},
						{
							displayName: 'Rows',
							name: 'rows',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true, sortable: true },
							placeholder: 'Add Row',
							default: {},
							options: [
								{
									displayName: 'Row',
									name: 'row',
									values: [
										{
											displayName: 'Row Title',
											name: 'title',
											type: 'string',
											default: '',
											description: 'The choice as the recipient reads it',
										},
										{
											displayName: 'Row Description',
											name: 'description',
											type: 'string',
											default: '',
											description: 'Smaller text under the choice',
										},
										{
											displayName: 'Row ID',
											name: 'rowId',
											type: 'string',
											default: '',
											description: 'Your identifier for this choice, returned when the recipient picks it',
										},
									],
								},
							],
						},
					],
				},
			],
		},
		messageOptionsProperty,
	],
	path: '/message/sendList',
	sendsMessage: { toNumber: true, typing: 'composing', notShownOnEveryAccount: 'WhatsApp does not show lists on every account: on personal (non-Business) accounts and on some phones and WhatsApp Web they may not appear, or appear as an unsupported message. Try them with the accounts you send to before building on them.' },
	buildRequest: (params, dialect) => {
		const number = params.recipient('number');
		const title = params.text('title');
		const description = params.text('description');
		const buttonText = params.text('buttonText');
		const footer = params.textOrEmpty('footerText');
		const given = params.collection('sections').section as SectionsParameter['section'];
		if (given !== undefined && !Array.isArray(given)) params.fail(params.label('sections'), 'must be a list of sections');
		if (!given || given.length === 0) return params.fail(params.label('sections'), 'needs at least one section');
		const sections: ListSection[] = given.map((section, s) => {
			const rows = section?.rows?.row ?? [];
			if (!Array.isArray(rows) || rows.length === 0) params.fail(`Sections: section ${s + 1}`, 'needs at least one row');
			return {
				title: params.checkText(section.title, `Sections: section ${s + 1} title`),
				rows: rows.map((row, r) => {
					const where = `Sections: section ${s + 1}, row ${r + 1}`;
					const rowTitle = params.checkText(row?.title, `${where} title`);
					if (rowTitle.trim() === '') {
						params.fail(`${where} title`, 'is required');
					}
					return {
						title: rowTitle,
						description: params.checkText(row.description, `${where} description`),
						rowId: params.checkText(row.rowId, `${where} ID`),
					};
				}),
			};
		});
		return withMessageOptions(
			{
				number,
				title,
				description,
				buttonText,
				// The documented dialect leaves an empty footer out; v2 requires the field, even as "".
				...(footer !== '' || factsOf(LIST, dialect).footerRequired ? { footerText: footer } : {}),
				[factsOf(LIST, dialect).sectionsField]: sections,
			},
			messageOptions(params),
		);
	},
};
