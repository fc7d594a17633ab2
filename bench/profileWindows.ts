/**
 * Reads the CPU profile part 4 makes (BENCH_MEDIA_PROFILE=<dir>) run by run:
 *
 *   tsx bench/profileWindows.ts <dir> <run label regex> [frame regex]
 *
 * e.g. `tsx bench/profileWindows.ts /tmp/prof '^diskAction' 'messaging|axios'`: n8n's time per
 * run (ms) in the runs whose label matches ("action video", "diskControl video", "httpRequest
 * image" …), by function — its own time, then the time spent in it and what it called (only
 * frames matching the frame regex, when given). "(garbage collector)" includes incremental
 * marking; "(idle)" is n8n waiting, mostly for the sandbox to answer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	samples: number[];
	timeDeltas: number[];
}

function main(): void {
	const [dir, label, frames] = process.argv.slice(2);
	if (!dir || !label) throw new Error('usage: tsx bench/profileWindows.ts <dir> <run label regex> [frame regex]');
	const windows = (JSON.parse(fs.readFileSync(path.join(dir, 'windows.json'), 'utf8')) as Array<{ label: string; start: number; end: number }>).filter((w) =>
		new RegExp(label).test(w.label),
	);
	if (windows.length === 0) throw new Error(`no run matches ${label}`);
	// n8n's main process writes the largest profile (its task runner writes another).
	const file = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.cpuprofile'))
		.map((f) => path.join(dir, f))
		.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
	const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*node_modules\//, '')}:${n.callFrame.lineNumber + 1}`;

	// A sample's time is the delta to the next one; it counts when it falls in a window.
	const own = new Map<string, number>();
	const within = new Map<string, number>();
	let t = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		t += profile.timeDeltas[i];
		if (!windows.some((w) => t >= w.start && t < w.end)) continue;
		const dt = profile.timeDeltas[i + 1] ?? 0;
		const leaf = byId.get(profile.samples[i])!;
		own.set(name(leaf), (own.get(name(leaf)) ?? 0) + dt);
		const seen = new Set<string>();
		for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
			const k = name(byId.get(id)!);
			if (!seen.has(k)) within.set(k, (within.get(k) ?? 0) + dt);
			seen.add(k);
		}
	}
	const perRun = (us: number) => (us / 1000 / windows.length).toFixed(1).padStart(8);
	const wall = windows.reduce((sum, w) => sum + w.end - w.start, 0);
	console.log(`${windows.length} runs matching ${label}: ${perRun(wall).trim()} ms per run (${path.basename(file)})`);
	console.log('\nown time, ms per run');
	for (const [k, us] of [...own].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(perRun(us), k);
	const filter = frames ? new RegExp(frames) : undefined;
	console.log(`\nin the function and what it called, ms per run${filter ? ` (frames matching ${frames})` : ''}`);
	for (const [k, us] of [...within].filter(([k]) => !filter || filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(perRun(us), k);
}

main();
