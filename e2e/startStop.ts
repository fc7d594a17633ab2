/**
 * `npm start` as a user runs it, in a terminal: the real command (`npm start`, its own
 * process group as a terminal's foreground job), stopped three ways. Ctrl-C once ends n8n
 * and the sandbox and prints "stopped" (never "forced": the copies of the one press that npm
 * and tsx relay do not count); Ctrl-C twice, 1.5 s apart, forces; a SIGKILL of the
 * process that runs scripts/start.ts (as tsx does when its child is slow to confirm a
 * signal) leaves nothing behind either: the keeper ends n8n. Each time n8n's process group
 * and both ports are checked gone within a bound.
 *
 * Also the example's nodes against the versions n8n reports for the installed package, and
 * the README's onboarding recipe run twice.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';

import { REPO_ROOT, executeWorkflow, executionFailure, freePort, nodeOutputs, type N8nHandle, type RestClient } from '../scripts/n8n-runtime';
import { portListening as listening, processGroupMembers as groupMembers, processRuns as running } from '../scripts/runtime/liveness';
import { sleep, waitFor, type Report } from './report';
import { readRecipe } from './recipeBook';
import { SECOND_PRESS_AFTER_MS } from '../scripts/start';

interface Started {
	child: ChildProcess;
	output: () => string;
	n8nPid: number;
	startPid: number;
	n8nPort: number;
	sandboxPort: number;
}

/** `npm start` in its own process group (as a terminal runs it), until its banner. */
async function npmStart(userFolder: string): Promise<Started> {
	const [n8nPort, sandboxPort] = [await freePort(), await freePort()];
	const child = spawn('npm', ['start'], {
		cwd: REPO_ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, DEV_USER_FOLDER: userFolder, DEV_N8N_PORT: String(n8nPort), DEV_SANDBOX_PORT: String(sandboxPort) },
	});
	let out = '';
	child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
	child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
	try {
		await waitFor('npm start\'s banner', () => {
			if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${out.slice(-3000)}`);
			return /stop\s+Ctrl-C/.test(out);
		}, 240000, 500);
	} catch (e) {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			/* gone */
		}
		throw e;
	}
	const n8nPid = Number(/n8n editor .*pid (\d+)\)/.exec(out)?.[1]);
	const startPid = Number(/sandbox .*pid (\d+)/.exec(out)?.[1]);
	assert.ok(n8nPid > 0 && startPid > 0, `the banner names no pids:\n${out.slice(-2000)}`);
	return { child, output: () => out, n8nPid, startPid, n8nPort, sandboxPort };
}

/** Waits until n8n's process group and both ports are gone; returns the ms it took. */
async function goneWithin(s: Started, boundMs: number, since: number): Promise<number> {
	const deadline = since + boundMs;
	for (;;) {
		const left = groupMembers(s.n8nPid);
		const ports = [(await listening(s.n8nPort)) ? `n8n port ${s.n8nPort}` : '', (await listening(s.sandboxPort)) ? `sandbox port ${s.sandboxPort}` : ''].filter(Boolean);
		if (left.length === 0 && ports.length === 0 && !running(s.startPid)) return Date.now() - since;
		if (Date.now() > deadline) {
			for (const pid of left) process.kill(pid, 'SIGKILL');
			throw new Error(
				`after ${boundMs} ms still there: ${[...left.map((p) => `pid ${p} of n8n's group`), ...ports, running(s.startPid) ? `npm start's process ${s.startPid}` : ''].filter(Boolean).join(', ')}\n${s.output().slice(-1500)}`,
			);
		}
		await sleep(100);
	}
}

export async function stopChecks(report: Report, userFolder: string): Promise<void> {
	await report.check('(e) npm start, Ctrl-C once: prints "stopped"; n8n (its whole process group) and both ports are gone within 30 s', async () => {
		const s = await npmStart(userFolder);
		const at = Date.now();
		process.kill(-s.child.pid!, 'SIGINT');
		const ms = await goneWithin(s, 30000, at);
		await waitFor('npm start to exit', () => s.child.exitCode !== null || s.child.signalCode !== null, 10000);
		assert.match(s.output(), /\[start\] stopped/, s.output().slice(-1500));
		// The group's SIGINT reaches npm, tsx and start.ts, and npm and tsx pass it on again: one press, not two.
		assert.doesNotMatch(s.output(), /forced/, s.output().slice(-1500));
		console.log(`     (gone after ${ms} ms)`);
	});
	await report.check('(e) npm start, Ctrl-C twice (the second more than 1.5 s after the first) while n8n hangs in its shutdown: forces ("forced"); n8n and both ports are gone within 10 s', async () => {
		const s = await npmStart(userFolder);
		// n8n hangs in its shutdown (its process group stopped): only the force ends it, and a
		// second press must come after SECOND_PRESS_AFTER_MS to count (a copy of the first comes sooner).
		process.kill(-s.n8nPid, 'SIGSTOP');
		const at = Date.now();
		process.kill(-s.child.pid!, 'SIGINT');
		await waitFor('the first Ctrl-C to be taken ("stopping")', () => /stopping n8n and the sandbox/.test(s.output()), 10000, 5);
		await sleep(SECOND_PRESS_AFTER_MS + 500);
		assert.doesNotMatch(s.output(), /forced/, 'forced before the second press');
		process.kill(-s.child.pid!, 'SIGINT');
		const ms = await goneWithin(s, 10000 + SECOND_PRESS_AFTER_MS, at);
		// "forced" from start.ts, or the keeper's line when tsx killed its child first
		assert.match(s.output(), /forced: killing n8n now|keeper ended it/, s.output().slice(-1500));
		console.log(`     (gone after ${ms} ms)`);
	});
	await report.check('(e) npm start, SIGKILL of the process running scripts/start.ts: the keeper ends n8n; n8n and both ports are gone within 10 s', async () => {
		const s = await npmStart(userFolder);
		const at = Date.now();
		process.kill(s.startPid, 'SIGKILL');
		const ms = await goneWithin(s, 10000, at);
		await waitFor('the keeper\'s line', () => /keeper ended it/.test(s.output()), 5000).catch(() => {
			throw new Error(`the keeper said nothing:\n${s.output().slice(-1500)}`);
		});
		try {
			process.kill(-s.child.pid!, 'SIGKILL'); // npm and tsx around it
		} catch {
			/* gone */
		}
		console.log(`     (gone after ${ms} ms)`);
	});
}

/** Each node of a workflow is at the newest version n8n offers for its type. */
export async function assertNewestVersions(rest: RestClient, workflowId: string): Promise<void> {
	const types = (await rest.nodeTypes()) as Array<{ name: string; version: number | number[] }>;
	const newest = new Map<string, number>();
	for (const t of types) {
		const versions = Array.isArray(t.version) ? t.version : [t.version];
		newest.set(t.name, Math.max(newest.get(t.name) ?? 0, ...versions));
	}
	const wf = await rest.getWorkflow(workflowId);
	const nodes = wf.nodes as Array<{ name: string; type: string; typeVersion: number }>;
	assert.ok(nodes.length >= 2, 'the example has no nodes');
	for (const node of nodes) {
		assert.ok(newest.has(node.type), `n8n does not know ${node.type}`);
		assert.equal(node.typeVersion, newest.get(node.type), `"${node.name}" (${node.type}) is version ${node.typeVersion}; the newest is ${newest.get(node.type)}`);
	}
}

/**
 * The onboarding recipe exactly as docs/recipes/onboarding.json holds it (the editor's names:
 * "Create an instance", its Settings → On Error: Continue, → "Connect an instance" with Instance
 * By Name as an Expression naming Create's own Instance Name), saved in `npm start`'s n8n where
 * the file's credential name, "Sandbox (dev)", is the one `npm start` made. Run twice: the
 * second run finds the name taken: Create outputs the server's message as an error item, and
 * Connect still gives the QR code.
 */
export async function onboardingRecipeChecks(report: Report, n8n: N8nHandle, rest: RestClient, credentialId: string): Promise<void> {
	let id = '';
	const imported = await report.check('(e) the README\'s onboarding recipe saved as the editor saves it', async () => {
		const saved = await rest.call('POST', '/workflows', readRecipe('onboarding'));
		id = saved.id;
		assert.ok(id, JSON.stringify(saved).slice(0, 500));
		const stored = await rest.getWorkflow(id);
		assert.equal(stored.nodes.find((n: any) => n.name === 'Create an instance')?.credentials?.messagingInstanceApi?.id, credentialId, 'the file\'s credential "Sandbox (dev)" was not found by its name');
	});
	if (!imported) return;
	await report.check('(e) onboarding recipe, first run: Create makes the instance, Connect (Instance as an Expression) gives its QR code', async () => {
		const res = await executeWorkflow(n8n, id);
		assert.ok(res.ok, executionFailure(res));
		const out = nodeOutputs(res.data);
		assert.equal(out['Create an instance']?.[0]?.json?.instance?.instanceName, 'shop', JSON.stringify(out['Create an instance']).slice(0, 500));
		assert.match(String(out['Connect an instance']?.[0]?.json?.code), /^2@/, JSON.stringify(out['Connect an instance']).slice(0, 500));
	});
	await report.check('(e) onboarding recipe, second run: Create says the name is taken (and continues), Connect still gives the QR code', async () => {
		const res = await executeWorkflow(n8n, id);
		assert.ok(res.ok, executionFailure(res));
		const out = nodeOutputs(res.data);
		assert.match(JSON.stringify(out['Create an instance']?.[0]?.json), /already in use/, JSON.stringify(out['Create an instance']).slice(0, 500));
		assert.match(String(out['Connect an instance']?.[0]?.json?.code), /^2@/, JSON.stringify(out['Connect an instance']).slice(0, 500));
	});
}
