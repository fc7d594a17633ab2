/**
 * The recipes the docs show are the files under docs/recipes/, which the end-to-end tier runs
 * (e2e/recipes.ts, check (x)): every `{{ … }}` expression the docs give for a recipe is in its
 * file as written, every `$('…')` in a file names one of its nodes, and the package's nodes in
 * the files carry the names and parameters n8n's editor gives a new node (n8n-workflow's
 * `makeNodeName`, made unique; only non-default parameters). The other nodes' names and
 * parameters need n8n's own node types: the e2e check rebuilds the whole files with the
 * running n8n's.
 */
import { existsSync, readFileSync } from 'node:fs';
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

/** The docs that show recipes: each recipe's section names its file (`<file>.json`). */
const DOCS = ['docs/recipes.md', 'docs/recipes/README.md', 'README.md'].filter((doc) => existsSync(join(ROOT, doc)));

const EXPRESSION = /\{\{[\s\S]*?\}\}/g;
const squeeze = (text: string): string => text.replace(/\s+/g, ' ');

/** Every `{{ … }}` in a workflow's parameters, whitespace squeezed. */
function expressionsOf(workflow: any): Set<string> {
	const found = new Set<string>();
	const walk = (value: unknown): void => {
		if (typeof value === 'string') for (const m of value.matchAll(EXPRESSION)) found.add(squeeze(m[0]));
		else if (value && typeof value === 'object') Object.values(value).forEach(walk);
	};
	workflow.nodes.forEach((node: any) => walk(node.parameters));
	return found;
}

/** The sections of a Markdown text (a heading and what follows it up to the next heading). */
function sections(text: string): string[] {
	return text.split(/^(?=#{1,6} )/m);
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

describe('the docs show the recipes as the files hold them', () => {
	it('docs/recipes.md (or, before it exists, docs/recipes/README.md) names every recipe file', () => {
		const doc = DOCS[0];
		const text = readFileSync(join(ROOT, doc), 'utf8');
		for (const recipe of RECIPES) expect(`${doc}: ${text.includes(`${recipe.file}.json`)}`).toBe(`${doc}: true`);
	});

	it.each(DOCS.map((d) => [d]))('%s: every {{ … }} in a recipe\'s section is in that recipe\'s file, as written', (doc) => {
		const text = readFileSync(join(ROOT, doc), 'utf8');
		const mismatches: string[] = [];
		for (const section of sections(text)) {
			const recipes = RECIPES.filter((r) => section.includes(`${r.file}.json`));
			if (recipes.length === 0) continue;
			const inFiles = new Set(recipes.flatMap((r) => [...expressionsOf(fileOf(r.file))]));
			for (const m of section.matchAll(EXPRESSION)) {
				const expression = squeeze(m[0]);
				if (!inFiles.has(expression)) mismatches.push(`${recipes.map((r) => r.file).join('/')}: ${expression}`);
			}
		}
		expect(mismatches).toEqual([]);
	});
});
