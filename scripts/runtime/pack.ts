/**
 * Installing our package like a user: `npm pack` the repo (its prepack builds it) and `npm
 * install <tarball>` into `<userFolder>/.n8n/nodes`, the folder n8n loads community packages from.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PACKAGE_NAME, REPO_ROOT, parseJsonTail, run, systemNpm } from './common';

/** Runs `npm pack` in the repo (its prepack builds) and returns the tarball's path. */
export async function packRepo(outDir = path.join(os.tmpdir(), `n8n-pack-${process.pid}`)): Promise<string> {
	fs.mkdirSync(outDir, { recursive: true });
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
	const res = await run(systemNpm(), ['pack', '--json', '--pack-destination', outDir], {
		cwd: REPO_ROOT,
		env,
		label: 'npm pack',
		quiet: true,
	});
	// prepack's build output (gulp prints "[hh:mm:ss] ...") precedes npm's JSON
	const info = parseJsonTail(res.stdout) as Array<{ filename: string }> | null;
	if (!Array.isArray(info) || !info[0]?.filename) throw new Error(`npm pack printed no JSON:\n${res.stdout.slice(-2000)}`);
	return path.join(outDir, info[0].filename);
}

/**
 * Installs a tarball into <userFolder>/.n8n/nodes the way n8n's own community-package
 * install does (a private package.json there, npm install, no scripts). n8n loads packages
 * from that folder's node_modules when it starts.
 */
export async function installTarballIntoUserFolder(tarball: string, userFolder: string): Promise<void> {
	const nodesDir = path.join(path.resolve(userFolder), '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	let manifest: { dependencies?: Record<string, string> } & Record<string, unknown> = {
		name: 'installed-nodes',
		private: true,
		dependencies: {},
	};
	try {
		manifest = JSON.parse(fs.readFileSync(pkgJson, 'utf8'));
	} catch {
		/* first install */
	}
	// A previous install recorded `file:<old tarball>`, which is gone: drop it so npm does not
	// try to resolve it, and drop the old copy so the new tarball's files replace it.
	let pkgName = PACKAGE_NAME;
	const listing = spawnSync('tar', ['-xOzf', path.resolve(tarball), 'package/package.json'], { encoding: 'utf8' });
	if (listing.status === 0) pkgName = (JSON.parse(listing.stdout) as { name: string }).name;
	if (manifest.dependencies) delete manifest.dependencies[pkgName];
	fs.writeFileSync(pkgJson, JSON.stringify(manifest, null, 2) + '\n');
	fs.rmSync(path.join(nodesDir, 'node_modules', pkgName), { recursive: true, force: true });
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
	await run(
		systemNpm(),
		[
			'install',
			path.resolve(tarball),
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--omit=peer',
			'--omit=dev',
		],
		{ cwd: nodesDir, env, label: 'npm install (nodes)', quiet: true },
	);
}

/** Node type prefix of our package as n8n names it, depending on how it was loaded. */
export function nodeTypePrefix(loadedVia: 'nodes-folder' | 'custom-extensions' = 'nodes-folder'): string {
	return loadedVia === 'nodes-folder' ? PACKAGE_NAME : 'CUSTOM';
}
