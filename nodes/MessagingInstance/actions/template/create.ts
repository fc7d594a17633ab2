import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';
import { CATEGORIES, componentsProperty, languageProperty, readJsonList, readLanguage } from './fields';

export const createTemplate: Operation = {
	resource: 'template',
	value: 'create',
	name: 'Create',
	action: 'Create a message template',
	description: 'Submit a new message template to Meta for approval (Cloud API instances only)',
	v2Only: true,
	cloudApiOnly: true,
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'order_update',
			description: 'Name of the template: lower-case letters, digits and underscores',
		},
		{ displayName: 'Category', name: 'category', type: 'options', options: CATEGORIES, default: 'UTILITY', description: 'Meta\'s category of the template' },
		languageProperty('Language of the template, e.g. en_US'),
		componentsProperty(true, 'The template\'s components as Meta defines them (header, body, footer, buttons), a JSON list'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Allow Category Change', name: 'allowCategoryChange', type: 'boolean', default: false, description: 'Whether Meta may move the template to another category instead of refusing it' },
				{ displayName: 'Webhook URL', name: 'webhookUrl', type: 'string', default: '', placeholder: 'https://example.com/template-status', description: 'Where the server forwards Meta\'s status updates of this template' },
			],
		},
	],
	path: '/template/create',
	buildBody: (params) => {
		const name = params.text('name').trim();
		if (!/^[a-z0-9_]{1,512}$/.test(name)) params.fail(params.label('name'), 'must be lower-case letters, digits and underscores only, e.g. order_update');
		const components = readJsonList(params, params.raw<unknown>('components', ''), params.label('components'));
		if (!components || components.length === 0) params.fail(params.label('components'), 'needs at least one component (a BODY)');
		const options = params.collection('options');
		const body: IDataObject = { name, category: params.text('category'), language: readLanguage(params, 'language'), components };
		if (options.allowCategoryChange !== undefined) body.allowCategoryChange = params.checkFlag(options.allowCategoryChange, params.label('options.allowCategoryChange'));
		const webhookUrl = params.checkText(options.webhookUrl, params.label('options.webhookUrl')).trim();
		if (webhookUrl !== '') body.webhookUrl = webhookUrl;
		return body;
	},
};
