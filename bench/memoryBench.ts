/**
 * Part 5 of `npm run bench`: the memory a large file takes, as a multiple of the file. Runs
 * bench/downloadMemory.ts (Download Media: n8n's in-memory and filesystem binary modes, with
 * and without Content-Length) and bench/triggerMemory.ts (a media delivery, both modes), one
 * at a time (each reads its own process's peak), with the repository's Node and n8n-core, as
 * they run alone. Env: BENCH_MEMORY_MB (the file; default 150). A case above the limit
 * (bench/memoryLimit.ts), not byte-exact or without a result is returned as a problem, and
 * fails `npm run bench`.
 */
import { fork } from 'node:child_process';
import * as path from 'node:path';

import { PEAK_LIMIT, peakProblem } from './memoryLimit';
import { fmt, log, table } from './util';

interface MemoryResult {
	ratio: number;
	readingRatio?: number;
	fileBytes: number;
	ok: boolean;
	error?: string;
}

interface Case {
	label: string;
	script: 'downloadMemory.ts' | 'triggerMemory.ts';
	env: Record<string, string>;
}

const CASES: Case[] = [
	{ label: 'Download Media, in-memory binary mode (n8n default), with Content-Length', script: 'downloadMemory.ts', env: {} },
	{ label: 'Download Media, in-memory binary mode, no Content-Length', script: 'downloadMemory.ts', env: { BENCH_DOWNLOAD_CHUNKED: '1' } },
	{ label: 'Download Media, filesystem binary mode, with Content-Length', script: 'downloadMemory.ts', env: { BENCH_DOWNLOAD_MODE: 'filesystem' } },
	{ label: 'Download Media, filesystem binary mode, no Content-Length', script: 'downloadMemory.ts', env: { BENCH_DOWNLOAD_MODE: 'filesystem', BENCH_DOWNLOAD_CHUNKED: '1' } },
	{ label: 'Trigger media delivery, in-memory binary mode', script: 'triggerMemory.ts', env: {} },
	{ label: 'Trigger media delivery, filesystem binary mode', script: 'triggerMemory.ts', env: { BENCH_TRIGGER_MODE: 'filesystem' } },
];

function runCase(c: Case, mb: number): Promise<MemoryResult> {
	const child = fork(path.join(__dirname, c.script), [], {
		execArgv: ['--import', 'tsx'],
		env: { ...process.env, BENCH_DOWNLOAD_MB: String(mb), BENCH_TRIGGER_MB: String(mb), ...c.env },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	return new Promise((resolve, reject) => {
		child.once('message', (message) => resolve(message as MemoryResult));
		child.once('exit', (code) => reject(new Error(`${c.script} exited (${code}) without a result`)));
	});
}

/** Measures every case into `out`; resolves with what failed, one line per case (none: all held). */
export async function memoryBench(out: string[]): Promise<string[]> {
	const mb = Number(process.env.BENCH_MEMORY_MB || 150);
	const rows: string[][] = [];
	const problems: string[] = [];
	for (const c of CASES) {
		log(`memory: ${c.label}`);
		try {
			const r = await runCase(c, mb);
			const problem = peakProblem(c.label, r.ratio) ?? (r.ok ? undefined : `${c.label}: ${r.error ?? 'the output is not the file'}`);
			if (problem) problems.push(problem);
			rows.push([
				c.label,
				`${fmt(r.ratio, 2)}×${r.ratio > PEAK_LIMIT ? ' ✗' : ''}`,
				r.readingRatio === undefined ? '' : `${fmt(r.readingRatio, 2)}×`,
				r.ok ? 'byte-exact' : `✗ ${r.error ?? 'not the file'}`,
			]);
		} catch (e) {
			rows.push([c.label, 'n/a', '', `✗ ${(e as Error).message}`]);
			problems.push(`${c.label}: ${(e as Error).message}`);
		}
	}
	out.push(`## 5. Memory of one ${mb} MB file (peak RSS above the start, × the file)`);
	out.push('');
	out.push(table(['path', 'peak × file', "node's reading alone", 'output'], rows));
	out.push(
		'',
		"In n8n's in-memory mode its prepareBinaryData keeps the file and makes its base64 (2.33× the file: n8n's floor); " +
			`a delivery is measured from the parsed body n8n hands webhook(). Limit: ${PEAK_LIMIT}×.`,
	);
	if (problems.length > 0) out.push('', '**Failed:**', ...problems.map((problem) => `- ${problem}`));
	return problems;
}
