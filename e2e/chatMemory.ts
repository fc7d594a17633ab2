/**
 * (mem) The chat memory in a real n8n: the recipe "an AI agent that remembers". An active
 * workflow Messaging Instance Trigger → Collect Burst → AI Agent (OpenAI Chat Model pointed at
 * the scripted model server, e2e/modelServer.ts; memory: Messaging Instance Chat Memory,
 * Context Window Length 1) → Send Text `{{ $json.output }}` to the chat, against a v2 sandbox
 * playing 2.3.7. Three turns of one contact, with another chat stored beside it:
 * - turn 1: the model receives the contact's message and no history;
 * - a person answers from the phone (stored by the server as the instance's message), then n8n
 *   is stopped and started again on the same folder and port;
 * - turn 2: the model receives exactly the first interaction (the contact's message; the
 *   workflow's answer and the phone's, one assistant turn), then the new message;
 * - turn 3: the window holds one interaction: exactly turn 2's, then the new message.
 * Nothing of the other chat reaches the model. This group runs its own n8n (a copy of the
 * tier's installed package), so that its restart does not touch the other groups.
 *
 *   tsx e2e/chatMemory.ts [version]   runs (mem) alone (~1–2 min: two n8n starts)
 */
import * as assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, majorOf, PACKAGE_NAME, setupOwnerAndLogin, startN8n, type N8nHandle, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, ACTION_VERSION, credentialRef, instanceParameter, replyWorkflow, TRIGGER_NODE } from '../scripts/demo-workflow';
import { agentNode, modelNode } from './agent';
import { startModelServer, textOf, type ChatRequest, type ModelServer, type Turn } from './modelServer';
import { folderWithPackage } from './queue/cluster';
import { chatReads } from './expect';
import { publish } from './serverVersions';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const CONTACT = '5511944440000';
const OTHER = '5511955550000';
export const MEMORY_TYPE = `${PACKAGE_NAME}.messagingInstanceChatMemory`;
const MEMORY_NODE = 'Messaging Instance Chat Memory';

/** The scripted model: it answers every conversation with the last thing the user said. */
export function answerOf(userText: string): string {
	return `Noted: ${userText}`;
}
export function script(request: ChatRequest): Turn {
	const users = request.messages.filter((message) => message.role === 'user');
	return { content: answerOf(textOf(users[users.length - 1]?.content)) };
}

/** The recipe's workflow: Trigger → Collect Burst → AI Agent (model, memory) → Send Text of the agent's output. */
export function memoryWorkflow(version: string, ids: { messaging: string; messagingName: string; openAi: string; openAiName: string }, instance = 'demo'): WorkflowSpec {
	const echo = replyWorkflow(ids.messaging, { instance, name: `e2e (mem): an AI agent that remembers (${instance})`, credentialName: ids.messagingName });
	const [trigger, reply] = echo.nodes as [Record<string, unknown>, { name: string; parameters: Record<string, unknown> } & Record<string, unknown>];
	const link = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
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
				credentials: credentialRef(ids.messaging, ids.messagingName),
				parameters: { instance: instanceParameter(ACTION_VERSION, instance), resource: 'message', operation: 'collectBurst', quietSeconds: 1 },
			},
			agentNode(version, '={{ $json.text }}', [400, 0]),
			modelNode(ids.openAi, ids.openAiName, [300, 200]),
			{
				id: randomUUID(),
				name: MEMORY_NODE,
				type: MEMORY_TYPE,
				typeVersion: 1,
				position: [450, 200],
				credentials: credentialRef(ids.messaging, ids.messagingName),
				// As the editor saves a new node with its instance picked and the window set: Chat ID and the current messages keep their defaults.
				parameters: { instance: instanceParameter(2, instance), contextWindowLength: 1 },
			},
			{ ...reply, position: [700, 0], parameters: { ...reply.parameters, number: "={{ $('Collect Burst').item.json.chatId }}", text: '={{ $json.output }}' } },
		],
		connections: {
			...link(TRIGGER_NODE, 'Collect Burst'),
			...link('Collect Burst', 'AI Agent'),
			...link('AI Agent', reply.name),
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			[MEMORY_NODE]: { ai_memory: [[{ node: 'AI Agent', type: 'ai_memory', index: 0 }]] },
		},
	};
}

/** What the model was given in its last request: the conversation without the agent's system prompt. */
export function lastConversation(model: ModelServer): Array<{ role: string; text: string }> {
	const chats = model.chats();
	const last = chats[chats.length - 1]?.body;
	return (last?.messages ?? []).filter((message) => message.role !== 'system').map((message) => ({ role: message.role, text: textOf(message.content) }));
}

function sentTo(sandbox: Sandbox, number: string): string[] {
	return (sandbox.requests as any[]).filter((r) => r.path === '/message/sendText/demo' && String(r.body?.number ?? '').startsWith(number)).map((r) => String(r.body?.text ?? ''));
}

/** Find Messages requests of the chat so far (the catch-up's after n8n's restart, by time, are not a turn's cost). */
function findMessagesCount(sandbox: Sandbox): number {
	return chatReads(sandbox).length;
}

/**
 * The contact writes; the workflow answers once (Collect Burst's quiet time, the agent, Send
 * Text). What the turn cost: one Find Messages of Collect Burst, one of the memory.
 */
async function turn(tools: E2eTools, sandbox: Sandbox, id: string, text: string): Promise<void> {
	const before = sentTo(sandbox, CONTACT).length;
	const reads = findMessagesCount(sandbox);
	const delivery = await sandbox.injectMessage('demo', { from: CONTACT, pushName: 'Ana', id, text });
	assert.equal(delivery?.attempts?.at(-1)?.status, 200, JSON.stringify(delivery?.attempts));
	await tools.waitFor(`the answer to ${id}`, () => (sentTo(sandbox, CONTACT).length > before ? true : undefined), 60_000);
	assert.deepEqual(sentTo(sandbox, CONTACT).slice(before), [answerOf(text)]);
	assert.equal(findMessagesCount(sandbox) - reads, 2, 'Find Messages requests of the turn (Collect Burst 1, the memory 1)');
}

export async function chatMemoryChecks(tools: E2eTools): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }], delivery: { attempts: 3, backoffMs: 500, timeoutMs: 30000 } });
	const model = await startModelServer(script, await freePort());
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-memory-'));
	const folder = folderWithPackage(root, 'n8n', tools.userFolder);
	const port = await freePort();
	const start = async () => await startN8n({ version: tools.version, userFolder: folder, port, echo: process.env.E2E_VERBOSE === '1' });
	let n8n: N8nHandle | undefined;
	try {
		n8n = await start();
		const rest: RestClient = await setupOwnerAndLogin(n8n.url);
		const messaging = await rest.call('POST', '/credentials', { name: 'Sandbox (memory)', type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const openAi = await rest.call('POST', '/credentials', { name: 'Scripted model (memory)', type: 'openAiApi', data: { apiKey: `sk-e2e-${randomBytes(12).toString('hex')}`, url: model.url, header: false } });
		const spec = memoryWorkflow(tools.version, { messaging: String(messaging.id), messagingName: 'Sandbox (memory)', openAi: String(openAi.id), openAiName: 'Scripted model (memory)' });
		const workflowId = String((await rest.call('POST', '/workflows', { ...spec, active: false, settings: { executionOrder: 'v1' } })).id);
		// Another chat the server stored before the workflow was active: never the model's business.
		await sandbox.injectMessage('demo', { from: OTHER, id: 'OTHER1', text: 'another chat: my card is 4111' });
		const ready = await tools.check('(mem) the memory workflow is active (Trigger → Collect Burst → AI Agent with the chat memory → Send Text)', async () => await publish(tools, rest, n8n!.url, sandbox, 'demo', workflowId));
		if (!ready) return;

		if (majorOf(tools.version) < 2) {
			await withoutTheSdk(tools, rest, sandbox, workflowId);
			return;
		}

		await tools.check('(mem) turn 1: the model gets the contact\'s message and no history; its answer is sent to the chat', async () => {
			await turn(tools, sandbox, 'MEM1', 'I want a red bike');
			assert.deepEqual(lastConversation(model), [{ role: 'user', text: 'I want a red bike' }]);
		});

		await tools.check('(mem) a message typed on the phone, then n8n stopped and started again on the same folder', async () => {
			await sandbox.injectMessage('demo', { from: CONTACT, fromMe: true, id: 'MEMPHONE', text: 'We also have blue ones.' });
			await n8n!.stop();
			n8n = await start();
			await tools.waitFor('the trigger to serve again', async () => {
				const hook = sandbox.webhookOf('demo');
				const url = new URL(String(hook.url));
				const res = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }).catch(() => undefined);
				return res && res.status !== 404 ? true : undefined;
			}, 60_000);
		});

		await tools.check('(mem) turn 2 (after the restart): the model gets exactly the first interaction (the phone\'s message in the answer\'s turn), then the new message', async () => {
			await turn(tools, sandbox, 'MEM2', 'how much is it?');
			assert.deepEqual(lastConversation(model), [
				{ role: 'user', text: 'I want a red bike' },
				{ role: 'assistant', text: `${answerOf('I want a red bike')}\nWe also have blue ones.` },
				{ role: 'user', text: 'how much is it?' },
			]);
		});

		await tools.check('(mem) turn 3: a window of one interaction holds turn 2 only; nothing of the other chat ever reached the model', async () => {
			await turn(tools, sandbox, 'MEM3', 'ok, I take the blue one');
			assert.deepEqual(lastConversation(model), [
				{ role: 'user', text: 'how much is it?' },
				{ role: 'assistant', text: answerOf('how much is it?') },
				{ role: 'user', text: 'ok, I take the blue one' },
			]);
			const seen = model.chats().map((request) => request.raw).join('\n');
			assert.ok(!seen.includes('another chat') && !seen.includes(sandbox.apiKey), 'the model saw another chat or the API key');
		});
	} finally {
		await n8n?.stop().catch(() => undefined);
		await model.close();
		await sandbox.close();
		fs.rmSync(root, { recursive: true, force: true });
	}
}

/**
 * n8n 1.x ships no AI node SDK: the memory's node is there (the workflow saves and publishes),
 * and an agent run stops with the memory's message naming what it needs; the trigger and
 * Collect Burst before it ran as on 2.x.
 */
async function withoutTheSdk(tools: E2eTools, rest: RestClient, sandbox: Sandbox, workflowId: string): Promise<void> {
	await tools.check('(mem) n8n 1.x (no AI node SDK): the agent\'s run stops with the memory\'s message naming the SDK; the trigger and Collect Burst ran', async () => {
		const delivery = await sandbox.injectMessage('demo', { from: CONTACT, pushName: 'Ana', id: 'MEMOLD', text: 'hello' });
		assert.equal(delivery?.attempts?.at(-1)?.status, 200, JSON.stringify(delivery?.attempts));
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const run = await tools.waitFor('the run to end', async () => {
			const page = (await rest.call('GET', `/executions?filter=${filter}&limit=5`)) as { results: Array<{ id: string; status: string }> };
			return page.results.find((execution) => !['running', 'new', 'waiting'].includes(execution.status));
		}, 60_000);
		assert.equal(run.status, 'error');
		const data = String(((await rest.call('GET', `/executions/${run.id}`)) as { data?: string }).data ?? '');
		assert.ok(data.includes('@n8n/ai-node-sdk'), 'the run\'s error does not name the SDK');
		assert.ok(data.includes('Collect Burst'), 'Collect Burst did not run');
		assert.deepEqual(sentTo(sandbox, CONTACT), []);
	});
}

if (require.main === module) void runAlone('chat-memory', (tools) => chatMemoryChecks(tools));
