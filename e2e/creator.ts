/**
 * (r) What n8n's node creator shows for the package, from the node types a running n8n serves
 * (`/types/nodes.json`, what the editor reads). The editor merges a trigger whose name without
 * "Trigger" is an action node's name into that node's entry and gives the entry the TRIGGER's
 * description (editor-ui's generateMergedNodesAndActions); the entry's actions are the action
 * node's operations, resource by resource in the description's order, then the trigger's.
 */
import * as assert from 'node:assert/strict';

import type { RestClient } from '../scripts/n8n-runtime';
import type { E2eTools } from './v2';

interface ServedProperty {
	name: string;
	default?: unknown;
	options?: Array<{ value?: unknown; name?: string }>;
	displayOptions?: { show?: Record<string, unknown[]> };
}

interface ServedType {
	name: string;
	version: number | number[];
	description: string;
	group: string[];
	properties: ServedProperty[];
}

/** The newest served description of the type whose name ends in `.<name>`. */
function newestOf(types: ServedType[], name: string): ServedType {
	const newest = (type: ServedType) => Math.max(...(Array.isArray(type.version) ? type.version : [type.version]));
	const found = types.filter((type) => type.name.endsWith(`.${name}`)).sort((a, b) => newest(b) - newest(a));
	assert.ok(found.length > 0, `n8n serves no node type ending in .${name}`);
	return found[0];
}

/** The creator's action list of an action node: each resource's operations, in the description's order. */
function actionsOf(node: ServedType): string[] {
	const resources = node.properties.find((property) => property.name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const operations = node.properties.find(
			(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value),
		);
		return (operations?.options ?? []).map((operation) => `${resource.name} → ${operation.name}`);
	});
}

export async function creatorEntryChecks(tools: E2eTools, rest: RestClient): Promise<void> {
	let types: ServedType[] = [];
	await tools.check('(r) the node creator\'s merged "Messaging Instance" entry shows the package\'s own description, not a trigger\'s "Starts the workflow…"', async () => {
		types = (await rest.nodeTypes()) as ServedType[];
		const action = newestOf(types, 'messagingInstance');
		const trigger = newestOf(types, 'messagingInstanceTrigger');
		assert.ok(trigger.group.includes('trigger') && !action.group.includes('trigger'), 'groups');
		// n8n's merge rule: the trigger's name without "Trigger" is the action node's name.
		assert.equal(trigger.name.replace('Trigger', ''), action.name, 'the two types would not be merged');
		const shown = trigger.description;
		assert.doesNotMatch(shown, /^Starts the workflow/i, `the merged entry reads "${shown}"`);
		assert.match(shown, /send/i, `the merged entry does not say it sends messages: "${shown}"`);
		assert.match(shown, /start workflows|incoming/i, `the merged entry does not say it starts workflows: "${shown}"`);
	});
	await tools.check('(r) the node creator lists Message → Send Text first of the package\'s actions', () => {
		const actions = actionsOf(newestOf(types, 'messagingInstance'));
		assert.ok(actions.length >= 60, `${actions.length} actions`);
		assert.equal(actions[0], 'Message → Send Text', `first actions: ${actions.slice(0, 3).join(', ')}`);
		assert.equal(new Set(actions).size, actions.length, 'an action is listed twice');
	});
}
