/**
 * What every part of the n8n runtime shares: where things live, the pinned versions, running
 * a command with its output streamed, a free port, and finding the JSON a command printed
 * among its log lines. Only Node built-ins, so tsx runs it on the Node 20 of a fresh checkout.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Where runtimes are installed: `.n8n-runtime/` in the repo, or $N8N_RUNTIME_DIR (e.g. a cache shared by clones). */
export const RUNTIME_ROOT = process.env.N8N_RUNTIME_DIR
	? path.resolve(process.env.N8N_RUNTIME_DIR)
	: path.join(REPO_ROOT, '.n8n-runtime');
export const PACKAGE_NAME = 'n8n-nodes-messaging-instance';

/** The n8n version the package is tested against. */
export const DEFAULT_N8N_VERSION = '2.40.7';
/**
 * The newest n8n 2.x that installs from the registry, tested beside the default. (2.41.3 and
 * 2.41.2 depend on `@n8n/agents@0.26.2`, which is not on the registry.)
 */
export const LATEST_N8N_VERSION = '2.41.1';
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

/**
 * A version as a person or a script names it: `default`, `latest` or `compat` for the pinned
 * ones, anything else as given (an exact version).
 */
export function resolveN8nVersion(name: string | undefined): string {
	if (!name || name === 'default') return DEFAULT_N8N_VERSION;
	if (name === 'latest') return LATEST_N8N_VERSION;
	if (name === 'compat') return COMPAT_N8N_VERSION;
	return name;
}

/** The Node version that runs a given n8n version. */
export function nodeVersionFor(n8nVersion: string): string {
	return majorOf(n8nVersion) >= 2 ? NODE24_VERSION : NODE22_VERSION;
}

export function log(msg: string): void {
	process.stderr.write(`[n8n-runtime] ${msg}\n`);
}

export function sleep(ms: number): Promise<void> {
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
