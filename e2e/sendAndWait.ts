/**
 * (m) Send and Wait for Response in a real n8n: a production webhook starts a workflow whose
 * Messaging Instance node sends a question with its waiting link to the sandbox; the execution
 * is `waiting`; the link opened over HTTP shows our page, its button (a POST to the same link)
 * answers, and the run resumes: the next node sends what the waiting node output. Free text
 * the same with the form. Also: n8n made the Human-in-the-Loop tool of the node.
 *
 *   tsx e2e/sendAndWait.ts [version]   runs (m) alone: packs, installs into a temp user
 *                                      folder, starts n8n and a v2 sandbox
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import { majorOf, PACKAGE_NAME, request, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import * as fs from 'node:fs';

import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { ACTION_TYPE, credentialRef } from '../scripts/demo-workflow';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const ASKED = '5511977770000';
const WAITING_LINK = /https?:\/\/[^\s]+\/webhook-waiting\/[^\s]+/g;

/** Webhook → Send and Wait for Response → Send Text of what the waiting node output. */
function askWorkflow(credId: string, credName: string, path: string, ask: Record<string, unknown>, report: string): WorkflowSpec {
	const node = (id: string, name: string, parameters: Record<string, unknown>, x: number) => ({
		id,
		name,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [x, 0],
		credentials: credentialRef(credId, credName),
		parameters: { instance: { __rl: true, mode: 'name', value: 'demo' }, ...parameters },
	});
	return {
		name: `e2e: send and wait (${path})`,
		nodes: [
			{ id: 'hook', name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomBytes(8).toString('hex'), parameters: { path, httpMethod: 'POST', options: {} } },
			node('ask', 'Ask', { resource: 'message', operation: 'sendAndWait', number: ASKED, ...ask }, 200),
			node('report', 'Report', { resource: 'message', operation: 'sendText', number: ASKED, text: report }, 400),
		],
		connections: { Start: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] }, Ask: { main: [[{ node: 'Report', type: 'main', index: 0 }]] } },
	};
}

function texts(sandbox: Sandbox): string[] {
	return (sandbox.requests as any[]).filter((r) => r.path === '/message/sendText/demo' && r.method === 'POST').map((r) => String(r.body?.text ?? ''));
}

async function executionStatus(rest: RestClient, workflowId: string): Promise<string | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = (await rest.call('GET', `/executions?filter=${filter}&limit=5`)) as { results: Array<{ status: string }> };
	return page.results[0]?.status;
}

function multipart(fields: Array<[string, string]>): FormData {
	const data = new FormData();
	for (const [name, value] of fields) data.append(name, value);
	return data;
}

async function form(method: 'GET' | 'POST', link: string, fields: Array<[string, string]> = []): Promise<{ status: number; body: string; headers: any }> {
	const res = await fetch(link, {
		method,
		// The pages' forms post multipart/form-data, as a browser sends them (n8n 2.41 takes no other body for a custom form).
		headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e' },
		body: method === 'POST' ? multipart(fields) : undefined,
		redirect: 'manual',
	});
	return { status: res.status, body: await res.text(), headers: Object.fromEntries(res.headers.entries()) };
}

/** One question: start the run, see it wait with the link sent, answer through the link, see it resume. */
async function askAndAnswer(
	tools: E2eTools,
	rest: RestClient,
	sandbox: Sandbox,
	n8nUrl: string,
	label: string,
	spec: WorkflowSpec,
	/** Answers through the message's links (the first approves or opens the form). */
	answer: (links: string[]) => Promise<void>,
	expectedReport: string,
	resumeWithinMs = 20000,
): Promise<void> {
	const created = await rest.call('POST', '/workflows', { ...spec, active: false, settings: { executionOrder: 'v1' } });
	const id = String(created.id);
	await rest.activate(id);
	const path = (spec.nodes[0] as any).parameters.path as string;
	const before = texts(sandbox).length;
	let link = '';
	let links: string[] = [];
	await tools.check(`(m) ${label}: the webhook starts the run, the question goes out with its signed waiting link`, async () => {
		const started = await tools.waitFor('the production webhook', async () => {
			const res = await request('POST', `${n8nUrl}/webhook/${path}`, { ticket: 7 });
			return res.status === 200 ? res : undefined;
		}, 15000);
		assert.equal(started.status, 200);
		const sent = await tools.waitFor('the question', () => texts(sandbox).slice(before).find((text) => text.includes('/webhook-waiting/')), 20000);
		links = [...sent.matchAll(WAITING_LINK)].map((match) => match[0]);
		link = links[0];
		assert.match(link, new RegExp(`^${n8nUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/webhook-waiting/\\d+/ask\\?approved=true&signature=[0-9a-f]{64}$`));
	});
	if (!link) return;
	await tools.check(`(m) ${label}: the execution is waiting`, async () => {
		assert.equal(await tools.waitFor('status waiting', async () => ((await executionStatus(rest, id)) === 'waiting' ? 'waiting' : undefined), 15000), 'waiting');
	});
	await tools.check(`(m) ${label}: the link opens our page; a changed link is refused by n8n`, async () => {
		const page = await form('GET', link);
		assert.equal(page.status, 200, page.body.slice(0, 300));
		assert.match(String(page.headers['content-type']), /^text\/html/);
		assert.match(page.body, /<form method="post"/);
		const changed = await form('GET', link.replace(/signature=[0-9a-f]{4}/, 'signature=0000'));
		assert.equal(changed.status, 401);
		assert.equal(await executionStatus(rest, id), 'waiting', 'opening the link answered nothing');
	});
	await tools.check(`(m) ${label}: the run resumes with the node's output`, async () => {
		await answer(links);
		const report = await tools.waitFor('the report', () => texts(sandbox).slice(before).find((text) => text.startsWith('report:')), resumeWithinMs);
		assert.equal(report, expectedReport);
		assert.equal(await tools.waitFor('status success', async () => ((await executionStatus(rest, id)) === 'success' ? 'success' : undefined), 15000), 'success');
		// n8n answers a link of a finished run itself ("no action required"): our page is gone.
		const again = await form('GET', link);
		assert.ok(again.status < 500 && !again.body.includes('<form method="post"'), `${again.status} ${again.body.slice(0, 200)}`);
	});
	await rest.deactivate(id);
}

export async function sendAndWaitChecks(tools: E2eTools, rest: RestClient, sandbox: Sandbox, n8nUrl: string, credId: string, credName: string): Promise<void> {
	// n8n 2.x makes a Human-in-the-Loop tool of every node with a sendAndWait operation and waiting webhooks.
	if (majorOf(tools.version) >= 2) {
		await tools.check('(m) n8n made the Human-in-the-Loop tool of the node (messagingInstanceHitlTool)', async () => {
			const types = (await rest.nodeTypes()) as Array<{ name: string }>;
			assert.ok(types.some((type) => type.name === `${PACKAGE_NAME}.messagingInstanceHitlTool`));
		});
	}

	await askAndAnswer(
		tools,
		rest,
		sandbox,
		n8nUrl,
		'approval',
		askWorkflow(credId, credName, 'ask-approval', { message: 'Approve ticket 7?' }, '=report: approved={{ $json.data.approved }}'),
		async ([link]) => {
			const answered = await form('POST', link);
			assert.equal(answered.status, 200, answered.body.slice(0, 300));
			assert.match(answered.body, /Got it, thanks/);
		},
		'report: approved=true',
	);

	await askAndAnswer(
		tools,
		rest,
		sandbox,
		n8nUrl,
		'free text',
		askWorkflow(credId, credName, 'ask-text', { message: 'Why is ticket 7 late?', responseType: 'freeText' }, '=report: {{ $json.data.text }}'),
		async ([link]) => {
			const empty = await form('POST', link, [['field-0', '']]);
			assert.equal(empty.status, 400);
			const answered = await form('POST', link, [['field-0', 'The truck broke down']]);
			assert.equal(answered.status, 200, answered.body.slice(0, 300));
		},
		'report: The truck broke down',
	);

	await askAndAnswer(
		tools,
		rest,
		sandbox,
		n8nUrl,
		'custom form',
		askWorkflow(
			credId,
			credName,
			'ask-form',
			{
				message: 'Dinner on Friday?',
				responseType: 'customForm',
				formFields: {
					values: [
						{ fieldLabel: 'Guests', fieldType: 'number', requiredField: true },
						{ fieldLabel: 'Menu', fieldType: 'dropdown', fieldOptions: { values: [{ option: 'Fish' }, { option: 'Veggie' }] } },
					],
				},
			},
			'=report: {{ JSON.stringify({ guests: $json.data.Guests, menu: $json.data.Menu }) }}',
		),
		async ([link]) => {
			const answered = await form('POST', link, [['field-0', '3'], ['field-1', 'Veggie']]);
			assert.equal(answered.status, 200, answered.body.slice(0, 300));
		},
		'report: {"guests":3,"menu":"Veggie"}',
	);

	if (fs.existsSync(CHROMIUM)) {
		await askAndAnswer(
			tools,
			rest,
			sandbox,
			n8nUrl,
			'approve and decline, declined in Chromium',
			askWorkflow(
				credId,
				credName,
				'ask-browser',
				{ message: 'Refund order 9?', approvalOptions: { values: { approvalType: 'double', approveLabel: 'Refund', disapproveLabel: 'Keep' } } },
				'=report: approved={{ $json.data.approved }}',
			),
			async ([, decline]) => {
				assert.match(decline, /approved=false/);
				await answerInBrowser(decline, 'Keep');
			},
			'report: approved=false',
		);
	} else {
		console.log(`\n${'!'.repeat(78)}\n!!! SKIPPED (m) the browser answer: ${CHROMIUM} is missing (bash .ci/chromium.sh installs it)\n${'!'.repeat(78)}\n`);
	}

	// A limit of 30 s: n8n's wait tracker looks for due executions once a minute, so the run resumes within ~90 s.
	await askAndAnswer(
		tools,
		rest,
		sandbox,
		n8nUrl,
		'Limit Wait Time without an answer',
		askWorkflow(
			credId,
			credName,
			'ask-limit',
			{ message: 'Quick: approve?', options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0.5, resumeUnit: 'minutes' } } } },
			"={{ 'report: ' + ($json.data ? 'answered' : 'timed out, ticket ' + $json.body.ticket) }}",
		),
		async () => undefined,
		'report: timed out, ticket 7',
		100000,
	);
}

/** Opens the link in headless Chromium and presses the page's button, as the person would. */
async function answerInBrowser(link: string, button: string): Promise<void> {
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
	try {
		const page = await browser.newPage();
		const errors: string[] = [];
		page.on('pageerror', (error) => errors.push(error.message));
		await page.goto(link, { timeout: 15000 });
		await page.getByRole('button', { name: button }).click();
		await page.getByRole('heading', { name: 'Got it, thanks' }).waitFor({ timeout: 15000 });
		assert.deepEqual(errors, []);
	} finally {
		await browser.close();
	}
}

/** `tsx e2e/sendAndWait.ts [version]`: (m) alone, on a fresh user folder, n8n and v2 sandbox. */
async function standalone(version: string): Promise<void> {
	const fs = await import('node:fs');
	const os = await import('node:os');
	const path = await import('node:path');
	const { ensureN8n, importCredential, installTarballIntoUserFolder, packRepo, setupOwnerAndLogin, startN8n } = await import('../scripts/n8n-runtime');
	const { Report, waitFor } = await import('./report');
	await ensureN8n(version);
	const tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-wait-'));
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }] });
	const report = new Report('send-and-wait');
	const tools: E2eTools = { version, userFolder, waitFor, check: (name, fn) => report.check(name, fn) };
	let n8n: Awaited<ReturnType<typeof startN8n>> | undefined;
	try {
		await installTarballIntoUserFolder(tarball, userFolder);
		const credName = 'Sandbox v2';
		const credId = await importCredential(userFolder, { name: credName, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } }, version);
		n8n = await startN8n({ version, userFolder, echo: process.env.E2E_VERBOSE === '1' });
		const rest = await setupOwnerAndLogin(n8n.url);
		await sendAndWaitChecks(tools, rest, sandbox, n8n.url, credId, credName);
	} finally {
		await n8n?.stop();
		await sandbox.close();
		if (process.env.E2E_KEEP === '1') console.log(`e2e: user folder kept at ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
		if (!process.env.E2E_TARBALL) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	report.summary();
}

if (require.main === module) {
	void import('../scripts/n8n-runtime').then(({ DEFAULT_N8N_VERSION }) =>
		standalone(process.argv[2] || process.env.E2E_N8N_VERSION || DEFAULT_N8N_VERSION).catch((e) => {
			console.error(e);
			process.exit(1);
		}),
	);
}
