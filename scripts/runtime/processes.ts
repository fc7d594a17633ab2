/**
 * n8n processes: the environment every n8n process gets on a user folder, starting `n8n
 * start` / `webhook` / `worker` until it serves, and ending it with its whole process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, freePort, majorOf, sleep } from './common';
import { ensureN8n, runtimeEnv, type N8nRuntime } from './install';
import { keeperForget, keeperWatch } from './keeper';
import { installTarballIntoUserFolder } from './pack';

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
		// 2.x lists every limit whose default will change as a deprecation at each start unless it
		// is set: set to today's defaults, nothing changes and the log stays quiet.
		...(majorOf(rt.version) >= 2
			? { N8N_RUNNERS_TASK_TIMEOUT: '300', N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(2 * 1024 ** 3), N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '5000' }
			: {}),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		// No Python venv here: hide Python from the Code node. (n8n 2.40.7 still tries to start
		// its Python runner in internal mode and logs one warning, "Failed to start Python task
		// runner": task-runner-module.js checks for the venv right after the JS runner starts,
		// whatever the settings; only external mode, with a separate launcher, avoids it. The
		// one deprecation left at start, N8N_RUNNERS_MODE, is the same internal mode.)
		N8N_PYTHON_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// Not n8n's catalogue of vetted community nodes: fetched from api(-staging).n8n.io when the
		// editor opens, it fails offline with an ENOTFOUND stack trace each time. Installed
		// packages (this one) load without it.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
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
 * the returned function is called after a clean stop: at once from an exit hook when this
 * process exits on its own, and from the keeper (./keeper.ts) when it dies without running
 * hooks (SIGKILL).
 */
export function endWhenThisExits(pid: number, signal: NodeJS.Signals): () => void {
	endOnExit.set(pid, signal);
	keeperWatch(pid, signal);
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
	return () => {
		endOnExit.delete(pid);
		keeperForget(pid);
	};
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
