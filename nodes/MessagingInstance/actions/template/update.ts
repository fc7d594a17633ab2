import type { IDataObject } from 'n8n-workflow';

import { picker } from '../../../shared/pickers';
import type { Operation } from '../types';
import { CATEGORIES, componentsProperty, readJsonList } from './fields';

export const updateTemplate: Operation = {
	resource: 'template',
	value: 'update',
	name: 'Update',
	action: 'Update a message template',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Change a template\'s category, components or time to live at Meta (Cloud API instances; server 2.3.7 or newer)',
	v2Only: true,
	cloudApiOnly: true,
	minServerVersion: '2.3.7',
	properties: [
		picker({
			displayName: 'Template',
			name: 'templateId',
			description: 'The template to change: pick it, or give Meta\'s template ID',
			searchMethod: 'searchTemplateIds',
			typedMode: { displayName: 'By ID', name: 'id', placeholder: '1234567890123456' },
		}),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{ displayName: 'Allow Category Change', name: 'allowCategoryChange', type: 'boolean', default: false, description: 'Whether Meta may move the template to another category' },
				{ displayName: 'Category', name: 'category', type: 'options', options: CATEGORIES, default: 'UTILITY', description: 'The new category' },
				{ ...componentsProperty(false, 'The new components, a JSON list as Meta defines them'), default: '[]' },
				{ displayName: 'Time to Live (Seconds)', name: 'ttl', type: 'number', typeOptions: { minValue: 1, maxValue: 2_592_000 }, default: 86400, description: 'How long Meta keeps trying to deliver a message of this template' },
			],
		},
	],
	path: '/template/edit',
	buildBody: (params) => {
		const templateId = params.identifier('templateId').trim();
		const fields = params.collection('updateFields');
		const body: IDataObject = { templateId };
		if (fields.category !== undefined) body.category = params.checkText(fields.category, params.label('updateFields.category'));
		if (fields.allowCategoryChange !== undefined) body.allowCategoryChange = params.checkFlag(fields.allowCategoryChange, params.label('updateFields.allowCategoryChange'));
		if (fields.ttl !== undefined) body.ttl = params.checkNumber(fields.ttl, params.label('updateFields.ttl'), { min: 1, integer: true });
		const components = readJsonList(params, fields.components, params.label('updateFields.components'));
		if (components && components.length > 0) body.components = components;
		if (Object.keys(body).length === 1) params.fail(params.label('updateFields'), 'needs at least one field to change');
		return body;
	},
};
