import { OPERATIONS } from '../../nodes/MessagingInstance/actions/index';
import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { describeRegistryTiers, keyOf } from './registryTierSuite';
import { tierPlan, unknownFields } from './registry';

/**
 * The three hostile tiers (hostile values, hostile server, secret echo) over EVERY operation
 * of the registry: see registryTierSuite.ts. The helper requests' tiers: helperRequests.test.ts.
 */

describe('contract: every field of every operation has a generator', () => {
	test('no operation has a field of a type the tiers cannot fill', () => {
		expect(unknownFields()).toEqual([]);
	});

	test('a field of an unknown type is reported, naming the operation and the field', () => {
		const scratch = { ...OPERATIONS[0], value: 'scratch', properties: [{ displayName: 'Odd', name: 'odd', type: 'assignmentCollection', default: {} }] } as unknown as Operation;
		expect(unknownFields([scratch])).toEqual(['message/scratch: odd (assignmentCollection)']);
	});

	test('a scratch operation is picked up by all three tiers without touching them', () => {
		const scratch: Operation = {
			resource: 'message',
			value: 'scratchSend',
			name: 'Scratch Send',
			action: 'Send a scratch',
			description: 'A scratch operation of this test',
			path: '/message/scratch',
			properties: [
				{ displayName: 'Chat', name: 'remoteJid', type: 'string', default: '', required: true },
				{ displayName: 'Webhook Password', name: 'password', type: 'string', typeOptions: { password: true }, default: '' },
				{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [{ displayName: 'Delay', name: 'delay', type: 'number', default: 0 }] },
			],
		};
		const [plan] = tierPlan([...OPERATIONS, scratch]).filter((entry) => entry.key === 'message/scratchSend');
		expect(plan).toEqual({
			key: 'message/scratchSend',
			baseline: { resource: 'message', operation: 'scratchSend', remoteJid: '5511999990000', password: 'secret-password-0123456789' },
			hostileValueFields: ['remoteJid', 'password', 'options'],
			secretFields: ['password'],
		});
	});

	test('every operation of the registry is in the plan', () => {
		expect(tierPlan(OPERATIONS).map((entry) => entry.key)).toEqual(OPERATIONS.map(keyOf));
	});
});

describeRegistryTiers(OPERATIONS);
