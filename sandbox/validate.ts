/**
 * A tiny JSON-schema subset validator for the sandbox.
 *
 * The real server validates request bodies with the `jsonschema` npm library and answers
 * every error's `stack` with the leading `instance.` removed, or the failing schema's
 * `description` when it has one (that is how `number` errors all read "Invalid format"
 * and `delay` errors "Enter a value in milliseconds"). The strings produced here are
 * modelled on that library's messages:
 *
 *   instance requires property "text"            (required, at the top level)
 *   quoted.key requires property "id"            (required, nested: path without `instance.`)
 *   text is not of a type(s) string              (type)
 *   presence is not one of enum values: a,b,c    (enum)
 *   events does not meet minimum length of 1     (minItems / minLength)
 *   buttons does not meet maximum length of 3    (maxItems / maxLength)
 *   mentioned contains duplicate item            (uniqueItems)
 *   x does not match pattern "^\\d+"             (pattern)
 *   font must be greater than or equal to 1      (minimum / maximum)
 *
 * Written for the sandbox; only the keywords the sandbox schemas use are supported.
 * Unknown properties are never rejected (the real schemas do not reject them either).
 */

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface Schema {
	type?: SchemaType | SchemaType[];
	description?: string;
	properties?: Record<string, Schema>;
	required?: string[];
	/** schema applied to every property value not listed in `properties` */
	additionalProperties?: Schema;
	items?: Schema;
	enum?: unknown[];
	minItems?: number;
	maxItems?: number;
	uniqueItems?: boolean;
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	minimum?: number;
	maximum?: number;
	/** the value must match exactly one of these */
	oneOf?: Schema[];
	/** for each entry whose predicate holds for the (object) value, the value is also checked against `then` */
	when?: Array<{ test: (value: Record<string, unknown>) => boolean; then: Schema }>;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(parent: string, key: string | number): string {
	if (typeof key === 'number') return `${parent}[${key}]`;
	return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

function typeOf(value: unknown): SchemaType | 'undefined' {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	const t = typeof value;
	if (t === 'string' || t === 'boolean' || t === 'object') return t;
	return 'undefined';
}

function matchesType(value: unknown, type: SchemaType): boolean {
	const actual = typeOf(value);
	if (type === 'number') return actual === 'number' || actual === 'integer';
	return actual === type;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** Validates `value` against `schema`; returns the error strings as the real server words them. */
export function validate(value: unknown, schema: Schema): string[] {
	const errors: string[] = [];
	walk(value, schema, 'instance', errors);
	return errors;
}

function walk(value: unknown, schema: Schema, path: string, errors: string[]): void {
	const push = (message: string): void => {
		if (schema.description) {
			errors.push(schema.description);
			return;
		}
		const stack = `${path} ${message}`;
		errors.push(stack.replace('instance.', ''));
	};

	if (schema.type !== undefined) {
		const types = Array.isArray(schema.type) ? schema.type : [schema.type];
		if (!types.some((t) => matchesType(value, t))) {
			push(`is not of a type(s) ${types.join(',')}`);
			return;
		}
	}
	if (schema.oneOf && schema.oneOf.filter((s) => validate(value, s).length === 0).length !== 1) {
		push(`is not exactly one from ${schema.oneOf.map((_s, i) => `[subschema ${i}]`).join(',')}`);
	}
	if (schema.enum && !schema.enum.some((e) => deepEqual(e, value))) {
		push(`is not one of enum values: ${schema.enum.map((e) => String(e)).join(',')}`);
	}
	if (typeof value === 'string') {
		if (schema.minLength !== undefined && [...value].length < schema.minLength) {
			push(`does not meet minimum length of ${schema.minLength}`);
		}
		if (schema.maxLength !== undefined && [...value].length > schema.maxLength) {
			push(`does not meet maximum length of ${schema.maxLength}`);
		}
		if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
			push(`does not match pattern ${JSON.stringify(schema.pattern)}`);
		}
	}
	if (typeof value === 'number') {
		if (schema.minimum !== undefined && value < schema.minimum) {
			push(`must be greater than or equal to ${schema.minimum}`);
		}
		if (schema.maximum !== undefined && value > schema.maximum) {
			push(`must be less than or equal to ${schema.maximum}`);
		}
	}
	if (Array.isArray(value)) {
		if (schema.minItems !== undefined && value.length < schema.minItems) {
			push(`does not meet minimum length of ${schema.minItems}`);
		}
		if (schema.maxItems !== undefined && value.length > schema.maxItems) {
			push(`does not meet maximum length of ${schema.maxItems}`);
		}
		if (schema.uniqueItems) {
			const seen = new Set<string>();
			for (const item of value) {
				const k = JSON.stringify(item);
				if (seen.has(k)) {
					push('contains duplicate item');
					break;
				}
				seen.add(k);
			}
		}
		if (schema.items) {
			value.forEach((item, i) => walk(item, schema.items as Schema, childPath(path, i), errors));
		}
	}
	if (isPlainObject(value)) {
		const props = schema.properties ?? {};
		for (const [key, sub] of Object.entries(props)) {
			if (value[key] !== undefined) walk(value[key], sub, childPath(path, key), errors);
		}
		if (schema.additionalProperties) {
			for (const [key, v] of Object.entries(value)) {
				if (!(key in props)) walk(v, schema.additionalProperties, childPath(path, key), errors);
			}
		}
		for (const key of schema.required ?? []) {
			if (value[key] === undefined) errors.push(`${path} requires property ${JSON.stringify(key)}`.replace('instance.', ''));
		}
		for (const cond of schema.when ?? []) if (cond.test(value)) walk(value, cond.then, path, errors);
	}
}
