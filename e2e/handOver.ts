/**
 * (ho) Hand over to a person, in a real n8n: an active workflow Messaging Instance Trigger →
 * Collect Burst (Quiet Seconds 2, Options → Silent After Person (Minutes) 5) → Send Text
 * `You said: {{ $json.text }}` to the chat, every other parameter as a new node has it. On a
 * v2 sandbox playing 2.4:
 * - the contact writes: the bot answers (its reply carries the node's own message id, known
 *   again in the history as the package's send);
 * - the account's owner writes in the chat from the phone (a fromMe message with a phone's id;
 *   the trigger drops it, Ignore Own Messages being on by default);
 * - the contact writes again: no answer, and the run that stayed silent is no failure.
 *
 *   tsx e2e/handOver.ts [version]   runs (ho) alone: packs, installs into a temp user folder,
 *                                   starts n8n and a v2 sandbox (~1 min)
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import type { RestClient, WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, ACTION_VERSION, credentialRef, instanceParameter, REPLY_PREFIX, replyWorkflow, TRIGGER_NODE } from '../scripts/demo-workflow';
import { isOwnMessageId } from '../nodes/shared/ownMessageId';
import { chatReads } from './expect';
import { publish } from './serverVersions';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const CONTACT = '5511944440000';

/** Trigger → Collect Burst (silent 5 minutes after a person) → the echo reply. */
export function handOverWorkflow(credId: string, credName: string, instance = 'demo'): WorkflowSpec {
	const echo = replyWorkflow(credId, { instance, name: `e2e (ho): hand over to a person (${instance})`, credentialName: credName });
	const [trigger, reply] = echo.nodes as [Record<string, unknown>, { name: string } & Record<string, unknown>];
	return {
		name: echo.name,
		nodes: [
			trigger,
			{
				id: randomUUID(),
				name: 'Collect Burst',
				type: ACTION_TYPE,
				typeVersion: ACTION_VERSION,
				position: [200, 0],
				credentials: credentialRef(credId, credName),
				parameters: { instance: instanceParameter(ACTION_VERSION, instance), resource: 'message', operation: 'collectBurst', quietSeconds: 2, options: { silentAfterPersonMinutes: 5 } },
			},
			{ ...reply, position: [400, 0] },
		],
		connections: {
			[TRIGGER_NODE]: { main: [[{ node: 'Collect Burst', type: 'main', index: 0 }]] },
			'Collect Burst': { main: [[{ node: reply.name, type: 'main', index: 0 }]] },
		},
	};
}

/** The texts the instance sent to the contact, in order. */
function replies(sandbox: Sandbox): string[] {
	return (sandbox.requests as any[]).filter((r) => r.path === '/message/sendText/demo' && String(r.body?.number ?? '').startsWith(CONTACT)).map((r) => String(r.body?.text ?? ''));
}

/** The workflow's runs, newest first, once `count` have ended (none running or waiting). */
async function endedRuns(tools: E2eTools, rest: RestClient, workflowId: string, count: number): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return await tools.waitFor(`${count} runs to end`, async () => {
		const page = (await rest.call('GET', `/executions?filter=${filter}&limit=50`)) as { results: Array<{ id: string; status: string }> };
		return page.results.length >= count && page.results.every((run) => !['running', 'new', 'waiting'].includes(run.status)) ? page.results : undefined;
	}, 60_000);
}

async function writes(sandbox: Sandbox, message: Record<string, unknown>): Promise<void> {
	const delivery = await sandbox.injectMessage('demo', { from: CONTACT, ...message });
	assert.equal(delivery?.attempts?.at(-1)?.status, 200, JSON.stringify(delivery?.attempts));
}

export async function handOverChecks(tools: E2eTools, rest: RestClient, n8nUrl: string): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.4.0', licensed: true, instances: [{ name: 'demo' }], delivery: { attempts: 3, backoffMs: 500, timeoutMs: 30000 } });
	let workflowId: string | undefined;
	try {
		const credName = 'Sandbox (hand over)';
		const made = await rest.call('POST', '/credentials', { name: credName, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const created = await rest.call('POST', '/workflows', { ...handOverWorkflow(String(made.id), credName), active: false, settings: { executionOrder: 'v1' } });
		workflowId = String(created.id);
		const id = workflowId;
		const ready = await tools.check("(ho) the hand-over workflow is active: the instance's webhook points at it", async () => await publish(tools, rest, n8nUrl, sandbox, 'demo', id));
		if (!ready) return;

		await tools.check('(ho) the contact writes, the bot answers; the owner writes from the phone; the contact writes again: no answer, and the silent run is no failure', async () => {
			await writes(sandbox, { id: 'HO1', text: 'hi, is my order shipped?', pushName: 'Ana' });
			await endedRuns(tools, rest, id, 1);
			assert.deepEqual(replies(sandbox), [`${REPLY_PREFIX}hi, is my order shipped?`]);
			const sent = (sandbox.requests as any[]).find((r) => r.path === '/message/sendText/demo');
			assert.equal(isOwnMessageId(sent?.body?.messageId), true, JSON.stringify(sent?.body));

			// The owner takes over on the phone: a fromMe upsert with an iPhone's message id (the sandbox's default).
			await writes(sandbox, { text: 'Hi Ana, I am checking it for you', fromMe: true });
			await writes(sandbox, { id: 'HO2', text: 'thank you!', pushName: 'Ana' });
			const runs = await endedRuns(tools, rest, id, 2);
			assert.deepEqual(replies(sandbox), [`${REPLY_PREFIX}hi, is my order shipped?`], 'the bot talked over the person');
			assert.deepEqual(runs.map((run) => run.status), ['success', 'success']);
			// The silent run read the chat (its burst and the person's message) and sent nothing.
			const reads = chatReads(sandbox);
			assert.equal(reads.length >= 2, true, JSON.stringify(reads.map((r) => r.body)));
		});
	} finally {
		if (workflowId) await rest.deactivate(workflowId).catch(() => undefined);
		// n8n switches the trigger's webhook off in the background: closing the sandbox first would leave a "deregistration failed" error in n8n's log.
		await tools.waitFor("the instance's webhook switched off", () => sandbox.webhookOf('demo')?.enabled !== true, 15000).catch(() => undefined);
		await sandbox.close();
	}
}

if (require.main === module) void runAlone('hand-over', handOverChecks);
