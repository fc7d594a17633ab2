import type { INodeProperties } from 'n8n-workflow';

import { quoted } from './normalise';

/**
 * The options of option-type fields, by field path (`name`, `collection.option`,
 * `collection.group.value`): what ItemParameters checks every resolved value against, an
 * expression's too, so no operation sends a value the server's enum refuses.
 */
export type FieldChoices = Map<string, Set<string>>;

/** Adds a field's options under its path; fields of one path shown under other conditions add theirs. */
export function addChoices(choices: FieldChoices, path: string, property: INodeProperties): void {
	if ((property.type !== 'options' && property.type !== 'multiOptions') || !Array.isArray(property.options)) return;
	// options loaded from the server are not known here
	if (property.typeOptions?.loadOptionsMethod !== undefined) return;
	const known = choices.get(path) ?? new Set<string>();
	for (const option of property.options) if ('value' in option) known.add(String((option as { value: unknown }).value));
	choices.set(path, known);
}

/** What is wrong with a value of a field with these options (one value, or a list of them), or undefined. */
export function choiceProblem(allowed: ReadonlySet<string>, value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const given = Array.isArray(value) ? value : [value];
	const wrong = given.find((entry) => !((typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean') && allowed.has(String(entry))));
	if (wrong === undefined) return undefined;
	const named = [...allowed].slice(0, 12).map((option) => quoted(option));
	const list = `${named.join(', ')}${allowed.size > 12 ? ` and ${allowed.size - 12} more` : ''}`;
	return `must be one of ${list}, not ${describe(wrong)}`;
}

function describe(value: unknown): string {
	if (typeof value === 'string') return quoted(value);
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
