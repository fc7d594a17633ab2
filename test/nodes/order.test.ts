import type { INodePropertyOptions } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { OPERATIONS } from '../../nodes/MessagingInstance/actions';

/**
 * The order a user meets the actions in. n8n's node creator lists a node's actions by walking
 * the `resource` options in the order of the description and, for each, the options of the
 * `operation` dropdown shown for it, in their order; the same order the dropdowns show.
 */

const description = new MessagingInstance().description;

function optionsOf(name: string, resource?: string): INodePropertyOptions[] {
	const property = description.properties.find(
		(candidate) =>
			candidate.name === name &&
			(resource === undefined || (candidate.displayOptions?.show?.resource ?? []).includes(resource)),
	);
	return (property?.options ?? []) as INodePropertyOptions[];
}

/** The node creator's action list: resources in description order, operations in option order. */
function creatorActions(): string[] {
	return optionsOf('resource').flatMap((resource) =>
		optionsOf('operation', resource.value as string).map((operation) => `${resource.name} → ${operation.name}`),
	);
}

describe('the order of resources and operations', () => {
	test('Message is the first resource, then Chat, Contact, Group, Profile, Instance, Label, Setting, Webhook, then the integrations', () => {
		expect(optionsOf('resource').map((option) => option.value)).toEqual([
			'message',
			'chat',
			'contact',
			'group',
			'profile',
			'instance',
			'label',
			'settings',
			'webhook',
			'template',
			'business',
			'proxy',
			'chatwoot',
			'storage',
			'chatbot',
			'eventIntegration',
		]);
	});

	test('Message lists Send Text first, the sends before the reads, and defaults to Send Text', () => {
		const message = description.properties.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes('message'),
		);
		const values = optionsOf('operation', 'message').map((option) => option.value as string);
		expect(values.slice(0, 4)).toEqual(['sendText', 'sendMedia', 'sendAndWait', 'sendAudio']);
		expect(message?.default).toBe('sendText');
		const lastSend = Math.max(...values.map((value, index) => (value.startsWith('send') ? index : -1)));
		expect(lastSend).toBeLessThan(values.indexOf('getMany'));
		expect(lastSend).toBeLessThan(values.indexOf('downloadMedia'));
	});

	test('the node creator lists Send Text first of all the actions, and every operation once', () => {
		const actions = creatorActions();
		expect(actions[0]).toBe('Message → Send Text');
		expect(actions).toHaveLength(OPERATIONS.length);
		expect(new Set(actions).size).toBe(OPERATIONS.length);
	});

	// The order is the path a user walks (test/contract/operationOrder.test.ts), so the default is
	// not always listed first. It never moves: n8n saves no parameter that holds its default, so
	// a node saved with its resource's default operation stores no `operation` at all, and a new
	// default would silently change what that node does.
	test('each resource keeps the default operation it always had, one of its own', () => {
		const defaults = Object.fromEntries(
			optionsOf('resource').map((resource) => {
				const dropdown = description.properties.find(
					(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value as string),
				);
				expect(optionsOf('operation', resource.value as string).map((option) => option.value)).toContain(dropdown?.default);
				return [resource.value, dropdown?.default];
			}),
		);
		expect(defaults).toEqual({
			message: 'sendText',
			chat: 'checkNumbers',
			contact: 'getMany',
			group: 'getMany',
			profile: 'updateName',
			instance: 'getState',
			label: 'getMany',
			settings: 'set',
			webhook: 'set',
			template: 'getMany',
			business: 'getCatalog',
			proxy: 'set',
			chatwoot: 'set',
			storage: 'getMedia',
			chatbot: 'getMany',
			eventIntegration: 'get',
		});
	});

	test('each resource\'s operations stand together in the registry, the resources in the order of their dropdown', () => {
		const resources = OPERATIONS.map((operation) => operation.resource).filter((resource, index, all) => index === 0 || all[index - 1] !== resource);
		expect(resources).toEqual(optionsOf('resource').map((option) => option.value));
	});
});
