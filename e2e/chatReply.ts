/**
 * (v) Send and Wait for Response answered in the chat (`chatReply`) in a real n8n: the echo
 * recipe's workflow (Messaging Instance Trigger → Send Text) is active on the sandbox's
 * instance; a second workflow (Webhook → Send and Wait, Reply in the Chat, with two choices →
 * Send Text of what it output) asks a contact and is `waiting`. Another contact's message does
 * not resume it (the echo workflow answers that contact as usual); the asked contact's answer,
 * typed as that contact on the chat page in Chromium (the question is plain text, so the page
 * offers no buttons, as WhatsApp does not; without Chromium, the same message posted as the
 * page posts it), resumes exactly that execution with the reply as the trigger's item and the
 * choice, and starts no echo run.
 *
 *   tsx e2e/chatReply.ts [version]   runs (v) alone: packs, installs into a temp user folder,
 *                                    starts n8n and a v2 sandbox
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

import { request, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { ACTION_TYPE, credentialRef, replyWorkflow, REPLY_PREFIX } from '../scripts/demo-workflow';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const ASKED = '5511977770000';
const OTHER = '5511966660000';
const QUESTION = 'Lunch on Friday?';

/** Webhook → Send and Wait for Response (Reply in the Chat, choices Yes / No) → Send Text of its output. */
function askWorkflow(credId: string, credName: string, path: string): WorkflowSpec {
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
		name: 'e2e: send and wait for a reply in the chat',
		nodes: [
			{ id: 'hook', name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomBytes(8).toString('hex'), parameters: { path, httpMethod: 'POST', options: {} } },
			node(
				'ask',
				'Ask',
				{ resource: 'message', operation: 'sendAndWait', number: ASKED, message: QUESTION, responseType: 'chatReply', choices: { values: [{ choice: 'Yes' }, { choice: 'No' }] } },
				200,
			),
			node('report', 'Report', { resource: 'message', operation: 'sendText', number: ASKED, text: '=report: {{ $json.text }} | {{ $json.choice }} | {{ $json.chatId }}' }, 400),
		],
		connections: { Start: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] }, Ask: { main: [[{ node: 'Report', type: 'main', index: 0 }]] } },
	};
}

function texts(sandbox: Sandbox, to?: string): string[] {
	return (sandbox.requests as any[])
		.filter((r) => r.path === '/message/sendText/demo' && r.method === 'POST' && (to === undefined || String(r.body?.number ?? '').startsWith(to)))
		.map((r) => String(r.body?.text ?? ''));
}

async function lastExecution(rest: RestClient, workflowId: string): Promise<{ id: string; status: string } | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = (await rest.call('GET', `/executions?filter=${filter}&limit=5`)) as { results: Array<{ id: string; status: string }> };
	return page.results[0];
}

async function statusOf(rest: RestClient, workflowId: string): Promise<string | undefined> {
	return (await lastExecution(rest, workflowId))?.status;
}

/** Types the answer as the asked contact on the chat page, under a question that offers nothing to tap. */
async function typeReply(sandbox: Sandbox, answer: string): Promise<void> {
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
	try {
		const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
		const errors: string[] = [];
		page.on('pageerror', (error) => errors.push(error.message));
		await page.goto(`${sandbox.url}/chat?instance=demo`, { timeout: 15000 });
		await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 15000 });
		const question = page.locator('.bubble.out', { hasText: QUESTION });
		await question.waitFor({ timeout: 15000 });
		assert.equal(await question.locator('button').count(), 0, 'a plain-text question shows buttons');
		await page.fill('#from', ASKED);
		await page.fill('#message', answer);
		await page.press('#message', 'Enter');
		await page.locator('.bubble.in', { hasText: answer }).locator('.meta', { hasText: '✓ delivered' }).waitFor({ timeout: 20000 });
		assert.deepEqual(errors, []);
	} finally {
		await browser.close();
	}
}

export async function chatReplyChecks(tools: E2eTools, rest: RestClient, n8nUrl: string): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }], delivery: { attempts: 3, backoffMs: 500, timeoutMs: 30000 } });
	const ids: string[] = [];
	try {
		const credName = 'Sandbox (chat reply)';
		const made = await rest.call('POST', '/credentials', { name: credName, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const credId = String(made.id);
		const create = async (spec: WorkflowSpec) => {
			const created = await rest.call('POST', '/workflows', { ...spec, active: false, settings: { executionOrder: 'v1' } });
			ids.push(String(created.id));
			return String(created.id);
		};
		const echoId = await create(replyWorkflow(credId, { name: 'e2e (v): echo with the trigger', credentialName: credName }));
		const askId = await create(askWorkflow(credId, credName, 'ask-chat'));

		const ready = await tools.check('(v) the trigger\'s workflow is active: the instance\'s webhook points at it', async () => {
			await rest.activate(echoId);
			const hook = await tools.waitFor('the instance\'s webhook on this n8n', () => {
				const h = sandbox.webhookOf('demo');
				return h?.enabled && String(h.url).startsWith(`${n8nUrl}/webhook/`) ? h : undefined;
			}, 15000);
			const url = new URL(String(hook.url));
			await tools.waitFor('the production webhook to serve', async () => {
				const res = await request('POST', `${url.origin}${url.pathname}`, {});
				return res.status !== 404 ? res : undefined;
			}, 30000);
		});
		if (!ready) return;

		const asked = await tools.check('(v) a run of Send and Wait (Reply in the Chat) sends the question with its choices and is waiting', async () => {
			await rest.activate(askId);
			await tools.waitFor('the webhook of the asking workflow', async () => {
				const res = await request('POST', `${n8nUrl}/webhook/ask-chat`, { ticket: 7 });
				return res.status === 200 ? res : undefined;
			}, 15000);
			const question = await tools.waitFor('the question', () => texts(sandbox, ASKED).find((text) => text.startsWith(QUESTION)), 20000);
			assert.equal(question, `${QUESTION}\n\n1. Yes\n2. No\n\n_Reply with the number or the text of your choice._`);
			assert.equal(await tools.waitFor('status waiting', async () => ((await statusOf(rest, askId)) === 'waiting' ? 'waiting' : undefined), 15000), 'waiting');
			// What the trigger keeps is in its workflow's static data: the wait, never a secret.
			const echo = await rest.getWorkflow(echoId);
			const stored = JSON.stringify(echo.staticData ?? {});
			assert.match(stored, new RegExp(`"chatId":"${ASKED}@s\\.whatsapp\\.net"`), `static data: ${stored.slice(0, 300)}`);
			const secret = new URL(String(sandbox.webhookOf('demo')?.url)).searchParams.get('secret');
			assert.ok(secret && !stored.includes(secret), 'the webhook secret is in the static data');
			assert.ok(!stored.includes(sandbox.apiKey), 'the API key is in the static data');
		});
		if (!asked) return;

		await tools.check('(v) another contact\'s message does not resume it: the trigger\'s workflow answers that contact as usual', async () => {
			const delivery = await sandbox.injectMessage('demo', { from: OTHER, text: 'Yes', pushName: 'Bo' });
			assert.equal(delivery?.attempts?.at(-1)?.status, 200, JSON.stringify(delivery?.attempts));
			const echoed = await tools.waitFor('the echo to the other contact', () => texts(sandbox, OTHER).find((text) => text === `${REPLY_PREFIX}Yes`), 20000);
			assert.equal(echoed, `${REPLY_PREFIX}Yes`);
			assert.equal(await statusOf(rest, askId), 'waiting');
			assert.deepEqual(texts(sandbox, ASKED).filter((text) => text.startsWith('report:')), []);
		});

		const browser = fs.existsSync(CHROMIUM);
		await tools.check(`(v) the asked contact's answer (${browser ? '"Yes" typed as the contact on the chat page in Chromium' : 'posted as the chat page posts it'}) resumes the execution with the reply and the choice`, async () => {
			const echoesBefore = texts(sandbox, ASKED).filter((text) => text.startsWith(REPLY_PREFIX)).length;
			if (browser) await typeReply(sandbox, 'Yes');
			else {
				const res = await request('POST', `${sandbox.url}/_sandbox/messages`, { instance: 'demo', from: ASKED, text: 'Yes', pushName: 'Ana' });
				assert.equal(res.status, 200, res.body);
			}
			const report = await tools.waitFor('the report', () => texts(sandbox, ASKED).find((text) => text.startsWith('report:')), 30000);
			assert.equal(report, `report: Yes | Yes | ${ASKED}@s.whatsapp.net`);
			assert.equal(await tools.waitFor('status success', async () => ((await statusOf(rest, askId)) === 'success' ? 'success' : undefined), 15000), 'success');
			// The reply resumed the execution only: no echo run answered it.
			await new Promise((resolve) => setTimeout(resolve, 2000));
			assert.equal(texts(sandbox, ASKED).filter((text) => text.startsWith(REPLY_PREFIX)).length, echoesBefore, 'the reply also started the echo workflow');
			const echo = await rest.getWorkflow(echoId);
			assert.doesNotMatch(JSON.stringify(echo.staticData ?? {}), /"waits"/, 'the wait is still stored');
		});
	} finally {
		for (const id of ids) await rest.deactivate(id).catch(() => undefined);
		await sandbox.close();
	}
}

if (require.main === module) void runAlone('chat-reply', chatReplyChecks);
