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
 * This file only sets up and runs the groups in order; each group's checks live in their own
 * file (e2e/actions.ts (a), e2e/trigger.ts (b), e2e/loading.ts (c), e2e/chatPage.ts (d),
 * e2e/restart.ts (e), e2e/v2.ts, …).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { binaryDataModeFor, binaryModeChecks } from './binaryMode';
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
	type RestClient,
} from '../scripts/n8n-runtime';
import { actionWorkflow, fieldReferenceWorkflow, replyWorkflow } from './workflows';
import { setUpV2, v2CliChecks, v2ServerChecks, type E2eTools, type V2Run } from './v2';
import { agentChecks } from './agent';
import { sendAndWaitChecks } from './sendAndWait';
import { chatReplyChecks } from './chatReply';
import { serverVersionChecks } from './serverVersions';
import { retriedSendChecks } from './retriedSend';
import { campaignChecks } from './campaign';
import { creatorEntryChecks } from './creator';
import { Report, waitFor } from './report';
import type { Sandbox } from './expect';
import { actionChecks } from './actions';
import { nodeTypeChecks, logChecks } from './loading';
import { triggerChecks } from './trigger';
import { restartChecks } from './restart';
import { chatbotChecks } from './chatbots';
import { otherRoutesChecks } from './otherRoutes';
import { agentReviewChecks } from './agentReview';

const report = new Report('e2e');
const record = report.record.bind(report);
const check = report.check.bind(report);
const summary = (): never => report.summary();
const VERBOSE = process.env.E2E_VERBOSE === '1';

async function main(): Promise<void> {
	const version = resolveN8nVersion(process.env.E2E_N8N_VERSION);
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

		const credId = await importCredential(userFolder, {
			name: 'Sandbox (e2e)',
			type: 'messagingInstanceApi',
			data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'documented' },
		});
		const [actionsId, replyId, mappedId] = await importWorkflows(userFolder, [
			actionWorkflow(credId),
			replyWorkflow(credId),
			fieldReferenceWorkflow(credId),
		]);

		// --- (a) every action operation through `n8n execute`; mapped fields -----------
		await actionChecks(report, { version, userFolder, sandbox, actionsId, mappedId });

		// --- (f)–(i) the v2.x operations through `n8n execute`, against a v2 sandbox ------
		const tools: E2eTools = { version, userFolder, check, waitFor };
		v2 = await setUpV2(tools);
		await v2CliChecks(tools, v2);

		// --- (l) an AI agent calls Send Text as a tool (a scripted model server on loopback) --
		await agentChecks(tools, v2.sandbox);

		// --- start the server -----------------------------------------------------------
		n8n = await startN8n({ version, userFolder, echo: VERBOSE });
		console.log(`e2e: n8n ${version} ready in ${(n8n.startupMs / 1000).toFixed(1)} s at ${n8n.url}`);
		const rest: RestClient = await setupOwnerAndLogin(n8n.url);

		// --- (j) a trigger on the v2 sandbox → Download Media → a hash of the file ---------
		await v2ServerChecks(tools, v2, rest);

		// --- (m) Send and Wait for Response: waiting, answered through the link, resumed ----
		await sendAndWaitChecks(tools, rest, sandbox, n8n.url, credId, 'Sandbox (e2e)');

		// --- (o) the media checks' binary data went to this run's mode, not memory --------
		await binaryModeChecks(tools, rest, binaryMode);

		// --- (p) the echo recipe on 2.3.6, 2.3.7 and 2.4 with LID contacts; (q) credential test, 2.4 not activated
		await serverVersionChecks(tools, rest, n8n.url);

		// --- (s) a send retried by n8n's Retry On Fail after a late answer: one message, one id
		await retriedSendChecks(tools, rest);

		// --- (campaign) sending to many: pace, accounts checked, rate limit recovered, stop on logout
		await campaignChecks(tools, rest);

		// --- (r) what the node creator shows: the merged entry's description, the first action --
		await creatorEntryChecks(tools, rest);

		// --- (t) Chatbot and Event Integration: every operation chained in one workflow ---------
		await chatbotChecks(tools, rest);

		// --- (u) every other route: profile, proxy, business, templates, storage, Chatwoot ------
		await otherRoutesChecks(tools, rest);

		// --- (v) Send and Wait answered in the chat: the trigger hands the reply to the waiting run
		await chatReplyChecks(tools, rest, n8n.url);

		// --- (w) a person approves or declines an AI agent's Send Text on WhatsApp (Human-in-the-Loop tool)
		await agentReviewChecks(tools, rest, n8n.url);

		// --- (c) node types -------------------------------------------------------------
		await nodeTypeChecks(report, rest);

		// --- (b) trigger lifecycle, with (d) the chat page in a browser while it is active --
		await triggerChecks(report, rest, sandbox, n8n.url, replyId);

		// --- (c) logs ------------------------------------------------------------------
		const serverLog = n8n.logs();
		await n8n.stop();
		const allLogs = `${cliLog.join('\n')}\n${serverLog}`;
		await logChecks(report, serverLog, allLogs);

		// --- (e) npm start: restarts keep the user's work; other ports are followed --------
		await sandbox.close().catch(() => undefined);
		await restartChecks(report, version, tarball);
	} catch (e) {
		record('e2e run aborted', false, e instanceof Error ? e.stack ?? e.message : String(e));
		if (n8n) console.log(`--- last n8n output ---\n${n8n.logs().slice(-4000)}`);
	} finally {
		await n8n?.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		await v2?.sandbox.close().catch(() => undefined);
		if (process.env.E2E_KEEP === '1') console.log(`e2e: user folder kept at ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
		if (tarball && !process.env.E2E_TARBALL) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
		console.log(`e2e: took ${Math.round((Date.now() - t0) / 1000)} s`);
	}
	summary();
}

main().catch((e) => {
	record('e2e runner crashed', false, e instanceof Error ? e.stack ?? e.message : String(e));
	summary();
});

