/**
 * The recipes the docs show are the files under docs/recipes/, which the end-to-end tier runs
 * (e2e/recipes.ts, check (x)). docs/recipes.md gives each recipe a section that links its file
 * (`<file>.json`), and that section shows what the file holds: every `{{ … }}` expression of the
 * file as written, the Code node's code as it is, and no `$('…')` naming a node the file does
 * not have. In the files, every `$('…')` names one of their nodes, and the package's nodes
 * carry the names and parameters n8n's editor gives a new node (n8n-workflow's `makeNodeName`,
 * made unique; only non-default parameters). The other nodes' names and parameters need n8n's
 * own node types: the e2e check rebuilds the whole files with the running n8n's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers } from 'n8n-workflow';
import type { INodeTypeDescription } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';
import { ACTION, RECIPES, TRIGGER, referencedNodeNames, uniqueNodeName } from '../../e2e/recipeBook';

/* eslint-disable @typescript-eslint/no-explicit-any */

const ROOT = join(__dirname, '../..');
const DESCRIPTIONS: Record<string, INodeTypeDescription> = {
	[ACTION]: new MessagingInstance().description,
	[TRIGGER]: new MessagingInstanceTrigger().description,
};
const fileOf = (file: string): any => JSON.parse(readFileSync(join(ROOT, 'docs', 'recipes', `${file}.json`), 'utf8'));

/** The page of recipes (the first page's Usage links it). */
const DOCS = ['docs/recipes.md'];

const EXPRESSION = /\{\{[\s\S]*?\}\}/g;
const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Every `{{ … }}` in a workflow's parameters, whitespace squeezed. */
function expressionsOf(workflow: any): string[] {
	const found = new Set<string>();
	const walk = (value: unknown): void => {
		if (typeof value === 'string') for (const m of value.matchAll(EXPRESSION)) found.add(squeeze(m[0]));
		else if (value && typeof value === 'object') Object.values(value).forEach(walk);
	};
	workflow.nodes.forEach((node: any) => walk(node.parameters));
	return [...found];
}

/** A recipe's section: from the heading above the first mention of its file to the next heading of that level or higher. */
function sectionOf(text: string, file: string): string | undefined {
	const at = text.indexOf(`${file}.json`);
	if (at < 0) return undefined;
	const start = text.lastIndexOf('\n#', at) + 1;
	const level = /^#+/.exec(text.slice(start))![0].length;
	const next = new RegExp(`^#{1,${level}} `, 'm').exec(text.slice(at));
	return text.slice(start, next ? at + next.index : undefined);
}

/** The code of a fenced ```js block, without the indentation of the list item it stands in. */
function codeBlocks(section: string): string[] {
	return [...section.matchAll(/^([ \t]*)```js\n([\s\S]*?)\n[ \t]*```/gm)].map(([, indent, code]) =>
		code
			.split('\n')
			.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
			.join('\n'),
	);
}

describe('recipe files', () => {
	it.each(RECIPES.map((r) => [r.file]))('%s.json: every $(…) names one of its nodes', (file) => {
		const workflow = fileOf(file);
		const names = workflow.nodes.map((n: any) => n.name);
		for (const ref of referencedNodeNames(workflow)) expect(names).toContain(ref);
	});

	it.each(RECIPES.map((r) => [r.file]))('%s.json: the package\'s nodes have the name and the parameters the editor gives a new node', (file) => {
		const workflow = fileOf(file);
		const taken = new Set<string>();
		for (const node of workflow.nodes) {
			const description = DESCRIPTIONS[node.type];
			if (description) {
				const shell = { typeVersion: node.typeVersion } as any;
				const withDefaults = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, shell, description) ?? {};
				expect(node.name).toBe(uniqueNodeName(NodeHelpers.makeNodeName(withDefaults, description), taken));
				expect(node.parameters).toEqual(NodeHelpers.getNodeParameters(description.properties, withDefaults, false, false, shell, description));
			}
			taken.add(node.name);
		}
	});
});

describe.each(DOCS.map((doc) => [doc]))('%s shows the recipes as the files hold them', (doc) => {
	const text = readFileSync(join(ROOT, doc), 'utf8');

	it.each(RECIPES.map((r) => [r.file]))('a section links %s.json, shows each of its expressions as written, and names only its nodes', (file) => {
		const section = sectionOf(text, file);
		expect(section && `${file}.json`).toBe(`${file}.json`);
		const shown = squeeze(section!);
		const workflow = fileOf(file);
		expect(expressionsOf(workflow).filter((expression) => !shown.includes(expression))).toEqual([]);
		const names = workflow.nodes.map((n: any) => n.name);
		const named = [...section!.matchAll(/\$\('([^']+)'\)/g)].map((m) => m[1]);
		expect(named.filter((name) => !names.includes(name))).toEqual([]);
	});

	it('the Code node\'s code is shown as it is', () => {
		const workflow = fileOf('media-from-code');
		const code = workflow.nodes.find((n: any) => n.type === 'n8n-nodes-base.code').parameters.jsCode;
		expect(codeBlocks(sectionOf(text, 'media-from-code') ?? '')).toContain(code);
	});
});
