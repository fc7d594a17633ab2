/**
 * The node and the sandbox each keep their own list of webhook events (the sandbox is the
 * node's test oracle and never imports from nodes/). This test is the one place that holds
 * the two copies against each other.
 */
import { ALL_EVENTS, dialectOf } from '../../nodes/shared/dialect';
import { configEventName as nodeConfigName } from '../../nodes/shared/events';
import { DOCUMENTED_EVENTS, V2_EVENTS, eventsOf, dottedEventName, configEventName as sandboxConfigName } from '../../sandbox/events';

describe('webhook event names: node and sandbox agree', () => {
	it.each(['documented', 'v2'] as const)('the %s dialect knows the same events in both', (dialect) => {
		expect([...dialectOf(dialect).events].sort()).toEqual([...eventsOf(dialect)].sort());
	});

	it('the documented list has the contract’s 23 names and v2 its 32 (one of them from 2.4 on), none twice', () => {
		expect(DOCUMENTED_EVENTS).toHaveLength(23);
		expect(V2_EVENTS).toHaveLength(32);
		expect(new Set(DOCUMENTED_EVENTS).size).toBe(23);
		expect(new Set(V2_EVENTS).size).toBe(32);
	});

	it("the node's list of every event is the union of the sandbox's two lists", () => {
		expect([...ALL_EVENTS].sort()).toEqual([...new Set([...DOCUMENTED_EVENTS, ...V2_EVENTS])].sort());
	});

	it.each([...new Set([...DOCUMENTED_EVENTS, ...V2_EVENTS])])('%s: a delivered name maps back to it on both sides', (event) => {
		const delivered = dottedEventName(event);
		expect(nodeConfigName(delivered)).toBe(event);
		expect(sandboxConfigName(delivered)).toBe(event);
		expect(nodeConfigName(delivered.replace(/\./g, '-'))).toBe(event);
	});
});
