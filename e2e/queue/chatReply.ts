/**
 * Queue mode: a Send and Wait for Response answered in the chat (`chatReply`) waits while both
 * webhook processes restart, and the contact's reply then resumes it through a new webhook
 * process: the trigger's webhook (in the process the balancer picks) posts the reply to the
 * run's resume URL (the balancer again), a webhook process takes it there and a worker runs
 * the rest of the workflow. The trigger is the tier's `naive` workflow (trigger → echo).
 *
 *   tsx e2e/queue/chatReply.ts   this check alone: the tier's gates (tarball, Postgres and
 *                                Redis, the cluster, the workflows, activation), this check,
 *                                then everything stopped
 */
import * as assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';

import { request, type WorkflowSpec } from '../../scripts/n8n-runtime';
import { ACTION_TYPE } from '../../scripts/demo-workflow';
import { waitFor, type NamedCheck } from '../report';
import { deliveredOk, executionsOf, repliesTo, sendTexts, startProcess } from './cluster';
import { describeAttempts, figure, running, type Tier } from './tier';

const ASKED = '5511933330000';
const INSTANCE = 'naive';

function askWorkflow(credId: string, path: string): WorkflowSpec {
	const action = (name: string, parameters: Record<string, unknown>, x: number) => ({
		id: randomUUID(),
		name,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [x, 0],
		credentials: { messagingInstanceApi: { id: credId, name: 'Sandbox v2 (chat reply)' } },
		parameters: { instance: { __rl: true, mode: 'list', value: INSTANCE }, ...parameters },
	});
	return {
		name: 'queue: send and wait for a reply in the chat',
		nodes: [
			{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(), parameters: { path, httpMethod: 'POST', options: {} } },
			action('Ask', { resource: 'message', operation: 'sendAndWait', number: ASKED, message: 'Queue: still there?', responseType: 'chatReply' }, 200),
			action('Report', { resource: 'message', operation: 'sendText', number: ASKED, text: '=report: {{ $json.text }}' }, 400),
		],
		connections: { Start: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] }, Ask: { main: [[{ node: 'Report', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

async function statusOf(t: Tier, workflowId: string): Promise<string | undefined> {
	const { rest } = running(t);
	return (await executionsOf(rest, workflowId))[0]?.status;
}

async function chatReplyResumesThroughARestartedWebhookProcess(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, cluster: cl, rest } = running(t);
	const cred = (await rest.call('POST', '/credentials', {
		name: 'Sandbox v2 (chat reply)',
		type: 'messagingInstanceApi',
		data: { baseUrl: sb.url, apiKey: sb.apiKey, dialect: 'v2' },
	})) as { id: string };
	const path = `queue-ask-${randomBytes(3).toString('hex')}`;
	const askId = ((await rest.call('POST', '/workflows', { ...askWorkflow(cred.id, path), active: false })) as { id: string }).id;
	await rest.activate(askId);
	try {
		await waitFor('the asking workflow\'s webhook on a webhook process', async () => {
			const res = await request('POST', `${lb.url}/webhook/${path}`, {});
			return res.status === 200 ? res : undefined;
		}, 60000);
		await waitFor('the question', () => sendTexts(sb, INSTANCE).find((r) => (r.body as { number?: string }).number === ASKED), 30000);
		await waitFor('the run waiting', async () => ((await statusOf(t, askId)) === 'waiting' ? true : undefined), 30000);

		// Both webhook processes restart while the run waits (their memory is gone; the wait is in Postgres).
		for (const index of [0, 1]) {
			const old = cl.webhooks[index];
			cl.pastLogs.push(old.logs());
			await old.stop();
			cl.webhooks[index] = await startProcess('webhook', cl.folders[index + 1], cl.env);
			lb.backends[index] = cl.webhooks[index].url;
		}
		figure(`webhook processes restarted: A ${cl.webhooks[0].url}, B ${cl.webhooks[1].url}`);
		assert.equal(await statusOf(t, askId), 'waiting');

		const text = `yes ${randomBytes(3).toString('hex')}`;
		const delivery = await sb.injectMessage(INSTANCE, { from: ASKED, text });
		assert.ok(deliveredOk(delivery), `delivery not answered 2xx: ${describeAttempts(delivery)}`);
		const report = await waitFor('the report after the resume', () => sendTexts(sb, INSTANCE).find((r) => (r.body as { text?: string }).text === `report: ${text}`), 60000);
		assert.ok(report);
		await waitFor('the run finished', async () => ((await statusOf(t, askId)) === 'success' ? true : undefined), 30000);
		// Workers ran it twice: up to the wait, and from the resume on.
		const executionId = (await executionsOf(rest, askId))[0].id;
		const started = cl.workers.map((w) => w.logs().split(`Worker started execution ${executionId} `).length - 1);
		assert.equal(started.reduce((a, b) => a + b, 0), 2, `worker log lines for execution ${executionId}: ${started.join(', ')}`);
		const resumedVia = lb.forwards.filter((f) => f.path.startsWith('/webhook-waiting/'));
		assert.ok(resumedVia.length >= 1 && resumedVia.every((f) => f.statuses.every((s) => s === 200)), `the resume posts: ${JSON.stringify(resumedVia.map((f) => f.statuses))}`);
		// The reply resumed the run only: the echo workflow did not answer it.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		assert.deepEqual(repliesTo(sb, INSTANCE, text), []);
	} finally {
		await rest.deactivate(askId).catch(() => undefined);
	}
}

export const chatReplyAfterWebhookRestart: NamedCheck<Tier> = {
	name: 'Send and Wait (Reply in the Chat): the run waits while both webhook processes restart, and the reply resumes it through a new one (on a worker, no echo run)',
	run: chatReplyResumesThroughARestartedWebhookProcess,
};

if (require.main === module) {
	void (async () => {
		const fs = await import('node:fs');
		const os = await import('node:os');
		const nodePath = await import('node:path');
		const { ensureN8n } = await import('../../scripts/n8n-runtime');
		const { ensureServiceBinaries } = await import('../../scripts/services');
		const { Report } = await import('../report');
		const { QUEUE_CHECKS } = await import('./checks');
		const { VERSION } = await import('./cluster');
		const report = new Report('queue chat reply');
		await ensureN8n(VERSION);
		const bins = await ensureServiceBinaries({ install: false });
		if (bins.missing.length > 0) {
			report.skip('queue chat reply', `missing ${bins.missing.join(', ')}`);
			report.summary();
		}
		const tier: Tier = { root: fs.mkdtempSync(nodePath.join(os.tmpdir(), 'n8n-queue-chat-')), bins, tarball: '', registered: {}, extraProcesses: [] };
		try {
			await report.runInOrder([...QUEUE_CHECKS.filter((check) => check.gate), chatReplyAfterWebhookRestart], tier);
		} finally {
			if (report.failed > 0 && tier.cluster) {
				for (const [name, h] of [['main', tier.cluster.main], ...tier.cluster.webhooks.map((w, i) => [`webhook ${i}`, w] as const), ...tier.cluster.workers.map((w, i) => [`worker ${i}`, w] as const)] as const) {
					console.log(`--- last output of ${name} ---\n${h.logs().slice(-2000)}`);
				}
			}
			if (tier.cluster) await Promise.allSettled([tier.cluster.main, ...tier.cluster.webhooks, ...tier.cluster.workers].map((p) => p.stop()));
			await Promise.allSettled([tier.services?.stop(), tier.sandbox?.close(), tier.balancer?.close()]);
			fs.rmSync(tier.root, { recursive: true, force: true });
			if (tier.tarball && !process.env.E2E_TARBALL) fs.rmSync(nodePath.dirname(tier.tarball), { recursive: true, force: true });
		}
		report.summary();
	})();
}
