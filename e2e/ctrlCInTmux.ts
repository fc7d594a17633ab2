/**
 * One Ctrl-C in a real terminal stops `npm start` cleanly, as a newcomer presses it: an
 * interactive bash in a tmux pane types `npm start`, waits for the banner, waits 0 to 3 s, and
 * presses Ctrl-C once (tmux send-keys C-c: the terminal's SIGINT to the whole foreground process
 * group, npm, tsx and scripts/start.ts, which npm and tsx then pass on again). Each round is
 * clean when the pane says "[start] stopped", never "forced", and n8n's and the sandbox's ports
 * are free again.
 *
 * Slow (each round starts n8n), so not in CI:
 *   N8N_RUNTIME_DIR=… tsx e2e/ctrlCInTmux.ts [rounds, default 10]
 * CTRLC_REPO=<checkout> presses another checkout's `npm start` (an older commit's, to see the
 * fault this guards against). Needs tmux (apt-get install -y tmux). Ports: DEV_N8N_PORT / DEV_SANDBOX_PORT, else free ones;
 * the user folder is a temporary one, kept across the rounds (the first round creates the
 * example), removed at the end.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { REPO_ROOT as THIS_REPO, freePort } from '../scripts/runtime/common';
import { portListening } from '../scripts/runtime/liveness';

const BANNER = /stop {12}Ctrl-C/;
/** The checkout whose `npm start` is pressed: this one, or CTRLC_REPO (e.g. an older commit's worktree, to see the fault). */
const REPO_ROOT = process.env.CTRLC_REPO ? path.resolve(process.env.CTRLC_REPO) : THIS_REPO;

function tmux(...args: string[]): string {
	const result = spawnSync('tmux', args, { encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${result.stderr}`);
	return result.stdout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForText(file: string, pattern: RegExp, timeoutMs: number): Promise<string | undefined> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
		if (pattern.test(text)) return text;
		await sleep(200);
	}
	return undefined;
}

interface Round {
	round: number;
	clean: boolean;
	pressedAfterMs: number;
	stoppedInMs: number;
	note: string;
}

async function round(n: number, env: Record<string, string>, session: string): Promise<Round> {
	const log = path.join(env.DEV_USER_FOLDER, `pane-${n}.log`);
	tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '50', 'bash', '--norc', '-i');
	try {
		tmux('pipe-pane', '-t', session, '-o', `cat >> ${log}`);
		const exports = Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
		tmux('send-keys', '-t', session, `cd ${JSON.stringify(REPO_ROOT)} && export ${exports} && npm start`, 'Enter');
		const ready = await waitForText(log, BANNER, 15 * 60 * 1000);
		if (!ready) return { round: n, clean: false, pressedAfterMs: 0, stoppedInMs: 0, note: 'no banner within 15 min' };
		const pressedAfterMs = Math.round(Math.random() * 3000);
		await sleep(pressedAfterMs);
		const pressed = Date.now();
		tmux('send-keys', '-t', session, 'C-c');
		const after = await waitForText(log, /\[start\] stopped|forced: killing n8n/, 120000);
		const stoppedInMs = Date.now() - pressed;
		const ports = [Number(env.DEV_N8N_PORT), Number(env.DEV_SANDBOX_PORT)];
		let busy: number[] = [];
		for (let i = 0; i < 50; i++) {
			busy = [];
			for (const port of ports) if (await portListening(port)) busy.push(port);
			if (busy.length === 0) break;
			await sleep(200);
		}
		const forced = after !== undefined && /forced/.test(after);
		const clean = after !== undefined && !forced && busy.length === 0;
		const note = !after ? 'no "[start] stopped" within 120 s' : forced ? 'forced: killing n8n now' : busy.length > 0 ? `port ${busy.join(', ')} still served` : 'stopped';
		return { round: n, clean, pressedAfterMs, stoppedInMs, note };
	} finally {
		spawnSync('tmux', ['kill-session', '-t', session]);
	}
}

async function main(): Promise<void> {
	const rounds = Number(process.argv[2] || 10);
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctrlc-tmux-'));
	const env: Record<string, string> = {
		DEV_USER_FOLDER: userFolder,
		DEV_N8N_PORT: process.env.DEV_N8N_PORT || String(await freePort()),
		DEV_SANDBOX_PORT: process.env.DEV_SANDBOX_PORT || String(await freePort()),
		...(process.env.N8N_RUNTIME_DIR ? { N8N_RUNTIME_DIR: process.env.N8N_RUNTIME_DIR } : {}),
	};
	const results: Round[] = [];
	// One tmux server for every round: ending a round's session must not end the server while the next starts.
	const holder = `ctrlc-${process.pid}-holder`;
	tmux('new-session', '-d', '-s', holder, 'sleep', '86400');
	try {
		for (let n = 1; n <= rounds; n++) {
			const result = await round(n, env, `ctrlc-${process.pid}-${n}`).catch((e: Error) => ({ round: n, clean: false, pressedAfterMs: 0, stoppedInMs: 0, note: e.message }));
			results.push(result);
			console.log(`round ${n}: ${result.clean ? 'clean' : 'NOT CLEAN'} (Ctrl-C ${result.pressedAfterMs} ms after the banner, stopped in ${(result.stoppedInMs / 1000).toFixed(1)} s: ${result.note})`);
		}
	} finally {
		spawnSync('tmux', ['kill-session', '-t', holder]);
		if (process.env.CTRLC_KEEP === '1') console.log(`pane logs kept in ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
	}
	const clean = results.filter((r) => r.clean).length;
	console.log(`ctrl-c in tmux: ${clean} of ${results.length} clean`);
	process.exit(clean === results.length ? 0 : 1);
}

void main();
