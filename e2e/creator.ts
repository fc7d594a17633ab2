/**
 * (r) What n8n's node creator shows for the package, from the node types a running n8n serves
 * (`/types/nodes.json`, what the editor reads). The editor merges a trigger whose name without
 * "Trigger" is an action node's name into that node's entry and gives the entry the TRIGGER's
 * description (editor-ui's generateMergedNodesAndActions); the entry's actions are the action
 * node's operations, resource by resource in the description's order, then the trigger's.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { DEV_OWNER, type RestClient } from '../scripts/n8n-runtime';
import { runAlone } from './standalone';
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

export async function creatorEntryChecks(tools: E2eTools, rest: RestClient, n8nUrl: string): Promise<void> {
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
	await panelSearchChecks(tools, n8nUrl);
}

/** What a person types in the node panel's search, and the entry it must find (the codex's aliases, read by n8n from the .node.json beside each node). */
export const PANEL_SEARCHES = ['WhatsApp', 'Evolution', 'burst'];
const ENTRY = 'Messaging Instance';

/**
 * (r) The editor in headless Chromium: a new workflow, the node panel opened with the canvas's
 * "+", each word typed into its search bar; the package's entry is among the results (without
 * the codex files beside the built nodes only "Messaging…" finds it).
 */
async function panelSearchChecks(tools: E2eTools, n8nUrl: string): Promise<void> {
	const name = `(r) the editor's node panel (Chromium) finds "${ENTRY}" by ${PANEL_SEARCHES.map((word) => `"${word}"`).join(', ')}`;
	if (!fs.existsSync(CHROMIUM)) {
		const why = `${CHROMIUM} is missing (install it with: bash .ci/chromium.sh)`;
		await tools.check(name, () => {
			if (process.env.CI === 'true') assert.fail(why);
		});
		console.log(`\n${'!'.repeat(78)}\n!!! SKIPPED ${name}: ${why}\n${'!'.repeat(78)}\n`);
		return;
	}
	await tools.check(name, async () => {
		const { chromium } = await import('playwright-core');
		const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
		try {
			const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
			// The context's request shares its cookies with the page: logged in as the editor would be.
			const login = await context.request.post(`${n8nUrl}/rest/login`, { data: { emailOrLdapLoginId: DEV_OWNER.email, email: DEV_OWNER.email, password: DEV_OWNER.password } });
			assert.equal(login.status(), 200, await login.text());
			const page = await context.newPage();
			await page.goto(`${n8nUrl}/workflow/new`, { timeout: 60000 });
			const panel = page.locator('[data-test-id="node-creator"]');
			// The canvas's "+" (top right): the panel of a next step, which lists action nodes and triggers.
			await page.locator('[data-test-id="node-creator-plus-button"]').click({ timeout: 60000 });
			await panel.waitFor({ timeout: 15000 });
			const search = page.locator('[data-test-id="node-creator-search-bar"]');
			for (const word of PANEL_SEARCHES) {
				await search.fill(word);
				const entry = panel.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${ENTRY}$`) });
				await entry.first().waitFor({ timeout: 15000 }).catch(async () => {
					const shown = await panel.locator('[data-test-id="node-creator-item-name"]').allInnerTexts();
					throw new Error(`"${word}" does not find "${ENTRY}"; the panel shows: ${JSON.stringify(shown)}`);
				});
			}
		} finally {
			await browser.close();
		}
	});
}

if (require.main === module) void runAlone('creator', creatorEntryChecks);
