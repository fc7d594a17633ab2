import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** The kinds of field the response form offers, by the values n8n's Form node stores. */
export const FIELD_TYPES = ['checkbox', 'date', 'dropdown', 'email', 'number', 'password', 'radio', 'text', 'textarea'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const WITH_CHOICES: readonly FieldType[] = ['checkbox', 'dropdown', 'radio'];

/** At most this many fields and choices per field: a form is read by a person on a phone. */
export const MAX_FIELDS = 50;
export const MAX_CHOICES = 100;

/** One field of the response form, as the node's parameters describe it. */
export interface FormField {
	label: string;
	type: FieldType;
	placeholder: string;
	required: boolean;
	/** Dropdown with several picks (checkboxes always allow several). */
	multiple: boolean;
	choices: string[];
}

/** The Form Fields parameter, with the names n8n's Form node stores (`formFields.values`). */
export const formFieldsProperty: INodeProperties = {
	displayName: 'Form Fields',
	name: 'formFields',
	placeholder: 'Add Form Field',
	type: 'fixedCollection',
	default: {},
	typeOptions: { multipleValues: true, sortable: true },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Element Type',
					name: 'fieldType',
					type: 'options',
					default: 'text',
					description: 'The type of field to add to the form',
					options: [
						{ name: 'Checkboxes', value: 'checkbox' },
						{ name: 'Date', value: 'date' },
						{ name: 'Dropdown', value: 'dropdown' },
						{ name: 'Email', value: 'email' },
						{ name: 'Number', value: 'number' },
						{ name: 'Password', value: 'password' },
						{ name: 'Radio Buttons', value: 'radio' },
						{ name: 'Text Input', value: 'text' },
						{ name: 'Textarea', value: 'textarea' },
					],
					required: true,
				},
				{
					displayName: 'Field Name',
					name: 'fieldLabel',
					type: 'string',
					default: '',
					placeholder: 'e.g. What is your name?',
					description: 'Label of the field on the form, and the key of its answer in the output',
					required: true,
				},
				{
					displayName: 'Field Options',
					name: 'fieldOptions',
					placeholder: 'Add Field Option',
					description: 'The choices the person picks from',
					type: 'fixedCollection',
					default: { values: [{ option: '' }] },
					required: true,
					displayOptions: { show: { fieldType: ['dropdown', 'checkbox', 'radio'] } },
					typeOptions: { multipleValues: true, sortable: true },
					options: [
						{
							displayName: 'Values',
							name: 'values',
							values: [{ displayName: 'Option', name: 'option', type: 'string', default: '' }],
						},
					],
				},
				{
					displayName: 'Multiple Choice',
					name: 'multiselect',
					type: 'boolean',
					default: false,
					description: 'Whether the person may pick several options',
					displayOptions: { show: { fieldType: ['dropdown'] } },
				},
				{
					displayName: 'Placeholder',
					name: 'placeholder',
					type: 'string',
					default: '',
					description: 'Sample text shown in the empty field',
					displayOptions: { hide: { fieldType: ['dropdown', 'date', 'checkbox', 'radio'] } },
				},
				{
					displayName: 'Required Field',
					name: 'requiredField',
					type: 'boolean',
					default: false,
					description: 'Whether the form can only be sent with an answer in this field',
				},
			],
		},
	],
};

const isObject = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The form's fields from the stored parameter, checked. `fail` reports a problem naming the
 * field by its position (the editor lists them in order); it throws.
 */
export function readFormFields(stored: unknown, fail: (where: string, problem: string) => never): FormField[] {
	const values = isObject(stored) ? stored.values : undefined;
	if (values !== undefined && !Array.isArray(values)) fail('Form Fields', 'must be a list of fields');
	const list = (values ?? []) as unknown[];
	if (list.length === 0) fail('Form Fields', 'needs at least one field');
	if (list.length > MAX_FIELDS) fail('Form Fields', `has ${list.length} fields; at most ${MAX_FIELDS} are allowed`);
	const labels = new Set<string>();
	return list.map((entry, index) => {
		const where = `Form Fields: field ${index + 1}`;
		if (!isObject(entry)) return fail(where, 'must be a field');
		const label = typeof entry.fieldLabel === 'string' || typeof entry.fieldLabel === 'number' ? String(entry.fieldLabel).trim() : '';
		if (label === '') fail(`${where}: Field Name`, 'is required');
		if (label.length > 200) fail(`${where}: Field Name`, 'is longer than 200 characters');
		if (labels.has(label)) fail(`${where}: Field Name`, `"${label}" is used by another field; each answer needs its own name`);
		labels.add(label);
		const type = (entry.fieldType ?? 'text') as FieldType;
		if (!FIELD_TYPES.includes(type)) fail(`${where}: Element Type`, `"${String(type).slice(0, 40)}" is not a field type`);
		const choices: string[] = [];
		if (WITH_CHOICES.includes(type)) {
			const options = isObject(entry.fieldOptions) ? entry.fieldOptions.values : undefined;
			for (const option of Array.isArray(options) ? options : []) {
				const text = isObject(option) && (typeof option.option === 'string' || typeof option.option === 'number') ? String(option.option).trim() : '';
				if (text !== '' && !choices.includes(text)) choices.push(text);
			}
			if (choices.length === 0) fail(`${where}: Field Options`, 'needs at least one option');
			if (choices.length > MAX_CHOICES) fail(`${where}: Field Options`, `has ${choices.length} options; at most ${MAX_CHOICES} are allowed`);
		}
		return {
			label,
			type,
			placeholder: typeof entry.placeholder === 'string' ? entry.placeholder : '',
			required: entry.requiredField === true,
			multiple: type === 'checkbox' || (type === 'dropdown' && entry.multiselect === true),
			choices,
		};
	});
}

/** The longest answer a field takes; a longer one is refused rather than cut. */
export const MAX_ANSWER_LENGTH = 20_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A form answer as a list of texts (a form body repeats a name for several picks). */
function textsOf(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const list = Array.isArray(value) ? value : [value];
	return list.filter((entry): entry is string | number => typeof entry === 'string' || typeof entry === 'number').map(String);
}

/**
 * The submitted answers, keyed by field name as n8n's Form node outputs them (`field-0` …
 * in the body, in the fields' order), or the first problem, in words for the person.
 */
export function readAnswers(fields: FormField[], body: IDataObject): { answers: IDataObject } | { problem: string } {
	const answers: IDataObject = {};
	for (const [index, field] of fields.entries()) {
		const texts = textsOf(body[`field-${index}`]);
		if (texts.some((text) => text.length > MAX_ANSWER_LENGTH)) {
			return { problem: `"${field.label}" is longer than ${MAX_ANSWER_LENGTH} characters.` };
		}
		// Blank is no answer; a text area and a password keep their spaces, other fields are trimmed.
		const given = texts
			.filter((text) => text.trim() !== '')
			.map((text) => (field.type === 'textarea' || field.type === 'password' ? text : text.trim()));
		if (given.length === 0) {
			if (field.required) return { problem: `"${field.label}" is required.` };
			answers[field.label] = field.multiple ? [] : null;
			continue;
		}
		if (field.choices.length > 0) {
			const unknown = given.find((text) => !field.choices.includes(text));
			if (unknown !== undefined) return { problem: `"${field.label}" has no option "${unknown.slice(0, 80)}".` };
			if (!field.multiple && given.length > 1) return { problem: `"${field.label}" takes one option.` };
			answers[field.label] = field.multiple ? [...new Set(given)] : given[0];
			continue;
		}
		if (given.length > 1) return { problem: `"${field.label}" takes one answer.` };
		const text = given[0];
		if (field.type === 'number') {
			const number = Number(text);
			if (text.length > 40 || !Number.isFinite(number)) return { problem: `"${field.label}" must be a number.` };
			answers[field.label] = number;
		} else if (field.type === 'email' && !EMAIL.test(text)) {
			return { problem: `"${field.label}" must be an email address.` };
		} else if (field.type === 'date' && (!DATE.test(text) || Number.isNaN(new Date(text).getTime()))) {
			return { problem: `"${field.label}" must be a date (YYYY-MM-DD).` };
		} else {
			answers[field.label] = text;
		}
	}
	return { answers };
}
