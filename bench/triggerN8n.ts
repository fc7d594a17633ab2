/**
 * Part 6 of `npm run bench`: a message delivery inside one real n8n (the pinned runtime),
 * three ways side by side (bench/triggerN8nSetup.ts): n8n's Webhook node → Edit Fields, the
 * floor community trigger (its webhook() returns the body as one item) and our trigger.
 *
 * Each round runs, per contender and interleaved (the order rotates):
 * - seq: BENCH_TRIGGER_N8N_SEQ deliveries one after the other; per delivery the answer's
 *   latency (client side) and n8n's CPU (utime+stime of its process group from /proc, from
 *   the first delivery until the last execution finished, divided by the deliveries);
 * - burst: BENCH_TRIGGER_N8N_BURST deliveries, 8 at a time; when the last answer was out, when
 *   the last execution finished (its `stoppedAt`), and the lag between them: how long n8n
 *   held answered messages whose executions had not ended.
 * "Finished" is read from n8n itself: every delivery must have made exactly one execution
 * (listed over REST, then deleted so each batch starts empty). CPU stops counting when n8n
 * has gone idle (two 100 ms samples at most 3 ms above its background, measured right before
 * the batch and subtracted) and REST then confirms every execution ended.
 *
 * `tsx bench/triggerN8n.ts` runs it alone; BENCH_TRIGGER_PROFILE=<dir> starts n8n with
 * `--cpu-prof` and prints, for the trigger's and the floor's last seq batch, where n8n's main
 * thread spent its time (bench/profile.ts's analysis).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, ensureN8n, installTarballIntoUserFolder, packRepo, setupOwnerAndLogin, startN8n, type N8nHandle, type RestClient } from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import { analyse } from './profile';
import { createDeliveryWorkflows, DELIVERY_CONTENDERS, floorTarball, messageDelivery, type DeliveryContender } from './triggerN8nSetup';
import { envInt, fmt, fmtRatio, groupCpuMs, log, median, sleep, table } from './util';

const INSTANCE = 'demo';
const BURST_CONCURRENCY = 8;

export interface BatchMeasure {
	n: number;
	/** answer latency per delivery, ms */
	latencies: number[];
	/** n8n's CPU from the first delivery until its last execution ended, ms */
	cpuMs: number;
	/** from the first delivery: the last answer out, the last execution finished (ms) */
	answersOutMs: number;
	finishedMs: number;
	/** profile clock (µs) of the batch */
	windowUs: [number, number];
}

interface ExecutionRow {
	id: string;
	status: string;
	stoppedAt?: string | null;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: BURST_CONCURRENCY });

function post(url: string, body: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
			let text = '';
			res.on('data', (c) => (text += c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
		});
		req.setTimeout(120_000, () => req.destroy(new Error(`timeout ${url}`)));
		req.on('error', reject);
		req.end(body);
	});
}

async function executionsOf(rest: RestClient, workflowId: string): Promise<ExecutionRow[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = (await rest.call('GET', `/executions?filter=${filter}&limit=1000`)) as { results: ExecutionRow[] };
	return page.results;
}

/**
 * n8n's CPU per 100 ms while it has nothing to do (timers, the task runner's heartbeat; with
 * --cpu-prof the profiler's own sampling, which grows with the profile): the least of 5 samples.
 */
async function backgroundCpu(pid: number): Promise<number> {
	let least = Infinity;
	let last = groupCpuMs(pid);
	for (let n = 0; n < 5; n++) {
		await sleep(100);
		const now = groupCpuMs(pid);
		least = Math.min(least, now - last);
		last = now;
	}
	return least;
}

/** Until n8n's process group used at most its background + 3 ms of CPU in each of two 100 ms samples; the CPU reading then. */
async function idleCpu(pid: number, background: number): Promise<number> {
	let quiet = 0;
	let last = groupCpuMs(pid);
	while (quiet < 2) {
		await sleep(100);
		const now = groupCpuMs(pid);
		quiet = now - last <= background + 3 ? quiet + 1 : 0;
		last = now;
	}
	return last;
}

export interface DeliveryBench {
	batch(contender: DeliveryContender, n: number, concurrency: number): Promise<BatchMeasure>;
	pid: number;
	stop(): Promise<void>;
}

export async function startDeliveryBench(opts: { tarball: string; sandbox: Sandbox; version: string; env?: NodeJS.ProcessEnv; echo?: boolean }): Promise<DeliveryBench & { userFolder: string }> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-delivery-'));
	await installTarballIntoUserFolder(opts.tarball, userFolder);
	const floor = floorTarball();
	await installTarballIntoUserFolder(floor, userFolder);
	fs.rmSync(path.dirname(floor), { recursive: true, force: true });
	const n8n: N8nHandle = await startN8n({ version: opts.version, userFolder, echo: opts.echo, env: opts.env });
	const pid = n8n.pid ?? 0;
	const rest = await setupOwnerAndLogin(n8n.url);
	const { sandbox } = opts;
	const credential = (await rest.call('POST', '/credentials', {
		name: 'Sandbox (bench)',
		type: 'messagingInstanceApi',
		data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' },
	})) as { id: string };
	const { ids, specs } = await createDeliveryWorkflows(rest, credential.id, INSTANCE);
	// n8n answers the activation before the trigger's create() has run.
	let registered = sandbox.webhookOf(INSTANCE)?.url;
	for (const deadline = Date.now() + 60_000; !registered && Date.now() < deadline; registered = sandbox.webhookOf(INSTANCE)?.url) await sleep(200);
	if (!registered) throw new Error('the trigger registered no webhook with the sandbox within 60 s');
	const urls: Record<DeliveryContender, string> = {
		webhook: `${n8n.url}/webhook/bench-delivery`,
		floor: `${n8n.url}/webhook/${specs.floor.webhookId}/webhook`,
		trigger: registered,
	};
	const token = sandbox.instanceToken(INSTANCE);
	let runCounter = 0;

	const batch = async (contender: DeliveryContender, n: number, concurrency: number): Promise<BatchMeasure> => {
		const run = `${(runCounter++).toString(36).padStart(3, '0')}`.toUpperCase();
		const bodies = Array.from({ length: n }, (_, i) => messageDelivery(INSTANCE, token, sandbox.url, i, run));
		const latencies: number[] = [];
		const wrong: string[] = [];
		const background = await backgroundCpu(pid);
		const cpu0 = groupCpuMs(pid);
		const from = Date.now();
		const fromUs = Number(process.hrtime.bigint() / 1000n);
		let next = 0;
		let lastAnswer = from;
		await Promise.all(
			Array.from({ length: concurrency }, async () => {
				while (next < n) {
					const body = bodies[next++];
					const t = process.hrtime.bigint();
					const res = await post(urls[contender], body);
					latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
					lastAnswer = Date.now();
					if (res.status !== 200) wrong.push(`${res.status} ${res.body.slice(0, 200)}`);
				}
			}),
		);
		const toUs = Number(process.hrtime.bigint() / 1000n);
		if (wrong.length > 0) throw new Error(`${contender}: ${wrong.length} of ${n} deliveries not answered 200: ${wrong[0]}`);
		let cpu1 = 0;
		let idleAt = from;
		let rows: ExecutionRow[] = [];
		for (const deadline = Date.now() + 300_000; ; ) {
			cpu1 = await idleCpu(pid, background);
			idleAt = Date.now();
			rows = await executionsOf(rest, ids[contender]);
			if (rows.length >= n && rows.every((row) => row.status !== 'new' && row.status !== 'running')) break;
			if (Date.now() > deadline) throw new Error(`${contender}: ${rows.length} executions of ${n} after 5 minutes`);
		}
		if (rows.length !== n || rows.some((row) => row.status !== 'success')) {
			throw new Error(`${contender}: ${n} deliveries made ${rows.length} executions (${rows.filter((row) => row.status !== 'success').length} not successful)`);
		}
		const finished = Math.max(...rows.map((row) => Date.parse(row.stoppedAt ?? '')));
		await rest.call('POST', '/executions/delete', { ids: rows.map((row) => row.id) });
		// The background n8n uses anyway is not the deliveries' cost.
		const cpuMs = cpu1 - cpu0 - (background * (idleAt - from)) / 100;
		return { n, latencies, cpuMs, answersOutMs: lastAnswer - from, finishedMs: finished - from, windowUs: [fromUs, toUs] };
	};

	return {
		pid,
		userFolder,
		batch,
		async stop() {
			agent.destroy();
			await n8n.stop();
		},
	};
}

interface Samples {
	seq: BatchMeasure[];
	burst: BatchMeasure[];
}

const LABEL: Record<DeliveryContender, string> = {
	webhook: "n8n's Webhook node → Edit Fields",
	floor: 'floor trigger (body as one item)',
	trigger: 'our trigger (Messaging Instance Trigger)',
};

/** Runs the rounds; the section's lines go to `out`. With `profileDir`, n8n writes a CPU profile there. */
export async function triggerN8nBench(tarball: string, version: string, rounds: number, out: string[], profileDir?: string): Promise<void> {
	const seqN = envInt('BENCH_TRIGGER_N8N_SEQ', 100);
	const burstN = envInt('BENCH_TRIGGER_N8N_BURST', 200);
	const { startSandbox } = await import('../sandbox/server');
	const sandbox: Sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: INSTANCE }] });
	const env = profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=500` } : undefined;
	const bench = await startDeliveryBench({ tarball, sandbox, version, env, echo: process.env.BENCH_VERBOSE === '1' });
	const samples = Object.fromEntries(DELIVERY_CONTENDERS.map((c) => [c, { seq: [], burst: [] }])) as unknown as Record<DeliveryContender, Samples>;
	try {
		log(`deliveries in n8n: warm-up (${Math.min(50, seqN)} each)`);
		for (const c of DELIVERY_CONTENDERS) await bench.batch(c, Math.min(50, seqN), 1);
		for (let round = 0; round < rounds; round++) {
			for (let k = 0; k < DELIVERY_CONTENDERS.length; k++) {
				const c = DELIVERY_CONTENDERS[(k + round) % DELIVERY_CONTENDERS.length];
				const seq = await bench.batch(c, seqN, 1);
				samples[c].seq.push(seq);
				const burst = await bench.batch(c, burstN, BURST_CONCURRENCY);
				samples[c].burst.push(burst);
				log(
					`round ${round + 1}/${rounds} ${c}: seq ${fmt(seq.cpuMs / seqN, 1)} ms CPU/delivery, answer ${fmt(median(seq.latencies), 1)} ms; ` +
						`burst answers out ${fmt(burst.answersOutMs / 1000, 1)} s, executions finished ${fmt(burst.finishedMs / 1000, 1)} s`,
				);
			}
		}
	} finally {
		await bench.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		if (process.env.BENCH_KEEP !== '1') fs.rmSync(bench.userFolder, { recursive: true, force: true });
	}
	deliverySection(samples, seqN, burstN, rounds, version, out);
	if (profileDir) {
		// Each batch's window on the profile's clock, for a closer look at the profile afterwards.
		const windows = Object.fromEntries(DELIVERY_CONTENDERS.map((c) => [c, samples[c].seq.map((m) => m.windowUs)]));
		fs.writeFileSync(path.join(profileDir, 'windows.json'), JSON.stringify({ pid: bench.pid, n: seqN, windows }));
		out.push('', ...profileSection(profileDir, bench.pid, samples, seqN));
	}
}

function deliverySection(samples: Record<DeliveryContender, Samples>, seqN: number, burstN: number, rounds: number, version: string, out: string[]): void {
	const cpu = (c: DeliveryContender) => samples[c].seq.map((m) => m.cpuMs / m.n);
	const wall = (c: DeliveryContender) => samples[c].seq.map((m) => median(m.latencies));
	/** Median of the per-round ratios (rounds are interleaved, so a round's load is shared). */
	const ratio = (values: (c: DeliveryContender) => number[], a: DeliveryContender, b: DeliveryContender) =>
		median(values(a).map((v, round) => v / values(b)[round]));
	const lag = (m: BatchMeasure) => (m.finishedMs - m.answersOutMs) / 1000;
	const rows = DELIVERY_CONTENDERS.map((c) => [
		LABEL[c],
		fmt(median(cpu(c)), 1),
		c === 'webhook' ? '1.00×' : fmtRatio(ratio(cpu, c, 'webhook')),
		c === 'webhook' ? '' : c === 'floor' ? '1.00×' : fmtRatio(ratio(cpu, c, 'floor')),
		fmt(median(wall(c)), 1),
		c === 'webhook' ? '1.00×' : fmtRatio(ratio(wall, c, 'webhook')),
		c === 'webhook' ? '' : c === 'floor' ? '1.00×' : fmtRatio(ratio(wall, c, 'floor')),
		fmt(median(samples[c].burst.map((m) => m.answersOutMs / 1000)), 1),
		fmt(median(samples[c].burst.map((m) => m.finishedMs / 1000)), 1),
		fmt(median(samples[c].burst.map(lag)), 2),
	]);
	out.push(`## 6. A message delivery inside n8n ${version}: trigger vs Webhook node vs floor (${rounds} rounds, medians)`);
	out.push('');
	out.push(
		table(
			['contender', 'CPU ms/delivery (seq)', '× Webhook', '× floor', 'answer ms (seq)', '× Webhook', '× floor', `burst ${burstN}: answers out s`, 'executions finished s', 'lag s'],
			rows,
		),
	);
	out.push('');
	out.push(
		`seq: ${seqN} deliveries one after the other; CPU = n8n's process group (main + task runner) from the first delivery until n8n was idle with every execution ended, / ${seqN}. ` +
			`burst: ${burstN} deliveries ${BURST_CONCURRENCY} at a time; lag = last execution's stoppedAt − last answer. Every delivery answered 200 and made exactly one successful execution (saved, as n8n saves by default). Ratios are medians of per-round ratios.`,
	);
}

interface ProfileFile {
	nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }>;
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

function profileSection(dir: string, pid: number, samples: Record<DeliveryContender, Samples>, n: number): string[] {
	const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.`));
	if (!file) return [`No CPU profile of pid ${pid} in ${dir}.`];
	const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ProfileFile;
	const lines = [`### CPU profile of n8n (${path.join(dir, file)}), the last seq batch of each`, ''];
	for (const c of ['trigger', 'floor'] as const) {
		const last = samples[c].seq.at(-1);
		if (!last) continue;
		lines.push(`#### ${LABEL[c]}`, '', analyse(profile, last.windowUs[0], last.windowUs[1], n), '');
	}
	return lines;
}

async function main(): Promise<void> {
	const version = process.env.BENCH_N8N_VERSION || DEFAULT_N8N_VERSION;
	await ensureN8n(version);
	const tarball = await packRepo(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-pack-')));
	const profileDir = process.env.BENCH_TRIGGER_PROFILE ? path.resolve(process.env.BENCH_TRIGGER_PROFILE) : undefined;
	if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
	const out: string[] = [];
	try {
		await triggerN8nBench(tarball, version, envInt('BENCH_ROUNDS', 3), out, profileDir);
	} finally {
		fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	console.log(out.join('\n'));
}

if (require.main === module) {
	main().then(
		() => process.exit(0),
		(e: Error) => {
			console.error(e.stack ?? e);
			process.exit(1);
		},
	);
}
