import type { INodeTypeDescription } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';

/**
 * n8n's node creator (editor-ui, useActionsGeneration's generateMergedNodesAndActions) lists a
 * trigger whose name without "Trigger" is an action node's name inside that node's entry, and
 * gives the merged entry the trigger's description. The same rule, applied to our two nodes.
 */

interface CreatorEntry {
	name: string;
	description: string;
	actions: number;
}

/** How many actions the creator offers for a node: its operations, or a trigger's events. */
function actionCount(node: INodeTypeDescription): number {
	const listed = node.properties.filter((property) => property.name === (node.group.includes('trigger') ? 'events' : 'operation'));
	return listed.reduce((sum, property) => sum + (property.options?.length ?? 0), 0);
}

function mergedEntries(nodes: INodeTypeDescription[]): CreatorEntry[] {
	const entries: CreatorEntry[] = nodes
		.filter((node) => !node.group.includes('trigger'))
		.map((node) => ({ name: node.name, description: node.description, actions: actionCount(node) }));
	for (const trigger of nodes.filter((node) => node.group.includes('trigger'))) {
		const app = entries.find((entry) => entry.name === trigger.name.replace('Trigger', ''));
		if (app && app.actions > 0) {
			app.actions += actionCount(trigger);
			app.description = trigger.description;
		} else {
			entries.push({ name: trigger.name, description: trigger.description, actions: actionCount(trigger) });
		}
	}
	return entries;
}

describe('node creator entry', () => {
	const action = new MessagingInstance().description;
	const trigger = new MessagingInstanceTrigger().description;

	it('merges the trigger into one Messaging Instance entry whose description is about the whole package', () => {
		const entries = mergedEntries([action, trigger]);
		expect(entries.map((entry) => entry.name)).toEqual(['messagingInstance']);
		const [entry] = entries;
		expect(entry.actions).toBe(actionCount(action) + actionCount(trigger));
		expect(entry.description).toBe(trigger.description);
		expect(entry.description).not.toMatch(/^Starts the workflow/i);
		// Both halves of the package: sending and receiving, and starting workflows on messages.
		expect(entry.description).toMatch(/^Send and receive messages on a messaging instance/);
		expect(entry.description).toContain('start workflows on incoming messages');
		expect(entry.description).toContain('send messages');
	});
});
