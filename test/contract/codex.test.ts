/**
 * Each node's codex (`<Name>.node.json` beside `<Name>.node.ts`, copied next to the built node by
 * gulpfile.js) is what n8n's node panel searches besides the display name, and where its Docs link
 * goes. Every node under nodes/ has one, naming that node, found by the words people type.
 * scripts/scan-package.mjs checks the packed tarball holds them; e2e/creator.ts searches the panel.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	name: string;
	homepage: string;
	repository: { url: string };
};

function nodeSources(dir = path.join(root, 'nodes')): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return nodeSources(full);
		return entry.name.endsWith('.node.ts') ? [full] : [];
	});
}

/* eslint-disable @typescript-eslint/no-require-imports */
const nodes = nodeSources().map((source) => {
	const exported = require(source) as Record<string, new () => { description: { name: string } }>;
	const NodeClass = Object.values(exported).find((value) => typeof value === 'function');
	return { file: path.relative(root, source), name: new NodeClass!().description.name, codexFile: source.replace(/\.ts$/, '.json') };
});

/** The repository's README on GitHub, from package.json's repository URL. */
const README = `${manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}#readme`;

describe('the nodes\' codex files', () => {
	it('the package has both nodes', () => {
		expect(nodes.map((node) => node.name)).toEqual(expect.arrayContaining(['messagingInstance', 'messagingInstanceTrigger']));
	});

	it.each(nodes)('$file has a codex naming it, with categories, aliases and the README as its Docs link', ({ name, codexFile }) => {
		expect(fs.existsSync(codexFile)).toBe(true);
		const codex = JSON.parse(fs.readFileSync(codexFile, 'utf8'));
		expect(codex.node).toBe(`${manifest.name}.${name}`);
		expect(codex.categories.length).toBeGreaterThan(0);
		expect(codex.alias.length).toBeGreaterThan(0);
		expect(codex.resources.primaryDocumentation).toEqual([{ url: README }]);
	});

	it.each(['messagingInstance', 'messagingInstanceTrigger'])('%s is found by "WhatsApp", "Evolution API" and "Evolution", under Communication', (name) => {
		const codex = JSON.parse(fs.readFileSync(nodes.find((node) => node.name === name)!.codexFile, 'utf8'));
		expect(codex.categories).toEqual(expect.arrayContaining(['Communication']));
		expect(codex.alias).toEqual(expect.arrayContaining(['WhatsApp', 'Evolution API', 'Evolution']));
	});

	it('the action node is found by "burst" (Collect Burst) and "send message"', () => {
		const action = nodes.find((node) => node.name === 'messagingInstance')!;
		const codex = JSON.parse(fs.readFileSync(action.codexFile, 'utf8'));
		expect(codex.alias).toEqual(expect.arrayContaining(['Burst', 'Send Message']));
	});

	it('package.json\'s homepage is the README too, not the npm page of an unpublished package', () => {
		expect(manifest.homepage).toBe(README);
	});
});
