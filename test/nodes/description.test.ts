import { NodeHelpers, Workflow } from 'n8n-workflow';
import type { INode, INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { OPERATIONS } from '../../nodes/MessagingInstance/actions';
import { ACTION_TYPE, nodeTypes } from '../harness/nodeTypes';

/** What the editor shows: the parameters of a new node and the subtitle on the canvas. */

const description = new MessagingInstance().description;

/** The parameters n8n saves for a new node with the given resource and operation (options never opened). */
function savedParameters(chosen: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, chosen, true, false, null, description) ?? {};
}

function subtitleOf(parameters: INodeParameters): unknown {
	const node: INode = { id: 'n', name: 'Messaging Instance', type: ACTION_TYPE, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle as string, 'internal', {});
}

describe('the action node in the editor', () => {
	test('a new node is Message → Send Text, and its subtitle reads "Send Text · Message"', () => {
		const parameters = savedParameters({});
		expect(parameters).toMatchObject({ resource: 'message', operation: 'sendText' });
		expect(subtitleOf(parameters)).toBe('Send Text · Message');
	});

	test.each(OPERATIONS.map((operation) => [operation.resource, operation.value, operation.name]))(
		'%s → %s is in its resource\'s dropdown and its subtitle names it "%s"',
		(resource, operation, name) => {
			const dropdowns = description.properties.filter(
				(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource),
			);
			expect(dropdowns).toHaveLength(1);
			expect(dropdowns[0].options?.map((option) => (option as { value: string }).value)).toContain(operation);
			expect(subtitleOf(savedParameters({ resource, operation }))).toMatch(new RegExp(`^${name} · `));
		},
	);

	test('each resource defaults to one of its own operations', () => {
		for (const dropdown of description.properties.filter((property) => property.name === 'operation')) {
			const values = dropdown.options?.map((option) => (option as { value: string }).value);
			expect(values).toContain(dropdown.default);
		}
	});

	test('labels are English title case with plain units', () => {
		const names: string[] = [];
		const walk = (properties: unknown[]) => {
			for (const property of properties as Array<{ displayName?: string; options?: unknown[]; values?: unknown[] }>) {
				if (property.displayName) names.push(property.displayName);
				if (Array.isArray(property.options)) walk(property.options);
				if (Array.isArray(property.values)) walk(property.values);
			}
		};
		walk(description.properties);
		expect(names.filter((name) => /\(Ms\)|Qrcode/.test(name))).toEqual([]);
	});

	// The editor formats a number field to its numberPrecision: Quiet Seconds' 8 read "8.0".
	test('a number field whose default is whole shows it whole: no decimals forced on it', () => {
		const forced: string[] = [];
		const walk = (properties: unknown[]) => {
			for (const property of properties as Array<{ displayName?: string; type?: string; default?: unknown; typeOptions?: { numberPrecision?: number }; options?: unknown[]; values?: unknown[] }>) {
				if (property.type === 'number' && Number.isInteger(property.default) && (property.typeOptions?.numberPrecision ?? 0) > 0) forced.push(String(property.displayName));
				if (Array.isArray(property.options)) walk(property.options);
				if (Array.isArray(property.values)) walk(property.values);
			}
		};
		walk(description.properties);
		expect(forced).toEqual([]);
	});

	// The longest a collection option's label may be and still show whole beside its neighbours
	// ("Pause Between Messages: At Least (Seconds)" was cut to "Pause Between Messages: At ...").
	test('the Sending options have labels that fit: at most 28 characters', () => {
		const sending = description.properties.filter((property) => property.name === 'sending');
		expect(sending.length).toBeGreaterThan(0);
		const labels = new Set(sending.flatMap((property) => (property.options ?? []).map((option) => String((option as { displayName: string }).displayName))));
		expect([...labels].filter((label) => label.length > 28)).toEqual([]);
		expect([...labels]).toEqual(expect.arrayContaining(['Pause At Least (Seconds)', 'Pause At Most (Seconds)']));
	});
});

describe('the Instance field', () => {
	const instanceFields = (version: number, resource: string, operation: string) => {
		const node = { typeVersion: version, parameters: {} } as unknown as INode;
		const parameters = NodeHelpers.getNodeParameters(description.properties, { resource, operation }, true, false, node, description) ?? {};
		return parameters.instance;
	};

	test('version 1 keeps the name as text, version 2 (a new node) offers the picker', () => {
		expect(instanceFields(1, 'message', 'sendText')).toBe('');
		expect(instanceFields(2, 'message', 'sendText')).toEqual({ __rl: true, mode: 'list', value: '' });
		expect(description.defaultVersion).toBe(2);
	});

	test.each([
		['instance', 'create'],
		['instance', 'getMany'],
	])('%s → %s (a route of the whole server) has none', (resource, operation) => {
		expect(instanceFields(2, resource, operation)).toBeUndefined();
		expect(instanceFields(1, resource, operation)).toBeUndefined();
	});

	test.each([
		['instance', 'connect'],
		['group', 'create'],
		['message', 'getMany'],
	])('%s → %s has one', (resource, operation) => {
		expect(instanceFields(2, resource, operation)).toEqual({ __rl: true, mode: 'list', value: '' });
	});
});
