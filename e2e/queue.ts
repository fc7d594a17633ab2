/**
 * Queue-mode tier: the package, packed and installed from its tarball, inside the pinned n8n
 * (2.40.7) run the way users scale it out — Postgres, Redis, one main process, two webhook
 * processes behind a load balancer and two workers — against the v2 sandbox.
 *
 *   npm run test:queue            (tsx e2e/queue.ts)
 *
 * Postgres and Redis are Debian's packages (`.ci/services.sh` installs them; the tier runs it
 * when they are missing), started by scripts/services.ts on free loopback ports in a
 * temporary folder and stopped by PID. The balancer (e2e/balancer.ts) is the webhook URL n8n
 * registers; it forwards each delivery to webhook process A or B (alternating, one of them,
 * or both at once). The cross-process duplicate pattern proven here — Redis Increment on the
 * trigger's `dedupeKey`, then If count = 1 — is the one the README's "Running in queue mode"
 * describes.
 *
 * The checks are e2e/queue/checks.ts (in order; the burst is e2e/queue/burst.ts), on the
 * cluster of e2e/queue/cluster.ts running the workflows of e2e/queue/workflows.ts.
 *
 * Env: QUEUE_BURST (messages in the burst, default 300), QUEUE_CPU_LOAD (CPU-bound processes
 * beside the cluster during the burst, default 1), QUEUE_VERBOSE=1 echoes n8n's output,
 * QUEUE_KEEP=1 keeps the user folders, QUEUE_PROFILE=<dir> writes a CPU profile of every n8n
 * process there (<dir>/<command>/*.cpuprofile, written when it stops), E2E_TARBALL=<file> tests that tarball. CI=true turns a
 * missing n8n, Postgres or Redis into a failure instead of a skip.
 * Prints PASS/FAIL lines and ends with `queue: N passed, N failed`; exit 1 on a failure.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { ensureN8n } from '../scripts/n8n-runtime';
import { ensureServiceBinaries } from '../scripts/services';
import { Report } from './report';
import { QUEUE_CHECKS } from './queue/checks';
import { processes, VERSION } from './queue/cluster';
import type { Tier } from './queue/tier';

const CI = process.env.CI === 'true';
const report = new Report('queue');

/** What the tier needs on the machine: n8n, Postgres and Redis; a skip (a failure with CI=true) without them. */
async function prerequisites(): Promise<Tier['bins']> {
	try {
		await ensureN8n(VERSION);
	} catch (e) {
		const msg = e instanceof Error ? e.message : String(e);
		if (CI) {
			report.record(`install n8n@${VERSION}`, false, msg);
			report.summary();
		}
		report.skip('queue-mode tier', `n8n@${VERSION} cannot be installed on this machine: ${msg.split('\n')[0]}`);
		report.summary();
	}
	const bins = await ensureServiceBinaries({ install: true });
	if (bins.missing.length > 0) {
		const why = `missing ${bins.missing.join(', ')} (install with: bash .ci/services.sh)${bins.installLog ? `\n${bins.installLog.slice(-1500)}` : ''}`;
		if (CI) {
			report.record('Postgres and Redis are installed (Debian packages postgresql, redis-server)', false, `${why}; CI=true, so this is a failure`);
			report.summary();
		}
		report.skip('queue-mode tier', `${why}; queue mode is NOT tested`);
		report.summary();
	}
	return bins;
}

/** Stops everything the checks started (n8n, Postgres, Redis, the sandbox, the balancer, extra load) and removes the folders. */
async function stopTier(t: Tier): Promise<void> {
	for (const child of t.extraProcesses) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	if (t.cluster) await Promise.allSettled([t.cluster.main, ...t.cluster.webhooks, ...t.cluster.workers].map((p) => p.stop()));
	await Promise.allSettled([t.services?.stop(), t.sandbox?.close(), t.balancer?.close()]);
	if (process.env.QUEUE_KEEP === '1') console.log(`queue: user folders kept in ${t.root}`);
	else fs.rmSync(t.root, { recursive: true, force: true });
	if (t.tarball && !process.env.E2E_TARBALL) fs.rmSync(path.dirname(t.tarball), { recursive: true, force: true });
}

async function main(): Promise<void> {
	const t0 = Date.now();
	const bins = await prerequisites();
	const tier: Tier = { root: fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-')), bins, tarball: '', registered: {}, extraProcesses: [] };
	let stopping: Promise<void> | undefined;
	const stopAll = () => (stopping ??= stopTier(tier));
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.once(sig, () => {
			report.interrupted = true;
			console.log(`queue: ${sig}, stopping n8n, Postgres, Redis and the sandbox`);
			void stopAll().then(() => process.exit(130));
		});
	}
	try {
		// QUEUE_ONLY=<text>: the gates (which set the tier up) and the checks whose name contains the text.
		const only = process.env.QUEUE_ONLY;
		await report.runInOrder(only ? QUEUE_CHECKS.filter((check) => check.gate || check.name.includes(only)) : QUEUE_CHECKS, tier);
	} catch (e) {
		report.record('queue run aborted', false, e instanceof Error ? (e.stack ?? e.message) : String(e));
	} finally {
		if (report.failed > 0 && tier.cluster) {
			const named = tier.cluster.webhooks.length ? processes(tier.cluster) : [['main', tier.cluster.main] as const];
			for (const [name, h] of named) console.log(`--- last output of ${name} ---\n${h.logs().slice(-2500)}`);
		}
		await stopAll();
		console.log(`queue: took ${Math.round((Date.now() - t0) / 1000)} s`);
	}
}

main()
	.catch((e) => report.record('queue runner crashed', false, e instanceof Error ? (e.stack ?? e.message) : String(e)))
	.finally(() => report.summary());
