import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { runNode } from '../harness/engine';
import { describeHelperTiers } from './helperTiers';
import { describeRegistryTiers } from './registryTierSuite';
import { scratch, undeclaredKey, undeclaredRoute } from './scratchOperations';
import { useHostileServer } from './server';

/**
 * A scratch operation added to the registry here only, with a read before its write and a
 * look-up before a resend: the registry's tiers and the helper requests' tiers take it as they
 * take every operation, without a line of theirs changed. And the contract: a request an
 * operation does not declare is refused before it is sent.
 */

jest.mock('../../nodes/MessagingInstance/actions/index', () => {
	const actual = jest.requireActual<typeof import('../../nodes/MessagingInstance/actions/index')>('../../nodes/MessagingInstance/actions/index');
	const { SCRATCHES } = jest.requireActual<typeof import('./scratchOperations')>('./scratchOperations');
	const shown = (operation: Operation) => ({ show: { resource: [operation.resource], operation: [operation.value] } });
	return {
		...actual,
		OPERATIONS: [...actual.OPERATIONS, ...SCRATCHES],
		findOperation: (resource: string, value: string) => SCRATCHES.find((operation) => operation.value === value) ?? actual.findOperation(resource, value),
		nodeProperties: [...actual.nodeProperties, ...SCRATCHES.flatMap((operation) => operation.properties.map((property) => ({ ...property, displayOptions: shown(operation) })))],
	};
});

describe('contract: a request an operation does not declare is refused before it is sent', () => {
	const hostile = useHostileServer();
	test.each([
		[undeclaredKey, 'Message → Scratch Read and Write made a request it does not declare (somethingElse); nothing was sent'],
		[undeclaredRoute, 'Message → Scratch Read and Write made a request it does not declare (The read of the chat: /instance/logout); nothing was sent'],
	])('%#: the item fails naming the request; the server sees nothing', async (operation, message) => {
		const result = await runNode({
			parameters: { instance: 'demo', resource: 'message', operation: operation.value, number: '5511999990000' },
			credentials: { baseUrl: hostile.current.url, apiKey: 'scratch-key-0123456789', dialect: 'v2', serverVersion: '2.4.0' },
		});
		expect(result.error?.message).toBe(message);
		expect(hostile.current.seen).toEqual([]);
	});
});

describeRegistryTiers([scratch]);
describeHelperTiers([scratch]);
