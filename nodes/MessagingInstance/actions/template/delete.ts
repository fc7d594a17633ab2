import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';
import { templateNameProperty } from './fields';

export const deleteTemplate: Operation = {
	resource: 'template',
	value: 'delete',
	name: 'Delete',
	action: 'Delete a message template',
	description: 'Delete a template at Meta, in every language or one (Cloud API instances; server 2.3.7 or newer)',
	v2Only: true,
	cloudApiOnly: true,
	minServerVersion: '2.3.7',
	properties: [
		templateNameProperty('templateName', 'The template to delete: pick it, or give its name'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Template ID', name: 'hsmId', type: 'string', default: '', placeholder: '1234567890123456', description: 'Meta\'s ID of one language version: only that one is deleted' },
			],
		},
	],
	method: 'DELETE',
	path: '/template/delete',
	buildBody: (params) => {
		const body: IDataObject = { name: params.identifier('templateName').trim() };
		const options = params.collection('options');
		const hsmId = params.checkText(options.hsmId, params.label('options.hsmId')).trim();
		if (hsmId !== '') body.hsmId = hsmId;
		return body;
	},
};
