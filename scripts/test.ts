/**
 * `npm test`: every tier, in stages, each stage's parts side by side where the two cores allow
 * it, and stopping after the first stage that fails:
 *
 *   1. lint, type check and the package scan, side by side (each one process, one core);
 *   2. jest alone, two suites at a time (`--maxWorkers=2`): most of a suite's time is waiting
 *      (Collect Burst's quiet seconds, the sandbox's answers), so two at a time took 364 s on a
 *      quiet machine where jest's default for two cores (one at a time) took 896 s at load ~8
 *      (2026-11-27). Three at a time was no faster (348–386 s) and, beside CI's n8n installs,
 *      once stretched a 60 ms answer past a test's 0.2 s request timeout;
 *   3. the package packed once, then the end-to-end tier on n8n 2.40.7 (every group,
 *      filesystem binary data) beside the one on 2.41.1 (the groups with a reason to run on a
 *      second version, database binary data; e2e/groups.ts): both mostly wait on n8n and the
 *      sandbox, so together they take little more than the longer one. The second one's output
 *      is printed when it ends, so neither's lines are interleaved;
 *   4. the queue-mode tier alone (its burst puts a CPU load beside the cluster on purpose).
 *
 * What a stage needs on the machine is installed before it: the e2e stage runs the recipe that
 * needs Redis (check (x), the queue-mode dedupe recipe), so Debian's PostgreSQL and Redis are
 * installed (`.ci/services.sh`, when missing and root or sudo allows) before it, not only by
 * the queue stage after it.
 *
 * Prints each stage's time and, at the end, all of them and every check that was skipped (the
 * SKIP lines of every part, repeated there so they are not lost in the middle of the output);
 * with CI=true a skip fails the run. TEST_STAGES=checks,unit,e2e,queue runs only those stages
 * (e.g. TEST_STAGES=e2e). Node built-ins only.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { packRepo } from './runtime/pack';
import { REPO_ROOT } from './runtime/common';
import { ensureServiceBinaries } from './services';

interface Part {
	label: string;
	/** the npm script it runs */
	script: string;
	env?: NodeJS.ProcessEnv;
	/** print its output as it comes (else when it ends) */
	live?: boolean;
}

/** Removes what a stage made for its parts (the shared tarball). */
const cleanups: Array<() => void> = [];

interface Finished {
	label: string;
	code: number;
	seconds: number;
	/** what the part printed (stdout and stderr) */
	output: string;
}

/**
 * The lines by which the tiers say a check was skipped: e2e/report.ts's `SKIP <check>`, the
 * `!!! SKIPPED …` / `!!! SKIPPING …` banners, and the jest reporter's list of skipped tests
 * (test/reporters/skipped.js: `!!! N tests were SKIPPED…` then one `!!!   <file>: <test>` each).
 */
export function skipLines(output: string): string[] {
	return output.split('\n').map((line) => line.trimEnd()).filter((line) => /^SKIP |^!!! SKIPP|^!!! .*SKIPPED|^!!! {3}\S/.test(line));
}

/** Runs `npm run <script>`; a live part streams its output, the others print theirs when they end. */
function runPart(part: Part): Promise<Finished> {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', part.script], {
			cwd: REPO_ROOT,
			env: { ...process.env, ...part.env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const chunks: Buffer[] = [];
		child.stdout?.on('data', (c: Buffer) => {
			chunks.push(c);
			if (part.live) process.stdout.write(c);
		});
		child.stderr?.on('data', (c: Buffer) => {
			chunks.push(c);
			if (part.live) process.stderr.write(c);
		});
		const done = (code: number) => {
			const seconds = Math.round((Date.now() - started) / 1000);
			if (!part.live) {
				console.log(`\n===== ${part.label} (npm run ${part.script}) =====`);
				process.stdout.write(Buffer.concat(chunks));
			}
			console.log(`test: ${part.label} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
			resolve({ label: part.label, code, seconds, output: Buffer.concat(chunks).toString('utf8') });
		};
		child.on('error', (e) => {
			chunks.push(Buffer.from(String(e)));
			done(1);
		});
		child.on('close', (code) => done(code ?? 1));
	});
}

const STAGES: Array<{ name: string; parts: () => Promise<Part[]> | Part[] }> = [
	{
		name: 'checks',
		parts: () => [
			{ label: 'lint', script: 'lint' },
			{ label: 'type check', script: 'typecheck' },
			{ label: 'package scan', script: 'test:scan' },
		],
	},
	{ name: 'unit', parts: () => [{ label: 'jest', script: 'test:unit', live: true }] },
	{
		name: 'e2e',
		parts: async () => {
			// (x) runs the queue-mode dedupe recipe on a Redis of its own: install it now, not only for the queue stage.
			const services = await ensureServiceBinaries({ install: true });
			if (services.missing.length > 0) console.log(`test: the e2e stage lacks ${services.missing.join(', ')} (bash .ci/services.sh installs them); the checks that need them are skipped\n${services.installLog ?? ''}`);
			// One build and tarball for both versions (two `npm pack`s at once would build into one dist/).
			const tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
			if (!process.env.E2E_TARBALL) cleanups.push(() => fs.rmSync(path.dirname(tarball), { recursive: true, force: true }));
			return [
				{ label: 'e2e on n8n 2.40.7', script: 'test:e2e', env: { E2E_TARBALL: tarball }, live: true },
				{ label: 'e2e on n8n 2.41.1', script: 'test:e2e:latest', env: { E2E_TARBALL: tarball } },
			];
		},
	},
	{ name: 'queue', parts: () => [{ label: 'queue-mode tier', script: 'test:queue', live: true }] },
];

async function main(): Promise<number> {
	const wanted = process.env.TEST_STAGES?.split(',').map((s) => s.trim());
	const times: Finished[] = [];
	const t0 = Date.now();
	let failed = false;
	for (const stage of STAGES) {
		if (wanted && !wanted.includes(stage.name)) continue;
		const started = Date.now();
		const parts = await stage.parts();
		const results = await Promise.all(parts.map(runPart));
		times.push(...results);
		console.log(`test: stage ${stage.name} took ${Math.round((Date.now() - started) / 1000)} s`);
		if (results.some((r) => r.code !== 0)) {
			failed = true;
			break;
		}
	}
	for (const cleanup of cleanups) cleanup();
	const skipped = times.flatMap((t) => skipLines(t.output).map((line) => `${t.label}: ${line}`));
	if (skipped.length > 0) {
		const bar = '!'.repeat(78);
		console.log(`\n${bar}\n!!! npm test SKIPPED checks, so what they check was NOT tested:\n${skipped.map((line) => `!!!   ${line}`).join('\n')}`);
		if (process.env.CI === 'true') console.log('!!! CI=true: a skipped check fails the run.');
		console.log(bar);
	}
	console.log(`test: ${times.map((t) => `${t.label} ${t.seconds} s${t.code === 0 ? '' : ' (failed)'}`).join(', ')}; total ${Math.round((Date.now() - t0) / 1000)} s${skipped.length > 0 ? `; ${skipped.length} skip line(s) above` : ''}`);
	return failed || (skipped.length > 0 && process.env.CI === 'true') ? 1 : 0;
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(e) => {
			console.error(e);
			for (const cleanup of cleanups) cleanup();
			process.exit(1);
		},
	);
}
