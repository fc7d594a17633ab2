/**
 * The recipes the docs show are the files under docs/recipes/, which the end-to-end tier runs
 * (e2e/recipes.ts, check (x)). Every doc (docs/*.md) that walks through a recipe links its file
 * (`<file>.json`) in that section, and the section shows what the file holds: every `{{ … }}`
 * expression of the file as written, each Code node's code as it is, and no `$('…')` naming a
 * node the file does not have. A section headed "Recipe…" links a file, and a `$('…')` anywhere
 * in the docs stands in a section that links the file with that node. In the files, every
 * `$('…')` names one of their nodes, and the package's nodes carry the names and parameters
 * n8n's editor gives a new node (n8n-workflow's `makeNodeName`, made unique; only non-default
 * parameters). The other nodes' names and parameters need n8n's own node types: the e2e check
 * rebuilds the whole files with the running n8n's.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers } from 'n8n-workflow';
import type { INodeTypeDescription } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';
import { MessagingInstanceChatMemory } from '../../nodes/MessagingInstanceChatMemory/MessagingInstanceChatMemory.node';
import { ACTION, CHAT_MEMORY, RECIPES, TRIGGER, referencedNodeNames, uniqueNodeName } from '../../e2e/recipeBook';
import { chatReplyText } from '../../nodes/MessagingInstance/actions/message/sendAndWait/chatReply';

/* eslint-disable @typescript-eslint/no-explicit-any */

const ROOT = join(__dirname, '../..');
const DESCRIPTIONS: Record<string, INodeTypeDescription> = {
	[ACTION]: new MessagingInstance().description,
	[TRIGGER]: new MessagingInstanceTrigger().description,
	[CHAT_MEMORY]: new MessagingInstanceChatMemory().description,
};
const fileOf = (file: string): any => JSON.parse(readFileSync(join(ROOT, 'docs', 'recipes', `${file}.json`), 'utf8'));

/** Every page of the docs. */
const DOCS = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const textOf = (doc: string): string => readFileSync(join(ROOT, doc), 'utf8');
/** The recipes a doc walks through: those whose file it links. */
const recipesIn = (text: string): string[] => RECIPES.map((r) => r.file).filter((file) => text.includes(`${file}.json`));

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

/** The section around a position: from the heading above it to the next heading of that level or higher. */
function sectionAt(text: string, at: number): string {
	const start = text.lastIndexOf('\n#', at) + 1;
	const level = /^#+/.exec(text.slice(start))?.[0].length ?? 1;
	const lineEnd = text.indexOf('\n', at);
	if (lineEnd < 0) return text.slice(start);
	const next = new RegExp(`^#{1,${level}} `, 'm').exec(text.slice(lineEnd));
	return text.slice(start, next ? lineEnd + next.index : undefined);
}

/** A recipe's section: the section around the first mention of its file. */
function sectionOf(text: string, file: string): string | undefined {
	const at = text.indexOf(`${file}.json`);
	return at < 0 ? undefined : sectionAt(text, at);
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

describe('the docs', () => {
	it('every recipe file is walked through in a doc', () => {
		const linked = new Set(DOCS.flatMap((doc) => recipesIn(textOf(doc))));
		expect(RECIPES.map((r) => r.file).filter((file) => !linked.has(file))).toEqual([]);
	});

	it.each(DOCS.map((doc) => [doc]))('%s: each section headed "Recipe…" links its file, and each $(…) stands in a section whose file has that node', (doc) => {
		const text = textOf(doc);
		for (const heading of text.matchAll(/^#+ Recipe.*$/gm)) {
			expect([heading[0], recipesIn(sectionAt(text, heading.index!)).length > 0]).toEqual([heading[0], true]);
		}
		// `$('<node name>')` is the docs' placeholder, not a name
		for (const ref of text.matchAll(/\$\('([^'<][^']*)'\)/g)) {
			const files = recipesIn(sectionAt(text, ref.index!));
			const nodes = files.flatMap((file) => fileOf(file).nodes.map((n: any) => n.name));
			expect([ref[0], nodes.includes(ref[1])]).toEqual([ref[0], true]);
		}
	});
});

const RECIPE_SECTIONS = DOCS.flatMap((doc) => recipesIn(textOf(doc)).map((file) => [doc, file]));

describe.each(RECIPE_SECTIONS)('%s shows %s.json as the file holds it', (doc, file) => {
	const text = textOf(doc);
	const section = sectionOf(text, file)!;
	const workflow = fileOf(file);

	it('every expression of the file as written, and only its nodes named', () => {
		const shown = squeeze(section);
		expect(expressionsOf(workflow).filter((expression) => !shown.includes(expression))).toEqual([]);
		const names = workflow.nodes.map((n: any) => n.name);
		const named = [...section.matchAll(/\$\('([^']+)'\)/g)].map((m) => m[1]);
		expect(named.filter((name) => !names.includes(name))).toEqual([]);
	});

	it('each Code node\'s code as it is', () => {
		const code = workflow.nodes.filter((n: any) => n.type === 'n8n-nodes-base.code').map((n: any) => n.parameters.jsCode);
		expect(code.filter((js: string) => !codeBlocks(section).includes(js))).toEqual([]);
	});
});

describe('docs/recipes.md → Reply in the Chat', () => {
	it('shows the question exactly as the node sends it, its italic last line included', () => {
		const section = sectionOf(textOf('docs/recipes.md'), 'send-and-wait-chat-reply')!;
		const shown = [...section.matchAll(/^```text\n([\s\S]*?)\n```/gm)].map((m) => m[1]);
		expect(shown).toEqual([chatReplyText('Deliver order A-17 on Friday?', ['Yes', 'No'])]);
	});
});
