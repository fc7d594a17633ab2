/**
 * End-to-end tier: the package, packed and installed the way a user installs it, inside a
 * real pinned n8n (scripts/n8n-runtime.ts), talking to the sandbox server.
 *
 *   npm run test:e2e            (tsx e2e/run.ts)
 *
 * Env: E2E_N8N_VERSION (an exact version, or default = 2.40.7, latest = the newest pinned 2.x,
 * compat = 1.123.81), E2E_BINARY_DATA_MODE=filesystem|database (default filesystem; never the
 * in-memory mode, see e2e/binaryMode.ts), E2E_KEEP=1 keeps the temp user folder,
 * E2E_VERBOSE=1 echoes n8n's output, E2E_TARBALL=<file> tests that tarball instead of `npm pack`,
 * E2E_CHAT_SCREENSHOT=<file.png> saves the chat page after the browser check (d), CI=true turns
 * "cannot install n8n" and "no /usr/bin/chromium" (.ci/chromium.sh installs it) into failures.
 * The (e) checks run `npm start`'s own code path (startPlayground in scripts/start.ts) three
 * times on one user folder: a restart keeps the user's draft and published version, and a
 * start on other ports follows them. The (l) checks (e2e/agent.ts) have n8n's AI Agent call
 * the node as a tool, with a scripted OpenAI-compatible model server (e2e/modelServer.ts).
 * Prints each check as PASS/FAIL (or SKIP) and ends with `e2e: N passed, N failed` (`, N skipped` when some were).
 *
 * This file only sets up (n8n, the package, the documented sandbox and its workflows) and runs
 * the groups of e2e/groups.ts in their phases: before n8n serves, while it serves, after it
 * stopped. E2E_GROUPS selects groups (all, second-version, or ids: `E2E_GROUPS=m,v`); each
 * group's time is printed after it and in a table at the end.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { binaryDataModeFor } from './binaryMode';
import {
	PACKAGE_NAME,
	ensureN8n,
	cliLog,
	importCredential,
	importWorkflows,
	installTarballIntoUserFolder,
	packRepo,
	resolveN8nVersion,
	setupOwnerAndLogin,
	startN8n,
	type N8nHandle,
} from '../scripts/n8n-runtime';
import { actionWorkflow, fieldReferenceWorkflow, replyWorkflow } from './workflows';
import { setUpV2, type E2eTools, type V2Run } from './v2';
import { Report, waitFor } from './report';
import type { Sandbox } from './expect';
import { selectGroups, type E2eGroup, type TierRun } from './groups';

const report = new Report('e2e');
const record = report.record.bind(report);
const check = report.check.bind(report);
const summary = (): never => report.summary();
const VERBOSE = process.env.E2E_VERBOSE === '1';
const times: Array<{ id: string; seconds: number }> = [];

/** Runs one group and keeps its time; a group that throws fails as one check and the run goes on. */
async function timed(group: E2eGroup, run: () => Promise<void>): Promise<void> {
	const started = Date.now();
	try {
		await run();
	} catch (e) {
		record(`group ${group.id} aborted`, false, e instanceof Error ? (e.stack ?? e.message) : String(e));
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	times.push({ id: group.id, seconds });
	console.log(`e2e: group ${group.id} took ${seconds} s`);
}

function printTimes(): void {
	if (times.length > 0) console.log(`e2e: group times (s): ${times.map((t) => `${t.id} ${t.seconds}`).join(', ')}`);
}

async function main(): Promise<void> {
	const version = resolveN8nVersion(process.env.E2E_N8N_VERSION);
	const groups = selectGroups();
	const t0 = Date.now();
	// Every n8n process of the run (server, CLI, npm start's path) inherits this environment.
	const binaryMode = binaryDataModeFor();
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = binaryMode;

	// --- n8n runtime -------------------------------------------------------------------
	try {
		await ensureN8n(version);
	} catch (e) {
		const msg = e instanceof Error ? e.message : String(e);
		if (process.env.CI === 'true') {
			record(`install n8n@${version}`, false, msg);
			summary();
		}
		console.log('\n' + '!'.repeat(78));
		console.log(`!!! SKIPPING the e2e tier: n8n@${version} cannot be installed on this machine.`);
		console.log(`!!! ${msg.split('\n')[0]}`);
		console.log('!'.repeat(78) + '\n');
		console.log('e2e: 0 passed, 0 failed, 1 skipped');
		process.exit(0);
	}
	console.log(`e2e: running against n8n ${version} (${path.join('.n8n-runtime', version)}), binary data in ${binaryMode} mode`);

	// --- package, sandbox, user folder --------------------------------------------------
	let tarball = '';
	const packed = await check('npm pack builds the package (prepack) and makes a tarball', async () => {
		// E2E_TARBALL: test a given tarball (e.g. a released one) instead of packing the repo
		tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
		assert.ok(fs.existsSync(tarball), `no tarball at ${tarball}`);
	});
	if (!packed) summary();

	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox: Sandbox = await startSandbox({ dialect: 'documented', instances: [{ name: 'demo' }] });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	let n8n: N8nHandle | undefined;
	let v2: V2Run | undefined;
	// n8n runs in its own process group: stop it on Ctrl-C too.
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.once(sig, () => {
			console.log(`e2e: ${sig}, stopping n8n and the sandbox`);
			void Promise.allSettled([n8n?.stop(), sandbox.close()]).then(() => process.exit(130));
		});
	}
	try {
		await check(`install the tarball into <userFolder>/.n8n/nodes`, async () => {
			await installTarballIntoUserFolder(tarball, userFolder);
			const pj = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
			assert.ok(fs.existsSync(pj), 'package not in .n8n/nodes/node_modules');
		});

		const credName = 'Sandbox (e2e)';
		const credId = await importCredential(userFolder, {
			name: credName,
			type: 'messagingInstanceApi',
			data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'documented' },
		});
		const [actionsId, replyId, mappedId] = await importWorkflows(userFolder, [
			actionWorkflow(credId),
			replyWorkflow(credId),
			fieldReferenceWorkflow(credId),
		]);
		const tools: E2eTools = { version, userFolder, check, waitFor };
		let v2Setup: Promise<V2Run> | undefined;
		const tier: TierRun = {
			report, tools, version, userFolder, tarball, binaryMode, sandbox, credId, credName, actionsId, replyId, mappedId,
			v2: () => (v2Setup ??= setUpV2(tools).then((run) => (v2 = run))),
		};
		const phase = <P extends E2eGroup['phase']>(name: P) => groups.filter((g): g is Extract<E2eGroup, { phase: P }> => g.phase === name);

		for (const group of phase('cli')) await timed(group, () => group.run(tier));

		if (phase('served').length > 0 || phase('stopped').length > 0) {
			n8n = await startN8n({ version, userFolder, echo: VERBOSE });
			console.log(`e2e: n8n ${version} ready in ${(n8n.startupMs / 1000).toFixed(1)} s at ${n8n.url}`);
			const served = { ...tier, n8n, rest: await setupOwnerAndLogin(n8n.url) };
			for (const group of phase('served')) await timed(group, () => group.run(served));

			const serverLog = n8n.logs();
			await n8n.stop();
			await sandbox.close().catch(() => undefined);
			const stoppedRun = { ...tier, serverLog, allLogs: `${cliLog.join('\n')}\n${serverLog}` };
			for (const group of phase('stopped')) await timed(group, () => group.run(stoppedRun));
		}
	} catch (e) {
		record('e2e run aborted', false, e instanceof Error ? e.stack ?? e.message : String(e));
		if (n8n) console.log(`--- last n8n output ---\n${n8n.logs().slice(-4000)}`);
	} finally {
		await n8n?.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		await v2?.sandbox.close().catch(() => undefined);
		await v2?.sandbox24.close().catch(() => undefined);
		if (process.env.E2E_KEEP === '1') console.log(`e2e: user folder kept at ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
		if (tarball && !process.env.E2E_TARBALL) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
		printTimes();
		console.log(`e2e: took ${Math.round((Date.now() - t0) / 1000)} s`);
	}
	summary();
}

main().catch((e) => {
	record('e2e runner crashed', false, e instanceof Error ? e.stack ?? e.message : String(e));
	summary();
});

