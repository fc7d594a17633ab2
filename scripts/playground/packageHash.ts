/** Whether the package installed in the user folder is built from the current sources. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PACKAGE_NAME, REPO_ROOT } from '../n8n-runtime';

/** The files `npm pack` builds the package from. */
const PACKAGE_SOURCES = ['package.json', 'index.js', 'gulpfile.js', 'tsconfig.build.json', 'nodes', 'credentials'];

/** A hash of the package's sources: the same hash means the installed copy is current. */
export function packageSourceHash(): string {
	const hash = createHash('sha256');
	const walk = (rel: string) => {
		const abs = path.join(REPO_ROOT, rel);
		if (!fs.existsSync(abs)) return;
		if (fs.statSync(abs).isDirectory()) {
			for (const name of fs.readdirSync(abs).sort()) walk(path.join(rel, name));
			return;
		}
		hash.update(`${rel}\0`).update(fs.readFileSync(abs)).update('\0');
	};
	for (const rel of PACKAGE_SOURCES) walk(rel);
	return hash.digest('hex');
}

export function installedHashFile(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'nodes', '.installed-source-hash');
}

export function installedIsCurrent(userFolder: string, hash: string): boolean {
	try {
		return (
			fs.readFileSync(installedHashFile(userFolder), 'utf8').trim() === hash &&
			fs.existsSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json'))
		);
	} catch {
		return false;
	}
}
