/**
 * Group `one` (E2E_GROUPS=one): one instance, one webhook, in a real n8n. Two workflows with a
 * trigger on the same instance of a v2 sandbox (which keeps one webhook per instance, as the
 * server does): the first publishes and answers; the second's publish fails — n8n 2.40.7
 * publishes in the background, and `GET /rest/workflows/:id/publication-status` shows the
 * trigger's error naming the instance and the workflow that holds it — and the first still
 * answers. n8n is stopped and started again on the same folder and port: the first still
 * holds the instance and answers, the second is not published.
 *
 * Its own n8n on a copy of the tier's user folder (the restart must not touch the tier's);
 * `tsx e2e/oneWebhook.ts [version]` runs it alone (e2e/standalone.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, request, setupOwnerAndLogin, startN8n, type N8nHandle, type RestClient } from '../scripts/n8n-runtime';
import { REPLY_PREFIX, replyWorkflow } from '../scripts/demo-workflow';
import type { Sandbox } from '../sandbox/server';
import { requestsTo } from './expect';
import { folderWithPackage } from './queue/cluster';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */

const INSTANCE = 'sales';

/** The publication status once n8n has settled it (not `in_progress`). */
async function settledPublication(tools: E2eTools, rest: RestClient, id: string): Promise<any> {
	return tools.waitFor(
		`workflow ${id}'s publication to settle`,
		async () => {
			const res = await rest.raw('GET', `/workflows/${id}/publication-status`);
			const data = JSON.parse(res.body).data;
			return data && data.status !== 'in_progress' ? data : undefined;
		},
		90000,
	);
}

async function triggerNodeId(rest: RestClient, id: string): Promise<string> {
	const workflow = await rest.getWorkflow(id);
	return String(workflow.nodes.find((node: any) => String(node.type).endsWith('.messagingInstanceTrigger'))?.id);
}

/**
 * The reply the holding workflow sends to a message the contact writes now (`text`). Other
 * replies in the meantime may only be to what the contact wrote before (`earlier`): after n8n's
 * restart, the trigger's Catch Up (on for a new trigger) may bring the seconds before the stop
 * again (docs/operations.md, "The cursor").
 */
async function replyTo(tools: E2eTools, sandbox: Sandbox, text: string, earlier: string[] = []): Promise<any> {
	const before = requestsTo(sandbox, `/message/sendText/${INSTANCE}`).length;
	const delivery = await sandbox.injectMessage(INSTANCE, { from: '5511977770000', text, pushName: 'Ana' });
	assert.ok(delivery, `the sandbox made no delivery (webhook: ${JSON.stringify(sandbox.webhookOf(INSTANCE))})`);
	const replies = () => requestsTo(sandbox, `/message/sendText/${INSTANCE}`).slice(before);
	const reply = await tools.waitFor('a sendText reply', () => replies().find((r: any) => r.body?.text === `${REPLY_PREFIX}${text}`), 30000);
	const others = replies().map((r: any) => String(r.body?.text)).filter((t: string) => t !== `${REPLY_PREFIX}${text}`);
	assert.deepEqual(others.filter((t: string) => !earlier.some((e) => t === `${REPLY_PREFIX}${e}`)), [], 'replies to messages nobody wrote');
	return reply;
}

export async function oneWebhookChecks(tools: E2eTools): Promise<void> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-one-'));
	const folder = folderWithPackage(root, 'n8n', tools.userFolder);
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: INSTANCE }] });
	const port = await freePort();
	const echo = process.env.E2E_VERBOSE === '1';
	let n8n: N8nHandle | undefined;
	let botId = '';
	let loggerId = '';
	let held: any;
	try {
		n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
		console.log(`     (one) n8n started in ${(n8n.startupMs / 1000).toFixed(1)} s`);
		let rest = await setupOwnerAndLogin(n8n.url);
		const credential = (await rest.call('POST', '/credentials', { name: 'Sandbox (one)', type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } })) as { id: string };
		const create = async (name: string) => String(((await rest.call('POST', '/workflows', { ...replyWorkflow(credential.id, { instance: INSTANCE, name, credentialName: 'Sandbox (one)' }), active: false })) as { id: string }).id);
		botId = await create('Support bot');
		loggerId = await create('Message logger');

		const first = await tools.check('(one) the first workflow with a trigger on the instance publishes and answers', async () => {
			await rest.activate(botId);
			assert.equal((await settledPublication(tools, rest, botId)).status, 'published');
			held = await tools.waitFor('the trigger registered', () => (sandbox.webhookOf(INSTANCE)?.enabled ? sandbox.webhookOf(INSTANCE) : undefined), 30000);
			await replyTo(tools, sandbox, 'to the bot');
		});

		await tools.check('(one) a second workflow with a trigger on the same instance fails to publish, saying which workflow holds it; the first still answers', async () => {
			assert.ok(first, 'not run: the first workflow did not publish');
			await rest.activate(loggerId);
			const status = await settledPublication(tools, rest, loggerId);
			// The action node's own webhook (Send and Wait) counts as a trigger too: the
			// publication is `partial` then, with the Messaging Instance Trigger failed.
			assert.ok(['failed', 'partial'].includes(status.status), JSON.stringify(status));
			const trigger = await triggerNodeId(rest, loggerId);
			const entry = status.triggers?.find((t: any) => t.nodeId === trigger);
			assert.equal(entry?.status, 'failed', JSON.stringify(status));
			assert.equal(entry?.errorMessage, `The instance "${INSTANCE}" already starts workflow ${botId} on this n8n`, JSON.stringify(status));
			assert.deepEqual(sandbox.webhookOf(INSTANCE), held, 'the instance\'s webhook changed');
			await replyTo(tools, sandbox, 'still the bot');
		});

		await tools.check('(one) after a restart of n8n the first workflow still holds the instance and answers', async () => {
			assert.ok(first, 'not run: the first workflow did not publish');
			await n8n?.stop();
			n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
			console.log(`     (one) n8n started again in ${(n8n.startupMs / 1000).toFixed(1)} s`);
			rest = await setupOwnerAndLogin(n8n.url);
			const bare = new URL(String(held.url));
			// n8n listens before it serves its webhooks: wait for the trigger's own answer (401 without the secret).
			await tools.waitFor('the trigger to serve again', async () => ((await request('POST', `${bare.origin}${bare.pathname}`, {})).status === 401 ? true : undefined), 60000);
			const status = await settledPublication(tools, rest, loggerId);
			const trigger = await triggerNodeId(rest, loggerId);
			assert.notEqual(status.triggers?.find((t: any) => t.nodeId === trigger)?.status, 'activated', `the second workflow's trigger is active after the restart: ${JSON.stringify(status)}`);
			assert.deepEqual(sandbox.webhookOf(INSTANCE), held, 'the instance\'s webhook changed with the restart');
			await replyTo(tools, sandbox, 'after the restart', ['to the bot', 'still the bot']);
		});
	} finally {
		await n8n?.stop().catch(() => undefined);
		await (sandbox as any).close?.();
		fs.rmSync(root, { recursive: true, force: true });
	}
}

if (require.main === module) void runAlone('one', (tools) => oneWebhookChecks(tools));
