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
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { binaryDataModeFor, binaryModeChecks } from './binaryMode';
import {
	PACKAGE_NAME,
	cliLog,
	ensureN8n,
	executeWorkflow,
	freePort,
	importCredential,
	importWorkflows,
	installTarballIntoUserFolder,
	majorOf,
	nodeOutputs,
	packRepo,
	request,
	resolveN8nVersion,
	setupOwnerAndLogin,
	startN8n,
	type N8nHandle,
	type RestClient,
} from '../scripts/n8n-runtime';
import {
	actionWorkflow,
	expectedActionRequests,
	fieldReferenceWorkflow,
	MAPPED_BODY,
	MAPPED_ITEM,
	replyWorkflow,
} from './workflows';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { setUpV2, v2CliChecks, v2ServerChecks, type E2eTools, type V2Run } from './v2';
import { agentChecks } from './agent';
import { sendAndWaitChecks } from './sendAndWait';
import { chatReplyChecks } from './chatReply';
import { serverVersionChecks } from './serverVersions';
import { creatorEntryChecks } from './creator';
import { REPLY_PREFIX } from '../scripts/demo-workflow';
import { startPlayground, type Playground } from '../scripts/start';
import { Report, sleep, waitFor } from './report';
import { assertNewestVersions, onboardingRecipeChecks, stopChecks } from './startStop';
import { DEV_API_KEY } from '../scripts/start';

// The sandbox is another engineer's module; typed loosely here so the e2e keeps compiling
// while its API grows.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const report = new Report('e2e');
const record = report.record.bind(report);
const check = report.check.bind(report);
const skip = report.skip.bind(report);
const summary = (): never => report.summary();
const VERBOSE = process.env.E2E_VERBOSE === '1';

function requestsTo(sandbox: Sandbox, p: string): any[] {
	return (sandbox.requests as any[]).filter((r) => r.path === p || String(r.path).split('?')[0] === p);
}

/** Deep-equal with a readable message. */
function expectBody(actual: unknown, expected: unknown, label: string): void {
	try {
		assert.deepStrictEqual(actual, expected);
	} catch {
		throw new Error(`${label}: body differs\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}`);
	}
}

/**
 * (d) The sandbox chat page in a real headless browser while the reply workflow is active:
 * a person types a message as a contact, presses Send, and sees n8n's reply appear live.
 */
async function chatPageChecks(sandbox: Sandbox): Promise<void> {
	const names = [
		'(d) chat page in headless Chromium: a message typed as a contact and sent shows as an incoming bubble, delivered to n8n',
		'(d) chat page in headless Chromium: the workflow\'s reply "You said: …" appears live as an outgoing bubble',
	];
	if (!fs.existsSync(CHROMIUM)) {
		const why = `${CHROMIUM} is missing (install it with: bash .ci/chromium.sh)`;
		if (process.env.CI === 'true') for (const n of names) record(n, false, `${why}; CI=true, so this is a failure`);
		else for (const n of names) skip(n, `${why}; the chat page is NOT tested in a browser`);
		return;
	}
	const from = '5511977770000';
	const text = `hello from the browser ${Date.now().toString(36)}`;
	const pageErrors: string[] = [];
	let browser: import('playwright-core').Browser | undefined;
	try {
		const { chromium } = await import('playwright-core');
		// Playwright gives every launch a fresh temporary profile (user data dir) and removes it on close.
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
		const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
		page.on('pageerror', (e) => pageErrors.push(e.message));
		let incomingId: string | null = null;
		const sent = await check(names[0], async () => {
			await page.goto(`${sandbox.url}/chat?instance=demo`, { timeout: 15000 });
			await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 15000 });
			await page.fill('#from', from);
			await page.fill('#pushName', 'Browser Ana');
			await page.fill('#message', text);
			await page.click('#send');
			const bubble = page.locator('.bubble.in', { hasText: text });
			await bubble.waitFor({ timeout: 10000 });
			assert.equal(await bubble.getAttribute('data-testid'), 'bubble-in');
			incomingId = await bubble.getAttribute('data-message-id');
			// the sandbox POSTs MESSAGES_UPSERT to n8n's trigger URL; the page marks the verdict
			const meta = bubble.locator('.meta');
			await bubble
				.locator('.meta', { hasText: /✓ delivered|✗/ })
				.waitFor({ timeout: 30000 })
				.catch(() => undefined);
			const verdict = await meta.innerText();
			assert.match(verdict, /✓ delivered/, `incoming bubble says "${verdict}"`);
			assert.equal(pageErrors.length, 0, `page errors: ${pageErrors.join(' | ')}`);
		});
		await check(names[1], async () => {
			if (!sent) throw new Error('not run: the message could not be sent from the page');
			const reply = page.locator('.bubble.out[data-kind="text"]', { hasText: `You said: ${text}` });
			await reply.waitFor({ timeout: 30000 }).catch(async (e: Error) => {
				const shown = await page.locator('.bubble').allInnerTexts();
				throw new Error(`${e.message.split('\n')[0]}; bubbles shown: ${JSON.stringify(shown)}`);
			});
			assert.equal(await reply.getAttribute('data-testid'), 'bubble-out');
			assert.equal(await reply.locator('.content').innerText(), `You said: ${text}`);
			// both bubbles are on the page, the contact's first
			const inSeq = Number(await page.locator('.bubble.in', { hasText: text }).getAttribute('data-seq'));
			const outSeq = Number(await reply.getAttribute('data-seq'));
			assert.ok(inSeq < outSeq, `incoming seq ${inSeq} should precede the reply's ${outSeq}`);
			// and it is the real request n8n's action node made to the sandbox
			const req = requestsTo(sandbox, '/message/sendText/demo').find((r: any) => r.body?.text === `You said: ${text}`);
			assert.ok(req, 'no matching sendText request recorded by the sandbox');
			assert.match(String(req.body.number), new RegExp(`^${from}(@s\\.whatsapp\\.net)?$`));
			const delivered = (sandbox.deliveries as any[]).find((d) => d.event === 'messages.upsert' && d.body?.data?.key?.id === incomingId);
			assert.ok(delivered, `no MESSAGES_UPSERT delivery for the page's message ${incomingId}`);
			assert.equal(pageErrors.length, 0, `page errors: ${pageErrors.join(' | ')}`);
		});
		if (process.env.E2E_CHAT_SCREENSHOT) {
			await page.screenshot({ path: process.env.E2E_CHAT_SCREENSHOT });
			console.log(`e2e: chat page screenshot at ${process.env.E2E_CHAT_SCREENSHOT}`);
		}
	} catch (e) {
		record('(d) chat page in headless Chromium: browser run', false, e instanceof Error ? e.stack ?? e.message : String(e));
	} finally {
		await browser?.close().catch(() => undefined);
	}
}

/** The Send Text request the example sent in reply to a message injected now, or a readable failure. */
async function replyTo(pg: Playground, from: string, text: string): Promise<any> {
	const before = requestsTo(pg.sandbox, '/message/sendText/demo').length;
	const delivery = await pg.sandbox.injectMessage('demo', { from, text, pushName: 'Ana' });
	assert.ok(delivery, `the sandbox made no delivery (webhook: ${JSON.stringify(pg.sandbox.webhookOf('demo'))})`);
	return waitFor('a sendText reply', () => requestsTo(pg.sandbox, '/message/sendText/demo').slice(before)[0], 30000);
}

/**
 * (e) `npm start`'s own code path (startPlayground) on one user folder, three times: a
 * restart leaves the user's draft and published version as they were, and a start on other
 * ports (DEV_N8N_PORT, DEV_SANDBOX_PORT) follows them.
 */
async function restartChecks(version: string, tarball: string): Promise<void> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-start-'));
	let pg: Playground | undefined;
	const start = async (n8nPort: number, sandboxPort: number) => {
		pg = await startPlayground({ userFolder, n8nPort, sandboxPort, version, tarball });
		return pg;
	};
	try {
		const [n8nPort, sandboxPort] = [await freePort(), await freePort()];
		let first = await start(n8nPort, sandboxPort);
		const id = first.state.workflowId!;
		let published = '';
		let draft = '';
		const EDITED = '=Edited, not published: {{ $json.text }}';
		const created = await check('(e) npm start, first run: creates the example, publishes it, and its reply works', async () => {
			assert.match(first.webhookStatus, /^registered/, first.webhookStatus);
			const wf = await first.rest.getWorkflow(id);
			assert.ok(wf.activeVersionId, 'the example is not published');
			assert.equal(wf.activeVersionId, wf.versionId, 'published and draft differ after the first run');
			published = wf.activeVersionId;
			const reply = await replyTo(first, '5511966660000', 'first run');
			assert.equal(reply.body.text, `${REPLY_PREFIX}first run`);
			assert.equal(reply.body.number, '5511966660000@s.whatsapp.net', 'Number {{ $json.chatId }} replies to the chat');
		});
		await check("(e) npm start's example uses the newest version of each node (as a node added in the editor)", () => assertNewestVersions(first.rest, id));
		let keptGroup = '';
		const made = await check('(e) the sandbox of npm start: an instance and a group made now (the onboarding recipe\'s Create, a group)', async () => {
			const headers = { apikey: DEV_API_KEY };
			const inst = await request('POST', `${first.sandbox.url}/instance/create`, { instanceName: 'kept', integration: 'WHATSAPP-BAILEYS' }, headers);
			assert.equal(inst.status, 201, inst.body);
			const group = await request('POST', `${first.sandbox.url}/group/create/kept`, { subject: 'Kept', participants: ['5511912345678'] }, headers);
			assert.equal(group.status, 201, group.body);
			keptGroup = JSON.parse(group.body).id;
		});
		await onboardingRecipeChecks(report, first.n8n, first.rest, first.state.credentialId!);
		// Drafts and publishing are n8n 2.x: in 1.x saving an active workflow changes it live.
		// `npm start` runs the pinned 2.x; on a 1.x run only the start-up checks apply.
		const hasDrafts = majorOf(version) >= 2;
		if (!hasDrafts) skip("(e) an edit goes to the draft only; a restart keeps draft and published version", `n8n ${version} has no drafts (a 2.x feature)`);
		const edited = created && hasDrafts && (await check("(e) an edit through n8n's REST API (as the editor saves) goes to the draft only", async () => {
			const wf = await first.rest.getWorkflow(id);
			const nodes = structuredClone(wf.nodes) as Array<{ name: string; parameters: Record<string, unknown> }>;
			nodes.find((n) => n.name === 'Reply')!.parameters.text = EDITED;
			const saved = await first.rest.call('PATCH', `/workflows/${id}`, {
				name: wf.name,
				nodes,
				connections: wf.connections,
				settings: wf.settings,
				versionId: wf.versionId,
			});
			draft = saved.versionId;
			assert.notEqual(draft, published, 'the edit made no new draft version');
			const after = await first.rest.getWorkflow(id);
			assert.equal(after.activeVersionId, published, 'saving the draft published it');
			const reply = await replyTo(first, '5511966660000', 'before restart');
			assert.equal(reply.body.text, `${REPLY_PREFIX}before restart`, 'the published version answers');
		}));
		await first.stop();

		if (edited) {
			const again = await start(n8nPort, sandboxPort);
			await check('(e) npm start again: the draft is kept, the published version is unchanged and still answers with the old text', async () => {
				const wf = await again.rest.getWorkflow(id);
				assert.equal(wf.activeVersionId, published, 'the restart changed the published version');
				assert.equal(wf.versionId, draft, 'the restart changed the draft version');
				const text = (wf.nodes as Array<{ name: string; parameters: { text?: string } }>).find((n) => n.name === 'Reply')?.parameters.text;
				assert.equal(text, EDITED, 'the draft lost the edit');
				assert.match(again.webhookStatus, /^registered/, again.webhookStatus);
				const reply = await replyTo(again, '5511966660000', 'after restart');
				assert.equal(reply.body.text, `${REPLY_PREFIX}after restart`);
			});
			await check("(e) a restart on the same ports does not publish again: the sandbox kept the example's webhook (no Set Webhook request), and it answers", () => {
				assert.deepEqual(requestsTo(again.sandbox, '/webhook/set/demo').map((r: any) => r.path), []);
				assert.equal(again.sandbox.webhookOf('demo')?.enabled, true);
			});
			await check('(e) a later start does not set up the owner again ("owner already setup" is not in n8n\'s log)', () => {
				const log = fs.readFileSync(again.logFile, 'utf8');
				assert.ok(!/owner already setup/i.test(log), 'n8n logged an owner setup attempt');
			});
			await again.stop();
		}

		const [n8nPort2, sandboxPort2] = [await freePort(), await freePort()];
		const moved = await start(n8nPort2, sandboxPort2);
		await check('(e) npm start on other ports (DEV_N8N_PORT, DEV_SANDBOX_PORT): the credential and the webhook follow, the example replies', async () => {
			assert.ok(
				moved.notes.some((n) => n.includes(`now points to ${moved.sandbox.url}`)),
				`no note about the new sandbox address: ${JSON.stringify(moved.notes)}`,
			);
			const cred = await moved.rest.call('GET', `/credentials/${moved.state.credentialId}?includeData=true`);
			assert.equal(cred.data.baseUrl, moved.sandbox.url, 'credential Base URL');
			assert.match(moved.webhookStatus, /^registered/, moved.webhookStatus);
			assert.ok(String(moved.sandbox.webhookOf('demo')?.url).startsWith(`${moved.n8n.url}/webhook/`), 'webhook URL is not on the new n8n port');
			const reply = await replyTo(moved, '5511966660000', 'new ports');
			assert.equal(reply.body.text, `${REPLY_PREFIX}new ports`);
			assert.ok(
				!moved.notes.some((n) => /could not be read/.test(n)),
				`the sandbox's saved state was not readable: ${JSON.stringify(moved.notes)}`,
			);
			const wf = await moved.rest.getWorkflow(id);
			if (edited) assert.equal(wf.versionId, draft, 'the draft changed');
			assert.equal(wf.activeVersionId, published, 'the published version changed');
		});
		if (made) {
			await check('(e) the sandbox kept its data across the restarts (sandbox-state.json): the instance and its group', async () => {
				assert.ok(moved.sandbox.instanceNames().includes('kept'), `instances: ${moved.sandbox.instanceNames().join(', ')}`);
				const groups = await request('GET', `${moved.sandbox.url}/group/fetchAllGroups/kept?getParticipants=false`, undefined, { apikey: DEV_API_KEY });
				assert.equal(groups.status, 200, groups.body);
				assert.deepEqual(JSON.parse(groups.body).map((g: { id: string }) => g.id), [keptGroup]);
			});
		}
		await moved.stop();
		pg = undefined;
		await stopChecks(report, userFolder);
	} catch (e) {
		record('(e) npm start restart checks aborted', false, e instanceof Error ? e.stack ?? e.message : String(e));
		if (pg) console.log(`--- last n8n output ---\n${pg.n8n.logs().slice(-3000)}`);
	} finally {
		await pg?.stop();
		if (process.env.E2E_KEEP === '1') console.log(`e2e: npm start user folder kept at ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

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

		// --- (a) every action operation through `n8n execute` --------------------------
		const exec = await executeWorkflow(userFolder, actionsId, version);
		const execOk = await check('(a) n8n execute runs the 12-operation workflow (exit 0)', () => {
			if (!exec.ok) {
				const err = exec.data?.data?.resultData?.error ?? exec.data?.resultData?.error;
				throw new Error(
					`exit ${exec.code}: ${err ? `${err.node?.name ?? ''} ${err.message} ${err.description ?? ''}` : exec.stdout.slice(-1500)}`,
				);
			}
		});
		const outputs = nodeOutputs(exec.data);
		for (const exp of expectedActionRequests(sandbox.url)) {
			await check(`(a) ${exp.node}: POST ${exp.path} with the expected body`, () => {
				const reqs = requestsTo(sandbox, exp.path);
				assert.equal(reqs.length, 1, `expected 1 request to ${exp.path}, got ${reqs.length}`);
				expectBody(reqs[0].body, exp.body, exp.node);
				assert.equal(reqs[0].headers.apikey, sandbox.apiKey, 'apikey header');
				if (execOk) {
					const items = outputs[exp.node] ?? [];
					assert.equal(items.length, exp.items ?? 1, `${exp.node} output ${items.length} items`);
					exp.checkOutput?.(items.map((i) => i.json));
				}
			});
		}

		// --- (a) mapped fields: read from the item or by n8n's engine, the same message ----
		sandbox.clearRequests();
		const mapped = await executeWorkflow(userFolder, mappedId, version);
		await check("(a) Send Text mapped with field references sends what n8n's expression engine gives", () => {
			assert.ok(mapped.ok, `exit ${mapped.code}: ${mapped.stdout.slice(-1500)}`);
			const reqs = requestsTo(sandbox, '/message/sendText/demo');
			assert.equal(reqs.length, 2, `expected 2 requests, got ${reqs.length}`);
			for (const r of reqs) expectBody(r.body, MAPPED_BODY, 'mapped Send Text');
			const out = nodeOutputs(mapped.data);
			for (const node of ['Mapped Fields', 'Mapped Expressions']) {
				assert.equal(out[node]?.length, 1, `${node} output ${out[node]?.length} items`);
				assert.equal(out[node][0].json?.message?.extendedTextMessage?.text, MAPPED_ITEM.text, `${node} output`);
			}
		});

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

		// --- (r) what the node creator shows: the merged entry's description, the first action --
		await creatorEntryChecks(tools, rest);

		// --- (v) Send and Wait answered in the chat: the trigger hands the reply to the waiting run
		await chatReplyChecks(tools, rest, n8n.url);

		// --- (c) node types -------------------------------------------------------------
		await check('(c) n8n exposes messagingInstance, messagingInstanceTrigger and the messagingInstanceTool variant', async () => {
			const types = (await rest.nodeTypes()) as Array<{ name: string }>;
			const names = new Set(types.map((t) => t.name));
			const missing = ['messagingInstance', 'messagingInstanceTrigger', 'messagingInstanceTool'].filter(
				(n) => !names.has(`${PACKAGE_NAME}.${n}`),
			);
			assert.deepEqual(missing, [], `missing node types (prefix ${PACKAGE_NAME}.): ${missing.join(', ')}; ours seen: ${[...names].filter((n) => /messaging/i.test(n)).join(', ') || 'none'}`);
		});

		// --- (b) trigger lifecycle ------------------------------------------------------
		sandbox.clearRequests?.();
		let registered = '';
		const activated = await check('(b) activating the trigger workflow registers its production URL with the sandbox', async () => {
			await rest.activate(replyId);
			const prefix = `${n8n!.url}/webhook/`;
			const hook = await waitFor(
				'webhookOf(demo) to be a production URL of this n8n',
				() => {
					const h = sandbox.webhookOf('demo');
					return h && String(h.url).startsWith(prefix) ? h : undefined;
				},
				15000,
			).catch((e) => {
				const sets = requestsTo(sandbox, '/webhook/set/demo').map((r: any) => `${r.status} ${JSON.stringify(r.body)}`);
				throw new Error(
					`${e.message}; webhookOf: ${JSON.stringify(sandbox.webhookOf('demo'))}; webhook/set requests: ${sets.join(' | ') || 'none'}`,
				);
			});
			assert.equal(hook.enabled, true, 'webhook not enabled');
			registered = String(hook.url);
			assert.ok(registered.startsWith(`${n8n!.url}/webhook/`), `registered URL ${registered} is not a production URL of ${n8n!.url}`);
			assert.ok((hook.events as string[]).includes('MESSAGES_UPSERT'), `events ${JSON.stringify(hook.events)}`);
		});

		if (activated) {
			const upsertBody = {
				event: 'messages.upsert',
				instance: 'demo',
				data: {
					key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: 'FORGED1' },
					pushName: 'Mallory',
					message: { conversation: 'forged' },
					messageType: 'conversation',
					messageTimestamp: Math.floor(Date.now() / 1000),
				},
				date_time: new Date().toISOString(),
				sender: '5511000000000@s.whatsapp.net',
				server_url: sandbox.url,
				apikey: null,
			};
			await check('(b) the trigger webhook answers 401 to a delivery without the secret', async () => {
				const u = new URL(registered);
				if (!u.search) throw new Error(`the registered URL carries no query secret: ${registered}`);
				const bare = `${u.origin}${u.pathname}`;
				// Production webhooks answer a few seconds after activation: poll past 404s.
				let res = await request('POST', bare, upsertBody);
				const deadline = Date.now() + 30000;
				while (res.status === 404 && Date.now() < deadline) {
					await sleep(500);
					res = await request('POST', bare, upsertBody);
				}
				assert.equal(res.status, 401, `without secret: ${res.status} ${res.body.slice(0, 200)}`);
				const wrong = new URL(registered);
				for (const k of [...wrong.searchParams.keys()]) wrong.searchParams.set(k, 'wrong-secret');
				const res2 = await request('POST', wrong.toString(), upsertBody);
				assert.equal(res2.status, 401, `wrong secret: ${res2.status} ${res2.body.slice(0, 200)}`);
			});

			await check('(b) a MESSAGES_UPSERT delivery runs the workflow, which replies through the action node', async () => {
				const before = requestsTo(sandbox, '/message/sendText/demo').length;
				const delivery = await sandbox.injectMessage('demo', { from: '5511988880000', text: 'hello', pushName: 'Ana' });
				assert.ok(delivery, 'sandbox made no delivery (webhook not enabled for MESSAGES_UPSERT?)');
				const last = delivery.attempts[delivery.attempts.length - 1];
				assert.ok(last?.status && last.status >= 200 && last.status < 300, `delivery answered ${JSON.stringify(last)}`);
				const reply = await waitFor(
					'a sendText reply',
					() => requestsTo(sandbox, '/message/sendText/demo').slice(before)[0],
					30000,
				);
				assert.equal(reply.body.text, 'You said: hello');
				assert.match(String(reply.body.number), /^5511988880000(@s\.whatsapp\.net)?$/);
				// the forged delivery above must not have produced a reply
				assert.equal(requestsTo(sandbox, '/message/sendText/demo').filter((r: any) => /forged/.test(r.body?.text)).length, 0);
			});

			// --- (d) the chat page in a real browser, while the reply workflow is active ------
			await chatPageChecks(sandbox);
		}

		await check('(b) deactivating unregisters: Set Webhook with enabled:false, same URL and events', async () => {
			if (!activated) throw new Error('not run: the workflow could not be activated');
			const hookBefore = sandbox.webhookOf('demo');
			await rest.deactivate(replyId);
			const req = await waitFor(
				'webhook/set enabled:false',
				() => requestsTo(sandbox, '/webhook/set/demo').find((r: any) => r.body?.enabled === false),
				15000,
			);
			assert.equal(req.body.url, registered, 'url differs from the registered one');
			assert.deepEqual(req.body.events, hookBefore?.events, 'events differ');
			assert.equal(sandbox.webhookOf('demo')?.enabled, false, 'sandbox still has the webhook enabled');
		});

		// --- (c) logs ------------------------------------------------------------------
		const serverLog = n8n.logs();
		await n8n.stop();
		const allLogs = `${cliLog.join('\n')}\n${serverLog}`;
		await check('(c) no warnings or errors about loading our package in the n8n logs', () => {
			const bad = allLogs
				.split('\n')
				.filter((l) => /messaging|n8n-nodes-messaging-instance/i.test(l))
				.filter((l) => /warn|error|skipping|failed|cannot|could not|not found|deprecat/i.test(l));
			const generic = allLogs.split('\n').filter((l) => /Skipping package|Can't enable lazy-loading|failed to load/i.test(l));
			assert.deepEqual([...bad, ...generic], [], 'log lines');
		});
		await check('(c) n8n stopped cleanly (no crash output)', () => {
			assert.ok(!/UnhandledPromiseRejection|Uncaught|FATAL/i.test(serverLog), serverLog.slice(-1500));
		});

		// --- (e) npm start: restarts keep the user's work; other ports are followed --------
		await sandbox.close().catch(() => undefined);
		await restartChecks(version, tarball);
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

