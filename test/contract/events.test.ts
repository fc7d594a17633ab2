/**
 * The node and the sandbox each keep their own list of webhook events (the sandbox is the
 * node's test oracle and never imports from nodes/). This test is the one place that holds
 * the two copies against each other.
 */
import { ALL_EVENTS, dialectOf } from '../../nodes/shared/dialect';
import { configEventName as nodeConfigName } from '../../nodes/shared/events';
import { DOCUMENTED_EVENTS, V2_EVENTS, eventsOf, dottedEventName, configEventName as sandboxConfigName } from '../../sandbox/events';
import { ROUTES as SANDBOX_ROUTES } from '../../sandbox/routes';
import { schemaAt } from '../../sandbox/versions';

/** The events the sandbox's Set Webhook accepts when it plays 2.4 (its version rules applied to the v2 schema). */
function sandboxEventsAt24(): string[] {
	const route = SANDBOX_ROUTES.find((entry) => entry.method === 'POST' && entry.path.v2 === '/webhook/set/{instance}');
	const schema = schemaAt('2.4.0', '/webhook/set/demo', route?.schema?.v2 ?? {});
	return [...((schema.properties?.webhook?.properties?.events?.items?.enum as string[] | undefined) ?? [])];
}

describe('webhook event names: node and sandbox agree', () => {
	it('the documented dialect knows the same events in both', () => {
		expect([...dialectOf('documented').events].sort()).toEqual([...eventsOf('documented')].sort());
	});

	it.each(['2.3.6', '2.3.7'])('the v2 dialect of a %s server knows the same events in both', (version) => {
		expect([...dialectOf('v2', version).events].sort()).toEqual([...eventsOf('v2')].sort());
	});

	it('the v2 dialect of a 2.4 server, and of an unknown version, knows the events the sandbox playing 2.4 accepts', () => {
		expect(sandboxEventsAt24()).toContain('MESSAGING_HISTORY_SET');
		expect([...dialectOf('v2', '2.4.0-rc2').events].sort()).toEqual(sandboxEventsAt24().sort());
		expect([...dialectOf('v2').events].sort()).toEqual(sandboxEventsAt24().sort());
	});

	it('the documented list has the contract’s 23 names and v2 its 31, none twice', () => {
		expect(DOCUMENTED_EVENTS).toHaveLength(23);
		expect(V2_EVENTS).toHaveLength(31);
		expect(new Set(DOCUMENTED_EVENTS).size).toBe(23);
		expect(new Set(V2_EVENTS).size).toBe(31);
	});

	it("the node's list of every event is the union of the sandbox's lists", () => {
		expect([...ALL_EVENTS].sort()).toEqual([...new Set([...DOCUMENTED_EVENTS, ...V2_EVENTS, ...sandboxEventsAt24()])].sort());
	});

	it.each([...new Set([...DOCUMENTED_EVENTS, ...V2_EVENTS, ...sandboxEventsAt24()])])('%s: a delivered name maps back to it on both sides', (event) => {
		const delivered = dottedEventName(event);
		expect(nodeConfigName(delivered)).toBe(event);
		expect(sandboxConfigName(delivered)).toBe(event);
		expect(nodeConfigName(delivered.replace(/\./g, '-'))).toBe(event);
	});
});
