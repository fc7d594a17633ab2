/**
 * Small helpers shared by the benchmark files: statistics, /proc readings, formatting.
 * Linux only (/proc); the benchmark says so and stops elsewhere.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { N8nRuntime } from '../scripts/n8n-runtime';

const REPO = path.resolve(__dirname, '..');

export function median(values: number[]): number {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function min(values: number[]): number {
	return Math.min(...values);
}

export function max(values: number[]): number {
	return Math.max(...values);
}

/** Environment overrides: BENCH_ROUNDS (>= 1), BENCH_SIZES ("1000,10000"). */
export function envInt(name: string, fallback: number): number {
	const raw = process.env[name];
	const value = raw === undefined || raw === '' ? fallback : Number(raw);
	if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
	return value;
}

export function envList(name: string, fallback: number[]): number[] {
	const raw = process.env[name];
	if (!raw) return fallback;
	const list = raw.split(',').map((s) => Number(s.trim()));
	if (list.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`${name} must be whole numbers separated by commas, not "${raw}"`);
	return list;
}

let clockTicks: number | undefined;
/** Clock ticks per second of /proc/<pid>/stat times (usually 100). */
export function clkTck(): number {
	if (clockTicks === undefined) {
		const res = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
		const n = Number(res.stdout?.trim());
		clockTicks = Number.isFinite(n) && n > 0 ? n : 100;
	}
	return clockTicks;
}

interface ProcStat {
	pid: number;
	ppid: number;
	pgrp: number;
	/** utime + stime in clock ticks */
	ticks: number;
}

function readStat(pid: number): ProcStat | undefined {
	try {
		const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// comm may contain spaces and parentheses: fields start after the last ')'
		const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
		// rest[0] = state (field 3); utime = field 14, stime = field 15
		return { pid, ppid: Number(rest[1]), pgrp: Number(rest[2]), ticks: Number(rest[11]) + Number(rest[12]) };
	} catch {
		return undefined;
	}
}

/**
 * CPU time (ms) used so far by every live process of a process group (n8n runs detached,
 * so its group is n8n itself plus its JS task runner). A process that exits during a
 * measurement would lose its time; n8n's processes live for the whole run.
 */
export function groupCpuMs(pgid: number): number {
	let ticks = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const st = readStat(Number(entry));
		if (st && st.pgrp === pgid) ticks += st.ticks;
	}
	return (ticks * 1000) / clkTck();
}

/** CPU ms of one process (utime + stime). */
export function processCpuMs(pid: number): number {
	const st = readStat(pid);
	return st ? (st.ticks * 1000) / clkTck() : NaN;
}

/** Resident set size of one process, in bytes (VmRSS). */
export function rssOf(pid: number): number {
	try {
		const m = /VmRSS:\s+(\d+)\s*kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) * 1024 : NaN;
	} catch {
		return NaN;
	}
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak seen. */
export function rssSampler(pid: number, everyMs = 20): { stop(): number } {
	let peak = rssOf(pid);
	const timer = setInterval(() => {
		const r = rssOf(pid);
		if (r > peak) peak = r;
	}, everyMs);
	return {
		stop() {
			clearInterval(timer);
			const r = rssOf(pid);
			if (r > peak) peak = r;
			return peak;
		},
	};
}

export function fmt(value: number, digits = 0): string {
	if (!Number.isFinite(value)) return 'n/a';
	return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function fmtRatio(value: number): string {
	return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

export function mb(bytes: number, digits = 1): string {
	return Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(digits)} MB` : 'n/a';
}

/** A Markdown table (also readable as plain text in a terminal). */
export function table(header: string[], rows: string[][]): string {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
	const line = (cells: string[]) =>
		`| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
	const sep = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
	return [line(header), sep, ...rows.map(line)].join('\n');
}

export function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The JSON body Send Media sends for part 4's video of `bytes` bytes (all 7s), as a bare client sends it. */
export function videoBody(bytes: number): string {
	return JSON.stringify({ number: '5511900000000', mediatype: 'video', mimetype: 'video/mp4', media: Buffer.alloc(bytes, 7).toString('base64'), fileName: 'clip.mp4' });
}

/** A Node child under n8n's Node 24 running a TypeScript file (relative to the repo) through tsx. */
export function forkTs(rt: N8nRuntime, file: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
	const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
	delete childEnv.NODE_OPTIONS;
	return fork(path.join(REPO, file), [], {
		cwd: REPO,
		execPath: rt.nodeBin,
		execArgv: ['--import', 'tsx'],
		env: childEnv,
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
}

/** The child's next message; rejects if it exits first. */
export function once<T>(child: ChildProcess): Promise<T> {
	return new Promise((resolve, reject) => {
		const onMessage = (m: T) => {
			child.off('exit', onExit);
			resolve(m);
		};
		const onExit = (code: number | null) => reject(new Error(`child exited with ${code} before answering`));
		child.once('message', onMessage);
		child.once('exit', onExit);
	});
}

/**
 * n8n's HTTP Request node (4.2) posting a JSON body built from key-value pairs with the
 * `apikey` header credential: the contender each bench compares the package with.
 */
export function httpRequestNode(url: string, credential: { id: string; name: string }, fields: Array<[string, string]>): Record<string, unknown> {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		credentials: { httpHeaderAuth: credential },
		parameters: {
			method: 'POST',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: { parameters: fields.map(([name, value]) => ({ name, value })) },
			options: {},
		},
	};
}
