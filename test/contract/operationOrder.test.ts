/**
 * The order of each resource's Operation dropdown (the registry's order, OPERATIONS) follows the
 * path a user walks with the resource, as the comment at OPERATIONS says: make or set it up,
 * look at it (Get before Get Many), use and change it, undo or end it. A resource with parts
 * (Chatbot: the bot, its settings, its OpenAI credentials) walks each part in turn. Checked over
 * the whole registry, so an operation added in the wrong place fails here.
 */
import { OPERATIONS } from '../../nodes/MessagingInstance/actions';
import type { Operation } from '../../nodes/MessagingInstance/actions/types';

const STEPS = ['make', 'look', 'change', 'end'] as const;

/** The step of the walk an operation belongs to, from its stored value (never its label). */
function stepOf(operation: Operation): (typeof STEPS)[number] {
	const value = operation.value;
	if (/^(create|connect|set$|accept)/.test(value) || (operation.resource === 'message' && value.startsWith('send'))) return 'make';
	if (/^(get|check|download|collect)/.test(value)) return 'look';
	if (/^(delete|remove|revoke|leave|logout)/.test(value)) return 'end';
	return 'change';
}

/** The part of its resource an operation acts on: Chatbot's settings and OpenAI credentials are walked after the bot. */
function partOf(operation: Operation): string {
	if (/OpenAi/.test(operation.value)) return 'OpenAI credentials';
	if (/Settings$/.test(operation.value)) return 'settings';
	return 'itself';
}

describe('operation order: the path a user walks', () => {
	const walks = new Map<string, Operation[]>();
	for (const operation of OPERATIONS) {
		const key = `${operation.resource} (${partOf(operation)})`;
		walks.set(key, [...(walks.get(key) ?? []), operation]);
	}

	it('every resource has its operations in one run, each part of it too', () => {
		const seen: string[] = [];
		for (const operation of OPERATIONS) {
			const key = `${operation.resource} (${partOf(operation)})`;
			if (seen.at(-1) !== key) seen.push(key);
		}
		expect(seen).toEqual([...new Set(seen)]);
	});

	it.each([...walks.keys()])('%s: make, look, change, end, in that order; Get before Get Many', (key) => {
		const operations = walks.get(key) ?? [];
		const steps = operations.map((operation) => `${operation.name}: ${stepOf(operation)}`);
		const sorted = [...operations].sort((a, b) => STEPS.indexOf(stepOf(a)) - STEPS.indexOf(stepOf(b))).map((operation) => `${operation.name}: ${stepOf(operation)}`);
		expect(steps).toEqual(sorted);
		const values = operations.map((operation) => operation.value);
		if (values.includes('get') && values.includes('getMany')) expect(values.indexOf('get')).toBeLessThan(values.indexOf('getMany'));
	});

	it('the walk the docs name: Instance starts Create, Connect, Get State; Group starts Create, Accept Invite, Get, Get Many', () => {
		const names = (resource: string) => OPERATIONS.filter((operation) => operation.resource === resource).map((operation) => operation.name);
		expect(names('instance').slice(0, 3)).toEqual(['Create', 'Connect', 'Get State']);
		expect(names('instance').slice(-2)).toEqual(['Log Out', 'Delete']);
		expect(names('group').slice(0, 4)).toEqual(['Create', 'Accept Invite', 'Get', 'Get Many']);
		expect(names('group').at(-1)).toBe('Leave');
		expect(names('message')[0]).toBe('Send Text');
		expect(names('message').at(-1)).toBe('Delete');
	});
});
