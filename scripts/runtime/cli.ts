/**
 * n8n CLI commands (import:credentials, import:workflow, execute), each a separate process on
 * the same user folder as the server, and reading what they print.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, freePort, parseJsonTail } from './common';
import { ensureN8n, type N8nRuntime } from './install';
import { endWhenThisExits, n8nEnv, type N8nHandle } from './processes';

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
/** How long a command that printed its complete output may take to exit before it is ended. */
const GRACE_AFTER_DONE_MS = 30000;

export async function n8nCli(
	x: FolderOrHandle,
	args: string[],
	opts: {
		version?: string;
		timeoutMs?: number;
		/** Whether the output so far is complete: the command is then given GRACE_AFTER_DONE_MS to exit, then ended. */
		doneWhen?: (stdout: string) => boolean;
	} = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number; endedAfterDone?: boolean }> {
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
		const forget = endWhenThisExits(-child.pid!, 'SIGKILL');
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (c) => (stdout += c));
		child.stderr!.on('data', (c) => (stderr += c));
		let endedAfterDone = false;
		const end = () => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				/* gone */
			}
		};
		// The hard timeout can fall inside the grace period of a command that already printed its
		// complete output: that command, too, was ended only because it did not exit.
		const timer = setTimeout(() => {
			if (opts.doneWhen?.(stdout)) endedAfterDone = true;
			end();
		}, opts.timeoutMs ?? 180000);
		// n8n's CLI has been seen to print a finished run and then not exit (its shutdown hanging
		// on a loaded machine); the run itself is complete, so it is ended after a grace period
		// and the caller is told so, instead of waiting for the timeout and calling it a failure.
		let graceTimer: NodeJS.Timeout | undefined;
		const watch = opts.doneWhen
			? setInterval(() => {
					if (graceTimer || !opts.doneWhen!(stdout)) return;
					graceTimer = setTimeout(() => {
						endedAfterDone = true;
						end();
					}, GRACE_AFTER_DONE_MS);
				}, 1000)
			: undefined;
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			clearInterval(watch);
			clearTimeout(graceTimer);
			try {
				process.kill(-child.pid!, 'SIGKILL'); // a task runner left behind
			} catch {
				/* none */
			}
			forget();
			resolve({ code, signal, stdout, stderr, ms: Date.now() - started, ...(endedAfterDone ? { endedAfterDone } : {}) });
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
	/** the signal that ended the command, if one did */
	signal: NodeJS.Signals | null;
	ok: boolean;
	/** Parsed JSON printed by `n8n execute --rawOutput` (the run's data), or null. */
	data: any;
	stdout: string;
	stderr: string;
	ms: number;
	/** set when the command printed its finished run and was ended because it did not exit */
	endedAfterDone?: boolean;
}

/** `n8n execute --id <id> --rawOutput`: runs the workflow headless; parses the printed JSON. */
export async function executeWorkflow(x: FolderOrHandle, id: string, version?: string): Promise<ExecuteResult> {
	const res = await n8nCli(x, ['execute', `--id=${id}`, '--rawOutput'], { version, doneWhen: (stdout) => finishedRun(parseJsonTail(stdout)) });
	// keep the log lines only (the run's JSON that follows holds user data, not log output)
	const jsonAt = res.stdout.search(/^[{[]/m);
	cliLog.push(`$ n8n execute --id=${id}\n${jsonAt >= 0 ? res.stdout.slice(0, jsonAt) : res.stdout}${res.stderr}`);
	const data = parseJsonTail(res.stdout);
	if (res.endedAfterDone) cliLog.push(`n8n execute --id=${id} printed its finished run but had not exited ${GRACE_AFTER_DONE_MS / 1000} s later: ended`);
	// The CLI has also been seen ended by a signal that was not ours right after it printed a
	// finished, successful run (once, in CI beside the other version's run): the run is complete.
	const endedBySignal = res.code === null && res.signal !== null && !res.endedAfterDone;
	if (endedBySignal) cliLog.push(`n8n execute --id=${id} was ended by ${res.signal} after ${(res.ms / 1000).toFixed(1)} s, ${finishedRun(data) ? 'after printing its finished run' : 'printing no finished run'}`);
	// a run that printed success and was ended only because the CLI did not exit (or by a signal after it printed) counts as passed
	const ok = res.code === 0 || ((res.endedAfterDone === true || endedBySignal) && finishedRun(data) && !runError(data));
	return { ...res, ok, data };
}

/**
 * Why an `n8n execute` did not count as passed, for a check's message: how the command ended
 * (exit code or signal, after how long, whether it had printed its run), the status of the run
 * it printed, and the end of its output.
 */
export function executionFailure(res: ExecuteResult): string {
	const ended = res.signal ? `was ended by ${res.signal}` : `exited with code ${res.code}`;
	const printed = finishedRun(res.data) ? `printed a finished run (status ${res.data?.status ?? 'unknown'}${runError(res.data) ? ', with an error' : ''})` : 'printed no finished run';
	return `n8n execute ${ended} after ${(res.ms / 1000).toFixed(1)} s${res.endedAfterDone ? ' (after its grace period)' : ''}; it ${printed}\n--- stdout (end) ---\n${res.stdout.slice(-1500)}\n--- stderr (end) ---\n${res.stderr.slice(-1500)}`;
}

/** The run's error, if the printed run data has one. */
function runError(data: any): unknown {
	return data?.data?.resultData?.error ?? data?.resultData?.error;
}

/** Whether `n8n execute --rawOutput` printed a run that has finished (its result data is there). */
function finishedRun(data: any): boolean {
	return Boolean(data && (data.finished === true || data.status === 'success' || data.status === 'error' || data.data?.resultData?.runData || data.resultData?.runData));
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
