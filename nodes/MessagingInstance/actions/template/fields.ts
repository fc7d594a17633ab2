import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';
import { picker } from '../../../shared/pickers';

/** Meta's template categories. */
export const CATEGORIES = [
	{ name: 'Authentication', value: 'AUTHENTICATION' },
	{ name: 'Marketing', value: 'MARKETING' },
	{ name: 'Utility', value: 'UTILITY' },
];

export function templateNameProperty(name: string, description: string): INodeProperties {
	return picker({
		displayName: 'Template',
		name,
		description,
		searchMethod: 'searchTemplates',
		typedMode: { displayName: 'By Name', name: 'name', placeholder: 'order_update' },
	});
}

const EXAMPLE_COMPONENTS = JSON.stringify([{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ana', '#1234']] } }], null, 2);

export function componentsProperty(required: boolean, description: string): INodeProperties {
	const property: INodeProperties = {
		displayName: 'Components',
		name: 'components',
		type: 'json',
		default: '',
		description,
	};
	if (required) {
		property.required = true;
		property.default = EXAMPLE_COMPONENTS;
	}
	return property;
}

/** A JSON list typed in the editor (text) or given by an expression (a list); empty: undefined. */
export function readJsonList(params: ItemParameters, value: unknown, label: string): IDataObject[] | undefined {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			params.fail(label, `is not valid JSON: ${(error as Error).message}`);
		}
	}
	if (parsed === undefined || parsed === null) return undefined;
	if (!Array.isArray(parsed)) params.fail(label, 'must be a JSON list of components ([{ "type": "BODY", … }])');
	parsed.forEach((entry, position) => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) params.fail(`${label} (entry ${position + 1})`, 'must be an object such as { "type": "BODY", "text": "…" }');
	});
	return parsed as IDataObject[];
}

/** A template's language code as Meta writes it: `en`, `en_US`, `pt_BR`. */
export function readLanguage(params: ItemParameters, name: string): string {
	const language = params.text(name).trim();
	if (!/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/.test(language)) params.fail(params.label(name), 'must be a language code such as en, en_US or pt_BR');
	return language;
}

export function languageProperty(description: string): INodeProperties {
	return { displayName: 'Language', name: 'language', type: 'string', default: 'en_US', required: true, placeholder: 'en_US', description };
}
