import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { addChoices, type FieldChoices } from './choices';

/** A number field's range: what the editor keeps a typed number in, and what an expression is checked against. */
export interface NumberRule {
	min?: number;
	max?: number;
	integer?: boolean;
}

/**
 * Where a field is, by name (`text`, or `options.delay` for an option of a collection): the
 * label the editor shows; for an option-type field the values its options allow; and, by
 * label, the range each number field declares (`typeOptions.minValue`/`maxValue`): the editor
 * keeps a typed number in it, an expression is checked against it (ItemParameters).
 */
export interface FieldLabels extends ReadonlyMap<string, string> {
	readonly choices?: ReadonlyMap<string, ReadonlySet<string>>;
	readonly ranges?: ReadonlyMap<string, NumberRule>;
}

function rangeOf(property: INodeProperties): NumberRule | undefined {
	if (property.type !== 'number') return undefined;
	const min = property.typeOptions?.minValue;
	const max = property.typeOptions?.maxValue;
	return { ...(typeof min === 'number' ? { min } : {}), ...(typeof max === 'number' ? { max } : {}) };
}

function isPropertyCollection(option: unknown): option is INodePropertyCollection {
	return typeof option === 'object' && option !== null && Array.isArray((option as { values?: unknown }).values);
}

/**
 * The labels the editor shows for an operation's fields, so an error names a field the way
 * the user sees it: `name` → its display name, `collection.option` → "Collection: Option",
 * and for a fixed collection `collection.group` → "Collection: Group" and
 * `collection.group.value` → "Collection: Group: Value". Fields of the same name shown under
 * different conditions (a platform's own Bot Type) allow the options of all of them.
 */
export function fieldLabels(properties: readonly INodeProperties[]): FieldLabels {
	const labels = new Map<string, string>();
	const choices: FieldChoices = new Map();
	const ranges = new Map<string, NumberRule>();
	const add = (path: string, label: string, property: INodeProperties) => {
		if (!labels.has(path)) labels.set(path, label);
		addChoices(choices, path, property);
		const range = rangeOf(property);
		if (range && !ranges.has(label)) ranges.set(label, range);
	};
	for (const property of properties) {
		add(property.name, property.displayName, property);
		for (const option of property.options ?? []) {
			if (isPropertyCollection(option)) {
				const group = `${property.name}.${option.name}`;
				labels.set(group, `${property.displayName}: ${option.displayName}`);
				for (const value of option.values) {
					add(`${group}.${value.name}`, `${property.displayName}: ${option.displayName}: ${value.displayName}`, value);
				}
			} else if ('displayName' in option && property.type === 'collection') {
				add(`${property.name}.${option.name}`, `${property.displayName}: ${option.displayName}`, option as INodeProperties);
			}
		}
	}
	return Object.assign(labels, { choices, ranges });
}
