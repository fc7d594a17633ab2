/**
 * `npm run bench`: what the package costs per message, side by side with the alternatives
 * (what a user weighs when choosing it over n8n's HTTP Request node). Not part of `npm test`.
 *
 *   1. sending: our action node vs n8n's HTTP Request node inside one real n8n (the pinned
 *      runtime of the e2e tier), and a bare Node `fetch` loop (the limit), at each size,
 *      contenders interleaved round by round, control workflow subtracted (bench/n8nSend.ts);
 *   2. trigger overhead: deliveries per second through the trigger's webhook() vs a bare
 *      JSON.parse, and the cost of a 1 MB media file as binary data (bench/triggerBench.ts);
 *   3. load cost: requiring the built nodes and the credential; the tarball's size
 *      (bench/loadCost.ts);
 *   4. media from binary: a 16 MB video against a bare fetch of the same body, and 1,000
 *      images of 100 kB against n8n's HTTP Request node (bench/mediaBench.ts);
 *   5. memory of a large file: Download Media and a media delivery, peak RSS as a multiple of
 *      the file, in n8n's in-memory and filesystem binary modes (bench/memoryBench.ts; one
 *      case at a time, with the repository's Node and n8n-core);
 *   6. a message delivery inside n8n: our trigger vs n8n's Webhook node → Edit Fields vs the
 *      floor community trigger, CPU and answer per delivery, and a burst's lag between the
 *      answers and the executions (bench/triggerN8n.ts; BENCH_TRIGGER_N8N_SEQ, default 100,
 *      BENCH_TRIGGER_N8N_BURST, default 200; BENCH_TRIGGER_PROFILE=<dir> adds a CPU profile);
 *   7. Collect Burst: requests and CPU per incoming message of its check, beside a bare Find
 *      Messages request of the same chat page (bench/collectBurst.ts);
 *   8. the chat memory: requests and ms per agent turn, beside n8n's Simple Memory (its core,
 *      a window over a history in the process), both through n8n-core (bench/chatMemory.ts).
 *
 * Env: BENCH_ROUNDS (default 5; medians of that many rounds), BENCH_SIZES (default
 * "1000,10000"), BENCH_N8N_VERSION (default the pinned one), BENCH_SKIP_N8N=1 (parts 2 and
 * 3 only), BENCH_VERBOSE=1 (echo n8n's output), BENCH_TRIGGER_DELIVERIES (20000 per round),
 * BENCH_TRIGGER_MEDIA (20 per round), BENCH_MEDIA_ROUNDS (part 4; default max(rounds, 5)),
 * BENCH_MEDIA_IMAGES (part 4; default 1000), BENCH_SAVE=1 (part 4: keep successful executions
 * and log each node's own time from n8n's run data), BENCH_MEDIA_PROFILE=<dir> (part 4: n8n
 * writes a V8 CPU profile there, and windows.json the time window of each run on the profile's
 * clock), BENCH_MEDIA_VIDEOS (part 4: videos per run, default 4), BENCH_MEDIA_VIDEO_REPEATS
 * (video samples per round, default 2), BENCH_MEDIA_SETTLE_MS (pause before each timed run,
 * default 400), BENCH_MEDIA_NODE_OPTIONS (part 4: more NODE_OPTIONS for n8n, e.g. a --require
 * that observes its garbage collection), BENCH_MEMORY_MB (part 5: the file, default 150), BENCH_PARTS (which parts to run, e.g. "4" or "1,4"; default all;
 * part 4 alone: `BENCH_PARTS=4 BENCH_MEDIA_ROUNDS=5 npm run bench`), BENCH_TRIGGER_COMPARE=<checkout>
 * (part 2: also time the trigger built in that checkout's dist/, e.g. a `git worktree` of an
 * earlier commit, interleaved in the same process; rows marked "(compare)"), BENCH_CLOCK=cpu
 * (part 2: time by the process's CPU time instead of the wall clock, for a shared machine).
 * Prints the tables and writes them to bench/results/latest.md (git-ignored).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, ensureN8n, packRepo, type N8nRuntime } from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import type { LoopResult } from './fetchLoop';
import { measureLoadCost, tarballInfo, type LoadCost, type TarballInfo } from './loadCost';
import { chatMemoryBench } from './chatMemory';
import { collectBurstBench } from './collectBurst';
import { mediaBench } from './mediaBench';
import { memoryBench } from './memoryBench';
import { startN8nBench, type N8nContender, type RunMeasure } from './n8nSend';
import { triggerN8nBench } from './triggerN8n';
import { envInt, envList, fmt, fmtRatio, forkTs, log, max, mb, median, min, once, table } from './util';

const REPO = path.resolve(__dirname, '..');
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const SIZES = envList('BENCH_SIZES', [1000, 10000]);
const VERSION = process.env.BENCH_N8N_VERSION || DEFAULT_N8N_VERSION;
const PARTS = new Set(envList('BENCH_PARTS', [1, 2, 3, 4, 5, 6, 7, 8]));

type Contender = N8nContender | 'bare';
const CONTENDERS: Contender[] = ['control', 'action', 'httpRequest', 'bare'];
const LABEL: Record<Contender, string> = {
	control: 'control (Webhook + Code, no send)',
	action: 'our action node (Send Text)',
	httpRequest: "n8n's HTTP Request node",
	bare: 'bare fetch loop (Node 24)',
};

// ------------------------------------------------------------------------------ part 1

interface Sample extends RunMeasure {
	round: number;
}

async function sendBench(rt: N8nRuntime, tarball: string, out: string[]): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const sandbox: Sandbox = await startSandbox({ dialect: 'documented', instances: [{ name: 'demo' }] });
	const loop = forkTs(rt, 'bench/fetchLoop.ts');
	await once(loop);
	const bench = await startN8nBench({ tarball, sandbox, version: VERSION, echo: process.env.BENCH_VERBOSE === '1' });
	const stopAll = async () => {
		loop.kill();
		await bench.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		if (process.env.BENCH_KEEP !== '1') fs.rmSync(bench.userFolder, { recursive: true, force: true });
	};
	process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

	const runBare = async (n: number): Promise<RunMeasure> => {
		sandbox.clearRequests();
		(sandbox.chat as unknown[]).length = 0;
		loop.send({ n, url: `${sandbox.url}/message/sendText/demo`, apiKey: sandbox.apiKey });
		const msg = await once<{ result?: LoopResult; error?: string }>(loop);
		if (!msg.result) throw new Error(`fetch loop failed: ${msg.error}`);
		const reqs = sandbox.requests;
		const okRequests = reqs.filter((r) => r.path === '/message/sendText/demo' && r.status >= 200 && r.status < 300).length;
		const m = { ...msg.result, requests: reqs.length, okRequests };
		sandbox.clearRequests();
		return m;
	};
	const runOne = (c: Contender, n: number) => (c === 'bare' ? runBare(n) : bench.run(c, n));

	const samples = new Map<string, Sample[]>();
	const heapRuns = new Map<string, RunMeasure>();
	const key = (c: Contender, n: number) => `${c}@${n}`;
	try {
		// Warm-up: JIT, connection pools, lazy module loads; not measured.
		const warmN = Math.min(1000, ...SIZES);
		log(`warm-up: every contender once at ${warmN} items`);
		for (const c of CONTENDERS) await runOne(c, warmN);

		const started = Date.now();
		for (let round = 0; round < ROUNDS; round++) {
			for (const n of SIZES) {
				for (let k = 0; k < CONTENDERS.length; k++) {
					const c = CONTENDERS[(k + round) % CONTENDERS.length];
					const m = await runOne(c, n);
					const list = samples.get(key(c, n)) ?? [];
					list.push({ ...m, round });
					samples.set(key(c, n), list);
					log(
						`round ${round + 1}/${ROUNDS} n=${n} ${c}: ${fmt(m.wallMs)} ms wall, ${fmt(m.cpuMs)} ms CPU, ` +
							`${m.okRequests}/${m.requests} requests ok, +${mb(m.rssPeak - m.rssBefore)} RSS`,
					);
				}
			}
			log(`round ${round + 1} done after ${Math.round((Date.now() - started) / 1000)} s`);
		}
		// Memory: one run per n8n contender and size with n8n's heap polled (not timed).
		for (const n of SIZES) {
			for (const c of CONTENDERS) {
				if (c === 'bare') continue;
				const m = await bench.run(c, n, { heap: true });
				heapRuns.set(key(c, n), m);
				log(`heap run n=${n} ${c}: +${mb((m.heapPeak ?? NaN) - (m.heapBefore ?? NaN))} heap`);
			}
		}
	} finally {
		await stopAll();
	}

	// ---- derive per-round figures, then medians
	const rows: string[][] = [];
	const notes: string[] = [];
	const summary: string[] = [];
	for (const n of SIZES) {
		const byRound = (c: Contender) => new Map((samples.get(key(c, n)) ?? []).map((s) => [s.round, s]));
		const ctl = byRound('control');
		const perMsg = (
			c: Contender,
		): Array<{ us: number; cpuUs: number; growth: number; overCtl: number; s: Sample }> => {
			const out = [];
			for (const s of samples.get(key(c, n)) ?? []) {
				const base = c === 'bare' ? undefined : ctl.get(s.round);
				const wall = base ? s.wallMs - base.wallMs : s.wallMs;
				const cpu = base ? s.cpuMs - base.cpuMs : s.cpuMs;
				const growth = s.rssPeak - s.rssBefore;
				const ctlGrowth = base ? base.rssPeak - base.rssBefore : 0;
				out.push({ us: (wall * 1000) / n, cpuUs: (cpu * 1000) / n, growth, overCtl: (growth - ctlGrowth) / n, s });
			}
			return out;
		};
		const stats = Object.fromEntries(CONTENDERS.map((c) => [c, perMsg(c)])) as Record<Contender, ReturnType<typeof perMsg>>;
		const ratio = (a: Contender, b: Contender) => {
			const bRound = new Map(stats[b].map((x) => [x.s.round, x.us]));
			return median(stats[a].map((x) => x.us / (bRound.get(x.s.round) ?? NaN)));
		};
		for (const c of CONTENDERS) {
			const st = stats[c];
			const us = st.map((x) => x.us);
			const expected = c === 'control' ? 0 : n;
			const bad = st.filter((x) => x.s.requests !== expected || x.s.okRequests !== expected);
			if (bad.length) {
				notes.push(
					`${LABEL[c]} at ${n}: the sandbox received ${bad.map((x) => `${x.s.okRequests} ok / ${x.s.requests}`).join(', ')} instead of ${expected}`,
				);
			}
			const isCtl = c === 'control';
			rows.push([
				LABEL[c],
				fmt(n),
				isCtl ? `${fmt(median(st.map((x) => x.s.wallMs)))} ms total` : fmt(median(us)),
				isCtl ? '' : `${fmt(min(us))}–${fmt(max(us))}`,
				c === 'action' || c === 'bare' ? fmtRatio(ratio(c, 'httpRequest')) : c === 'httpRequest' ? '1.00×' : '',
				isCtl ? '' : c === 'bare' ? '1.00×' : fmtRatio(ratio(c, 'bare')),
				isCtl ? `${fmt(median(st.map((x) => x.s.cpuMs)))} ms total` : fmt(median(st.map((x) => x.cpuUs))),
				mb(median(st.map((x) => x.growth))),
				isCtl ? fmt(median(st.map((x) => x.growth / n / 1024)), 2) : fmt(median(st.map((x) => x.overCtl / 1024)), 2),
				heapCell(heapRuns.get(key(c, n)), n),
				bad.length ? `✗ (${bad.length} of ${st.length})` : `${fmt(expected)} ✓ ×${st.length}`,
			]);
		}
		summary.push(
			`- ${fmt(n)} items: action node ${fmt(median(stats.action.map((x) => x.us)))} µs/msg = ${fmtRatio(ratio('action', 'httpRequest'))} the HTTP Request node ` +
				`(${fmt(median(stats.httpRequest.map((x) => x.us)))} µs/msg; target ≤ 0.60×), ${fmtRatio(ratio('action', 'bare'))} the bare loop ` +
				`(${fmt(median(stats.bare.map((x) => x.us)))} µs/msg)`,
		);
	}
	out.push(`## 1. Sending N messages (n8n ${VERSION}, ${ROUNDS} rounds, medians)`);
	out.push('');
	out.push(
		table(
			['contender', 'N', 'µs/msg (wall − control)', 'range', '× HTTP Request', '× bare loop', 'CPU µs/msg', 'peak RSS growth', 'RSS KB/item over control', 'peak heap growth = KB/item', 'sandbox got N'],
			rows,
		),
	);
	out.push('');
	out.push(...summary);
	if (notes.length) out.push('', '**Request-count mismatches:**', ...notes.map((n) => `- ${n}`));
	out.push(
		'',
		'Wall and CPU per message are (contender − control workflow of the same round) / N; ratios are medians of per-round ratios. ' +
			'CPU = utime+stime of n8n and its task runner (/proc), or of the fetch-loop process. ' +
			"Peak RSS growth = n8n main process's (or the loop's) peak RSS during the run minus its RSS just before, sampled every 20 ms; " +
			'RSS KB/item over control = (growth − control growth) / N. RSS keeps the heap an earlier run grew, so a run after a big one shows little RSS growth; ' +
			"peak heap growth (n8n's V8 heap in use from its /metrics, polled every 100 ms, peak − before) does not have that bias; " +
			'it comes from one extra run per contender and size after the timed rounds, because each /metrics poll costs n8n 10–20 ms of its main thread. ' +
			'The sandbox runs in the benchmark process (not counted in CPU).',
	);
}

/** `12.3 MB = 1.2` (growth, KB per item) from a heap run; the fetch loop has none (its heap is tiny next to n8n's). */
function heapCell(m: RunMeasure | undefined, n: number): string {
	if (!m || m.heapPeak === undefined || m.heapBefore === undefined) return 'n/a';
	const growth = m.heapPeak - m.heapBefore;
	return `${mb(growth)} = ${fmt(growth / n / 1024, 1)}`;
}

// ------------------------------------------------------------------------------ part 2

interface TriggerOut {
	node: string;
	textDeliveries: number;
	textBytes: number;
	text: Record<string, number[]>;
	mediaDeliveries: number;
	mediaBytes: number;
	fileBytes: number;
	media: Record<string, number[]>;
	checks: string[];
	error?: string;
}

async function triggerBench(rt: N8nRuntime, out: string[]): Promise<void> {
	const child = forkTs(rt, 'bench/triggerBench.ts', { BENCH_ROUNDS: String(ROUNDS) });
	const res = await once<TriggerOut>(child);
	if (res.error) throw new Error(`trigger benchmark failed: ${res.error}`);
	const textRows: string[][] = [];
	const ctxUs = median(res.text['parse + n8n WebhookContext']);
	for (const [name, samples] of Object.entries(res.text)) {
		const us = median(samples);
		textRows.push([name, fmt(1e6 / us), fmt(us, 1), `${fmt(min(samples), 1)}–${fmt(max(samples), 1)}`]);
	}
	const ownUs = median(res.text['parse + context + trigger webhook()']) - ctxUs;
	textRows.push(["trigger's own cost (webhook() − context)", fmt(1e6 / ownUs), fmt(ownUs, 1), '']);
	const compared = res.text['parse + context + trigger webhook() (compare)'];
	if (compared) {
		const comparedUs = median(compared) - ctxUs;
		textRows.push([`compared build's own cost (this one: ${fmtRatio(ownUs / comparedUs)} of it)`, fmt(1e6 / comparedUs), fmt(comparedUs, 1), '']);
	}
	out.push(`## 2. Trigger overhead (Node ${res.node}, compiled trigger, ${ROUNDS} rounds, medians)`);
	out.push('');
	out.push(`Text deliveries: ${fmt(res.textDeliveries)} distinct MESSAGES_UPSERT per round (${res.textBytes} bytes each), simplified output.`);
	out.push('');
	out.push(table(['path', 'deliveries/s', 'µs/delivery', 'range µs'], textRows));
	out.push('');
	const mediaRows: string[][] = [];
	const parseMs = median(res.media['JSON.parse']) / 1000;
	for (const [name, samples] of Object.entries(res.media)) {
		const ms = median(samples) / 1000;
		mediaRows.push([name, fmt(ms, 2), fmt(ms - parseMs, 2), fmt(1000 / ms)]);
	}
	out.push(
		`Media deliveries: a ${mb(res.fileBytes, 0)} file as base64 in the delivery (${mb(res.mediaBytes, 2)} body), ${res.mediaDeliveries} per round.`,
	);
	out.push('');
	out.push(table(['path', 'ms/delivery', 'ms over JSON.parse', 'deliveries/s'], mediaRows));
	if (res.checks.length) out.push('', '**Checks failed:**', ...res.checks.map((c) => `- ${c}`));
}

// ------------------------------------------------------------------------------ part 3

function loadSection(load: LoadCost, tar: TarballInfo | undefined, out: string[]): void {
	out.push(`## 3. Load cost (fresh Node 24 process per round, median of ${load.rounds})`);
	out.push('');
	out.push(table(['require + new', 'ms'], Object.entries(load.medians).map(([k, v]) => [k, fmt(v, 2)])));
	if (tar) {
		out.push('');
		out.push(`Packed tarball ${tar.file}: ${fmt(tar.bytes / 1024, 1)} KB (${fmt(tar.unpackedBytes / 1024, 1)} KB unpacked, ${tar.files} files).`);
	}
}

// ------------------------------------------------------------------------------ main

/** Parts 1–4 and 6: in the pinned n8n runtime, on the packed package (prepack builds dist/). */
async function runtimeParts(sections: string[][]): Promise<void> {
	const rt = await ensureN8n(VERSION);
	log('packing the repo (npm pack; prepack builds dist/)');
	const tarball = await packRepo(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-pack-')));
	const tar = tarballInfo(tarball);

	if (PARTS.has(3)) {
		log('load cost');
		loadSection(measureLoadCost(rt.nodeBin, Math.max(ROUNDS, 5)), tar, sections[2]);
	}
	if (PARTS.has(2)) {
		log('trigger overhead');
		try {
			await triggerBench(rt, sections[1]);
		} catch (e) {
			sections[1].push('## 2. Trigger overhead', '', `**Not measured:** ${(e as Error).message}`);
		}
	}
	if (process.env.BENCH_SKIP_N8N === '1') {
		if (PARTS.has(1)) sections[0].push('## 1. Sending N messages', '', 'Skipped (BENCH_SKIP_N8N=1).');
	} else {
		if (PARTS.has(1)) {
			log(`sending: rounds ${ROUNDS}, sizes ${SIZES.join(', ')}`);
			await sendBench(rt, tarball, sections[0]);
		}
		if (PARTS.has(4)) {
			log('media from binary');
			try {
				await mediaBench(tarball, VERSION, Number(process.env.BENCH_MEDIA_ROUNDS || Math.max(ROUNDS, 5)), sections[3]);
			} catch (e) {
				sections[3].push('## 4. Media from binary data', '', `**Not measured:** ${(e as Error).message}`);
			}
		}
		if (PARTS.has(6)) {
			log('a message delivery inside n8n: trigger vs Webhook node vs floor');
			try {
				const profileDir = process.env.BENCH_TRIGGER_PROFILE ? path.resolve(process.env.BENCH_TRIGGER_PROFILE) : undefined;
				if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
				await triggerN8nBench(tarball, VERSION, ROUNDS, sections[5], profileDir);
			} catch (e) {
				sections[5].push('## 6. A message delivery inside n8n', '', `**Not measured:** ${(e as Error).message}`);
			}
		}
	}
	fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
}

async function main(): Promise<void> {
	if (process.platform !== 'linux') throw new Error('the benchmark reads /proc: Linux only');
	const t0 = Date.now();
	const out: string[] = [];
	const cpus = os.cpus();
	out.push(`# Benchmarks — ${new Date().toISOString()}`);
	out.push('');
	out.push(
		`Machine: ${cpus[0]?.model ?? '?'} × ${cpus.length}, ${mb(os.totalmem(), 0)} RAM, load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}. ` +
			`Rounds ${ROUNDS}, sizes ${SIZES.map((s) => fmt(s)).join(', ')}.`,
	);
	out.push('');

	const sections: string[][] = [[], [], [], [], [], [], [], []];
	// Parts 1–4 and 6 run in (or against) the pinned n8n and the packed package; part 5 needs neither.
	if ([1, 2, 3, 4, 6].some((part) => PARTS.has(part))) await runtimeParts(sections);
	let memoryProblems: string[] = [];
	if (PARTS.has(5)) {
		log('memory of a large file');
		memoryProblems = await memoryBench(sections[4]);
	}
	if (PARTS.has(7)) {
		log('collect burst');
		await collectBurstBench(ROUNDS, sections[6]);
	}
	if (PARTS.has(8)) {
		log('chat memory');
		await chatMemoryBench(ROUNDS, sections[7]);
	}

	for (const s of sections) if (s.length > 0) out.push(...s, '');
	out.push(`Took ${Math.round((Date.now() - t0) / 1000)} s.`);
	const text = out.join('\n') + '\n';
	console.log(text);
	const dir = path.join(REPO, 'bench', 'results');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'latest.md'), text);
	log(`written to ${path.relative(process.cwd(), path.join(dir, 'latest.md'))}`);
	// The figures are written first; then a memory case above its limit fails the run, by name.
	if (memoryProblems.length > 0) throw new Error(`memory of a large file:\n${memoryProblems.join('\n')}`);
}

main().then(
	() => process.exit(0),
	(e: Error) => {
		console.error(e.stack ?? e);
		process.exit(1);
	},
);
