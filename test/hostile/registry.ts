import type { IDataObject, INodeParameters, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/MessagingInstance/actions/index';
import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { isSecretName } from '../../nodes/shared/redact';

/**
 * What the hostile tiers know of an operation, derived from the registry alone: its fields
 * (type, where they sit), a parameter set that fills every required field, its secret fields
 * (by name, as the redaction finds them) and the routes it may call. The tiers
 * (registryTiers.test.ts) take every operation of `OPERATIONS` through here, so an operation
 * added tomorrow is fed to them the day it is added; a field of a type no generator below
 * understands fails the contract test instead of being skipped.
 */

/** A field of an operation: where it is (`name`, `collection.option`), its property. */
export interface Field {
	path: string;
	property: INodeProperties;
	/** A top-level field, which an expression can map as a whole. */
	topLevel: boolean;
	/** A field whose value the redaction treats as a secret (by its name). */
	secret: boolean;
}

/** The property types a generator below understands. */
const GENERATED = new Set(['string', 'number', 'boolean', 'options', 'multiOptions', 'collection', 'fixedCollection', 'resourceLocator', 'json', 'dateTime', 'color', 'notice']);

function isGroup(option: unknown): option is INodePropertyCollection {
	return typeof option === 'object' && option !== null && Array.isArray((option as { values?: unknown }).values);
}

/** Every field of the operation, nested options of collections included. */
export function fieldsOf(operation: Operation): Field[] {
	const fields: Field[] = [];
	const visit = (property: INodeProperties, path: string, topLevel: boolean) => {
		fields.push({ path, property, topLevel, secret: isSecretName(property.name) });
		for (const option of property.options ?? []) {
			if (isGroup(option)) for (const value of option.values) visit(value, `${path}.${option.name}.${value.name}`, false);
			else if (property.type === 'collection' && 'type' in option) visit(option as INodeProperties, `${path}.${option.name}`, false);
		}
	};
	for (const property of operation.properties) visit(property, property.name, true);
	return fields;
}

/** Fields of a type no generator understands: the contract test lists them. */
export function unknownFields(operations: readonly Operation[] = OPERATIONS): string[] {
	return operations.flatMap((operation) =>
		fieldsOf(operation)
			.filter((field) => !GENERATED.has(field.property.type))
			.map((field) => `${operation.resource}/${operation.value}: ${field.path} (${field.property.type})`),
	);
}

/** A value a server would take for a text field, by what its name says it holds. */
function textFor(property: INodeProperties): string {
	const name = property.name.toLowerCase();
	if (isSecretName(property.name)) return `secret-${property.name}-0123456789`;
	if (/number|jid|chat|participant|contact|recipient|statusjidlist/.test(name)) return '5511999990000';
	if (/url|link|webhook|host/.test(name)) return name.includes('host') ? 'proxy.example.com' : 'https://files.example.com/a.png';
	if (/port/.test(name)) return '8080';
	if (/email/.test(name)) return 'someone@example.com';
	if (/colou?r/.test(name)) return '#112233';
	return 'value-1';
}

/** A valid value of one field, from its type. */
export function valueFor(property: INodeProperties): unknown {
	switch (property.type) {
		case 'string':
			return property.default !== '' && property.default !== undefined ? property.default : textFor(property);
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: textFor(property) };
		case 'color':
			return '#112233';
		case 'dateTime':
			return '2026-01-01T10:00:00Z';
		case 'json':
			return property.default ?? '{}';
		default:
			return property.default;
	}
}

/** A parameter set a new node of this operation has, with every required field filled. */
export function baselineOf(operation: Operation): INodeParameters {
	const parameters: IDataObject = { resource: operation.resource, operation: operation.value };
	for (const field of fieldsOf(operation)) {
		if (!field.topLevel || field.property.type === 'notice') continue;
		if (field.property.required || field.property.type === 'resourceLocator' || field.secret) parameters[field.property.name] = valueFor(field.property) as IDataObject;
	}
	return parameters as INodeParameters;
}

/** The top-level fields an expression can map: where a hostile value goes. */
export function mappableFields(operation: Operation): Field[] {
	return fieldsOf(operation).filter((field) => field.topLevel && field.property.type !== 'notice' && !field.property.noDataExpression);
}

/** The secret fields an operation sends (top-level or nested), with the value the baseline gives them. */
export function secretFieldsOf(operation: Operation): Field[] {
	return fieldsOf(operation).filter((field) => field.secret && field.topLevel && field.property.type === 'string');
}

/** The tiers' plan for a list of operations: what each of the three tiers will run, by operation. */
export function tierPlan(operations: readonly Operation[]) {
	return operations.map((operation) => ({
		key: `${operation.resource}/${operation.value}`,
		baseline: baselineOf(operation),
		hostileValueFields: mappableFields(operation).map((field) => field.path),
		secretFields: secretFieldsOf(operation).map((field) => field.path),
	}));
}
