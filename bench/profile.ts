/**
 * Where the action node's time goes inside a real n8n: `tsx bench/profile.ts [n] [contender]`
 * (default 5000 items, contender "action"). Starts the pinned n8n with `--cpu-prof`, runs the
 * workflow once to warm up and once measured, stops n8n (which writes the profile), and
 * prints, for the samples whose stack passes through the sending node's execute(), the
 * inclusive time of the functions that matter, per message. Diagnostic only; not part of
 * `npm run bench`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, ensureN8n, packRepo } from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import { startN8nBench, type N8nContender } from './n8nSend';
import { fmt, log, table } from './util';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}
interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	hitCount?: number;
	children?: number[];
}
interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

function short(url: string): string {
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
	return m ? `${m[1]}/${m[2].replace(/^dist\//, '')}` : url.replace(/^file:\/\//, '');
}

/**
 * Samples taken inside [fromUs, toUs] (V8's profile clock and process.hrtime are both
 * CLOCK_MONOTONIC, so the window is the measured run as the benchmark process timed it).
 */
export function analyse(profile: Profile, fromUs: number, toUs: number, n: number): string {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
	// time per sample: the delta to the next sample
	const inclusive = new Map<string, number>();
	const self = new Map<string, number>();
	let rootTotal = 0;
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i] ?? 0;
		if (at < fromUs || at > toUs) continue;
		const dt = profile.timeDeltas[i + 1] ?? 0;
		const stack: CallFrame[] = [];
		for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
			const node = byId.get(id);
			if (node) stack.push(node.callFrame);
		}
		rootTotal += dt;
		const seen = new Set<string>();
		for (const f of stack) {
			const key = `${f.functionName || '(anonymous)'}  ${short(f.url)}:${f.lineNumber + 1}`;
			if (seen.has(key)) continue;
			seen.add(key);
			inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
		}
		const top = stack[0];
		const selfKey = `${top.functionName || '(anonymous)'}  ${short(top.url)}:${top.lineNumber + 1}`;
		self.set(selfKey, (self.get(selfKey) ?? 0) + dt);
	}
	const rows = (m: Map<string, number>, count: number) =>
		[...m.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([k, us]) => [k.length > 110 ? k.slice(0, 107) + '…' : k, fmt(us / n, 0), `${((100 * us) / rootTotal).toFixed(1)}%`]);
	return [
		`Main-thread samples during the measured run: ${fmt(rootTotal / 1000)} ms = ${fmt(rootTotal / n)} µs per message (incl. (idle) while waiting for the sandbox).`,
		'',
		'Inclusive (function and what it calls):',
		'',
		table(['function', 'µs/msg', 'share'], rows(inclusive, 40)),
		'',
		'Self time:',
		'',
		table(['function', 'µs/msg', 'share'], rows(self, 25)),
	].join('\n');
}

async function main(): Promise<void> {
	const n = Number(process.argv[2] ?? 5000);
	const contender = (process.argv[3] ?? 'action') as N8nContender;
	await ensureN8n(DEFAULT_N8N_VERSION);
	const tarball = await packRepo(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-prof-pack-')));
	const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-cpuprof-'));
	const { startSandbox } = await import('../sandbox/server');
	const sandbox: Sandbox = await startSandbox({ dialect: 'documented', instances: [{ name: 'demo' }] });
	const window = [0, 0];
	const bench = await startN8nBench({
		tarball,
		sandbox,
		env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir} --cpu-prof-interval=200` },
	});
	try {
		await bench.run(contender, Math.min(n, 1000));
		window[0] = Number(process.hrtime.bigint() / 1000n);
		const m = await bench.run(contender, n);
		window[1] = Number(process.hrtime.bigint() / 1000n);
		log(`${contender} n=${n}: ${fmt(m.wallMs)} ms wall, ${m.okRequests} ok requests`);
	} finally {
		await bench.stop();
		await sandbox.close();
	}
	const files = fs.readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
	const main = files.find((f) => f.includes(`.${bench.pid}.`));
	if (!main) throw new Error(`no profile for pid ${bench.pid} in ${profDir}: ${files.join(', ')}`);
	const profile = JSON.parse(fs.readFileSync(path.join(profDir, main), 'utf8')) as Profile;
	console.log(`# CPU profile of the ${contender} workflow, ${n} items (profile: ${path.join(profDir, main)})\n`);
	console.log(analyse(profile, window[0], window[1], n));
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
