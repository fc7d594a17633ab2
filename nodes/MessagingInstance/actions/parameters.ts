import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeParameterValueType,
} from 'n8n-workflow';

import { inputError } from '../../shared/errors';
import { choiceProblem } from './choices';
import type { FieldLabels, NumberRule } from './fieldLabels';
import { queryValueProblem, segmentProblem } from '../../shared/requestParts';
import { normaliseRecipient, quoted, splitList, unique } from './normalise';

function containsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(containsExpression);
	if (value && typeof value === 'object') return Object.values(value).some(containsExpression);
	return false;
}

/**
 * `={{ $json.field }}`, `={{ $json.a.b }}`, `={{ $json["a b"] }}`: the whole parameter is one
 * field of the input item — what n8n's editor writes when a field is dragged into a
 * parameter, so most mapped parameters look like this.
 */
const SEGMENT = String.raw`\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\]`;
const PATH_SEGMENT = new RegExp(SEGMENT, 'g');
const FIELD_REFERENCE = new RegExp(String.raw`^=\{\{\s*\$json((?:\s*(?:${SEGMENT}))+)\s*\}\}$`);
/** Names n8n's expression sandbox guards; such a path goes to n8n's engine. */
const GUARDED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** The field path of a parameter that is a plain field reference, else undefined. */
export function fieldReferencePath(stored: unknown): string[] | undefined {
	if (typeof stored !== 'string') return undefined;
	const match = FIELD_REFERENCE.exec(stored);
	if (!match) return undefined;
	const path: string[] = [];
	for (const segment of match[1].matchAll(PATH_SEGMENT)) {
		const name = segment[1] ?? segment[2] ?? segment[3];
		if (GUARDED_NAMES.has(name)) return undefined;
		path.push(name);
	}
	return path;
}

/**
 * The value at `path` in an item's JSON when it is a string, a finite number or a boolean —
 * the values n8n's engine hands back unchanged. Anything else (missing, null, an object, an
 * inherited property) is undefined, and n8n's engine decides, with its own errors.
 */
export function readField(json: unknown, path: readonly string[]): string | number | boolean | undefined {
	let value: unknown = json;
	for (const name of path) {
		if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, name)) {
			return undefined;
		}
		value = (value as Record<string, unknown>)[name];
	}
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	return undefined;
}

/**
 * The node's parameters for one execution, read the cheapest way that gives n8n's own answer:
 * - a parameter without an expression has the same value for every item: resolved once;
 * - a parameter that is a plain field reference is read from the item itself: n8n's engine
 *   would spend most of the node's time per item (an isolate round trip per parameter) to
 *   return the same value;
 * - every other expression is evaluated by n8n per item.
 */
export class ParameterSource {
	private readonly constants = new Map<string, unknown>();

	private readonly fieldPaths = new Map<string, string[] | undefined>();

	private readonly stored: Record<string, NodeParameterValueType | object>;

	private readonly items: INodeExecutionData[];

	constructor(readonly ctx: IExecuteFunctions) {
		this.stored = ctx.getNode().parameters;
		this.items = ctx.getInputData();
	}

	get(name: string, itemIndex: number, fallback: unknown): unknown {
		if (this.constants.has(name)) return this.constants.get(name);
		const path = this.fieldPath(name);
		if (path) {
			const value = readField(this.items[itemIndex]?.json, path);
			if (value !== undefined) return value;
		}
		const value = this.ctx.getNodeParameter(name, itemIndex, fallback);
		if (!containsExpression(this.stored[name])) this.constants.set(name, value);
		return value;
	}

	/** Whether the node holds the parameter (a field hidden by its display conditions has none). */
	has(name: string): boolean {
		return Object.prototype.hasOwnProperty.call(this.stored, name);
	}

	private fieldPath(name: string): string[] | undefined {
		if (!this.fieldPaths.has(name)) this.fieldPaths.set(name, fieldReferencePath(this.stored[name]));
		return this.fieldPaths.get(name);
	}
}

export { fieldLabels, type FieldLabels } from './fieldLabels';

/** No number is taken past what JavaScript holds exactly: 2^53 + 2 would be sent as another number. */
const SAFE_RANGE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** What a value is, in words, for an error about its type. */
function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What a picker (resource locator) stores: the chosen or typed value, and how it was given. */
function isPickerValue(value: unknown): value is { __rl: true; value: unknown } {
	return typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;
}

/**
 * Reads one item's parameters. Every getter names the field by its label, so an input error
 * says which field of which item is wrong, and nothing has been sent yet. A value of the
 * wrong type (an object where text is expected, a fraction where digits are) is an error,
 * never sent as its JavaScript text.
 */
export class ItemParameters {
	constructor(
		private readonly source: ParameterSource,
		readonly itemIndex: number,
		private readonly labels: FieldLabels = new Map(),
	) {}

	/** The label the user sees for a field (`name`, or `collection.option`); the name when it has none. */
	label(path: string): string {
		return this.labels.get(path) ?? path;
	}

	/** A field's value as n8n resolves it; an option-type field's value is one of its options. */
	raw<T>(name: string, fallback?: T): T {
		const value = this.source.get(name, this.itemIndex, fallback);
		this.checkChoice(name, value);
		return value as T;
	}

	/**
	 * Every option-type field of the operation (top level; an option of a collection when the
	 * collection is read) holds one of its options: checked for each item before its request is
	 * built, so no operation can send a value the server's enum refuses.
	 */
	checkChoices(): void {
		for (const path of this.labels.choices?.keys() ?? []) {
			if (!path.includes('.') && this.source.has(path)) this.checkChoice(path, this.source.get(path, this.itemIndex, null));
		}
	}

	/**
	 * An option-type field's value (also one an expression gave) is one of its options, or
	 * nothing: a value the server's enum refuses fails here, before any request.
	 */
	private checkChoice(path: string, value: unknown): void {
		const allowed = this.labels.choices?.get(path);
		const problem = allowed && choiceProblem(allowed, value);
		if (problem) this.fail(this.label(path), problem);
	}

	fail(label: string, problem: string, hint?: string): never {
		throw inputError(this.source.ctx.getNode(), this.itemIndex, label, problem, hint);
	}

	/** Text from a value: strings as they are, finite numbers and booleans as written; else an error. */
	checkText(value: unknown, label: string): string {
		if (value === null || value === undefined) return '';
		if (isPickerValue(value)) return this.checkText(value.value, label);
		if (typeof value === 'string') return value;
		if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
		return this.fail(label, `must be text, not ${kindOf(value)}`);
	}

	/** A required text: blank is an error. */
	text(name: string, label = this.label(name)): string {
		const text = this.checkText(this.raw<unknown>(name, ''), label);
		if (text.trim() === '') this.fail(label, 'is required');
		return text;
	}

	/** A text the contract requires but the user may leave empty: sent as "". */
	textOrEmpty(name: string, label = this.label(name)): string {
		return this.checkText(this.raw<unknown>(name, ''), label);
	}

	/**
	 * An id given as text or digits. A number is taken only when JavaScript holds it exactly: past
	 * 2^53 its last digits were already rounded by whatever made it a number.
	 */
	identifier(name: string, label = this.label(name)): string {
		const value = this.raw<unknown>(name, '');
		const given = isPickerValue(value) ? value.value : value;
		if (typeof given === 'number' && !Number.isSafeInteger(given)) {
			this.fail(label, 'must be written as text: as a number its digits are already rounded', 'Keep the ID as text wherever it comes from (e.g. "120363000000000000@g.us"), or type it.');
		}
		return this.text(name, label);
	}

	/** The instance of the path: required, and never a name that the URL would resolve away. */
	instanceName(): string {
		const label = this.label('instance');
		const instance = this.text('instance', label).trim();
		const problem = segmentProblem(instance);
		if (problem) this.fail(label, problem);
		return instance;
	}

	/**
	 * An id that goes into the request's path as one segment, encoded: required, never `.` or
	 * `..` (however encoded), and of a length a URL can carry. Every id of a path is read here.
	 */
	pathSegment(name: string, label = this.label(name)): string {
		const id = this.identifier(name, label).trim();
		const problem = segmentProblem(id);
		if (problem) this.fail(label, problem);
		return encodeURIComponent(id);
	}

	/** Every value of a request's query, checked for a length a URL can carry, each named by its field's label. */
	checkQuery(query: IDataObject | undefined): void {
		for (const [name, value] of Object.entries(query ?? {})) {
			const problem = queryValueProblem(value);
			if (problem) this.fail(this.label(name), problem);
		}
	}

	/** A switch: true or false (also the texts "true" and "false" an expression may give). */
	flag(name: string, label = this.label(name)): boolean {
		return this.checkFlag(this.raw<unknown>(name, false), label);
	}

	checkFlag(value: unknown, label: string): boolean {
		if (value === undefined || value === null || value === false || value === 'false') return false;
		if (value === true || value === 'true') return true;
		return this.fail(label, `must be true or false, not ${typeof value === 'string' ? quoted(value) : kindOf(value)}`);
	}

	number(name: string, rule: NumberRule = {}, label = this.label(name)): number {
		return this.checkNumber(this.raw<unknown>(name), label, rule);
	}

	/**
	 * A number within the operation's rule, else within the range the field declares, and never
	 * past what JavaScript holds exactly (±2^53 − 1): a number field has a maximum however it is set.
	 */
	checkNumber(value: unknown, label: string, given: NumberRule = {}): number {
		const declared = this.labels.ranges?.get(label);
		const rule: NumberRule = {
			integer: given.integer,
			min: Math.max(given.min ?? declared?.min ?? SAFE_RANGE.min, SAFE_RANGE.min),
			max: Math.min(given.max ?? declared?.max ?? SAFE_RANGE.max, SAFE_RANGE.max),
		};
		const parsed = typeof value === 'string' && value.trim() !== '' && value.length <= 40 ? Number(value) : value;
		if (typeof parsed !== 'number' || !Number.isFinite(parsed)) {
			this.fail(label, 'must be a number');
		}
		if (rule.integer && !Number.isInteger(parsed)) this.fail(label, 'must be a whole number');
		const min = rule.min as number;
		const max = rule.max as number;
		const between = `must be between ${min} and ${max}`;
		if (parsed < min) this.fail(label, max === SAFE_RANGE.max ? `must be at least ${min}` : between);
		if (parsed > max) this.fail(label, min === SAFE_RANGE.min ? `must be at most ${max}` : between);
		return parsed;
	}

	/** A phone number (normalised to digits) or a JID (trimmed). */
	recipient(name: string, anyJid = false, label = this.label(name)): string {
		return this.checkRecipient(this.raw<unknown>(name, ''), label, anyJid);
	}

	/** A chat as the server's stored messages name it: a JID as given, a phone number as its `…@s.whatsapp.net` JID. */
	chatJid(name: string, label = this.label(name)): string {
		const recipient = this.recipient(name, true, label);
		return recipient.includes('@') ? recipient : `${recipient}@s.whatsapp.net`;
	}

	/** With `anyJid`, a JID with any user part (a message key's chat, e.g. `status@broadcast`). */
	checkRecipient(value: unknown, label: string, anyJid = false): string {
		if (typeof value === 'number' && !Number.isSafeInteger(value)) {
			// 5511999990000.5 or a number past 2^53 would be sent as other digits.
			this.fail(label, 'must be a phone number with country code, written as text or as a whole number');
		}
		const normalised = normaliseRecipient(this.checkText(value, label), anyJid);
		if ('problem' in normalised) {
			this.fail(
				label,
				normalised.problem,
				'Enter the number with country code, e.g. +55 11 99999-0000, or a JID such as 5511999990000@s.whatsapp.net.',
			);
		}
		return normalised.value;
	}

	/**
	 * Numbers or JIDs separated by commas or new lines (or a list), each normalised like a
	 * recipient; a repeated entry is sent once, since v2.x servers refuse repeats.
	 */
	recipientList(name: string, label = this.label(name)): string[] {
		return this.checkRecipientList(this.raw<unknown>(name, ''), label);
	}

	checkRecipientList(value: unknown, label: string): string[] {
		const entries = Array.isArray(value)
			? value.map((entry, position) => this.checkText(entry, `${label} (entry ${position + 1})`))
			: this.checkText(value, label);
		const items = splitList(entries);
		return unique(items.map((item, position) => this.checkRecipient(item, `${label} (entry ${position + 1})`)));
	}

	/**
	 * A file of the item's binary data, read with n8n's helpers (so data kept on disk or in
	 * the database works too). A missing or empty file names the field, the item and the
	 * files the item does have.
	 */
	async binaryFile(name: string, label = this.label(name)): Promise<{ data: Buffer; mimeType: string; fileName?: string }> {
		const property = this.text(name, label).trim();
		const item = this.source.ctx.getInputData()[this.itemIndex];
		const binary = item?.binary?.[property];
		if (!binary) {
			const present = Object.keys(item?.binary ?? {});
			this.fail(
				label,
				`names no file of this item (${quoted(property)})`,
				present.length > 0
					? `The item's binary fields are: ${present.slice(0, 10).join(', ')}. Enter one of them.`
					: 'The item has no binary data. Add a node before this one that reads or makes a file (e.g. Read/Write Files, HTTP Request, Convert to File).',
			);
		}
		const data = await this.source.ctx.helpers.getBinaryDataBuffer(this.itemIndex, property);
		if (data.length === 0) this.fail(label, `names an empty file (${quoted(property)})`);
		return { data, mimeType: binary.mimeType, fileName: binary.fileName };
	}

	/** An options collection: an object, or nothing. */
	collection(name: string, label = this.label(name)): IDataObject {
		const value = this.raw<unknown>(name, {});
		if (value === undefined || value === null) return {};
		if (typeof value !== 'object' || Array.isArray(value)) this.fail(label, `must be a collection of options, not ${kindOf(value)}`);
		for (const [key, entry] of Object.entries(value as IDataObject)) {
			this.checkChoice(`${name}.${key}`, entry);
			// a fixed collection's groups: one entry, or a list of them
			for (const group of Array.isArray(entry) ? entry : [entry]) {
				if (group === null || typeof group !== 'object' || Array.isArray(group)) continue;
				for (const [field, fieldValue] of Object.entries(group as IDataObject)) this.checkChoice(`${name}.${key}.${field}`, fieldValue);
			}
		}
		return value as IDataObject;
	}
}
