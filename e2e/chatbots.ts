/**
 * (t) Chatbot and Event Integration in a real n8n, against a sandbox playing 2.3.7: one chained
 * workflow runs every chatbot operation (an OpenAI credential and its models; a Typebot bot
 * created, read, updated, its chat ignored, paused and started, its sessions, the settings,
 * the bot and the credential deleted) and Set/Get of an event bus; each request as the real
 * server reads it, and neither the OpenAI key nor the Pusher secret in any output.
 *
 *   tsx e2e/chatbots.ts [version]   runs (t) alone: packs, installs into a temp user folder,
 *                                   starts n8n (~40 s)
 */
import * as assert from 'node:assert/strict';

import { executeWorkflow, nodeOutputs, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, credentialRef } from '../scripts/demo-workflow';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const OPENAI_KEY = 'sk-e2e-Openai0Key0Never0Shown0123';
const PUSHER_SECRET = 'e2e0pusher0secret0never0shown';
const CHAT = '5511933330000@s.whatsapp.net';
const CREDENTIAL = 'Evolution API 2.3.7 (chatbots)';
const picked = (value: string) => ({ __rl: true, mode: 'list', value });
const byId = (expression: string) => ({ __rl: true, mode: 'id', value: expression });
const BOT = "={{ $('Create Bot').first().json.id }}";
const OPENAI_CREDENTIAL = "={{ $('Create Credential').first().json.id }}";

/**
 * The chain's nodes in order, each with its parameters and the request it makes (method, path
 * with `{bot}`/`{cred}` for the ids); `read`: the request an update makes first to keep what it
 * does not set (read-modify-write).
 */
const STEPS: Array<{ node: string; parameters: Record<string, unknown>; request: string; read?: string }> = [
	{ node: 'Create Credential', parameters: { resource: 'chatbot', operation: 'createOpenAiCredential', name: 'E2E', apiKey: OPENAI_KEY }, request: 'POST /openai/creds/demo' },
	{ node: 'Credentials', parameters: { resource: 'chatbot', operation: 'getManyOpenAiCredentials', returnAll: true }, request: 'GET /openai/creds/demo' },
	{ node: 'Models', parameters: { resource: 'chatbot', operation: 'getOpenAiModels', openaiCredsId: byId(OPENAI_CREDENTIAL), limit: 1 }, request: 'GET /openai/getModels/demo' },
	{ node: 'Typebot Settings', parameters: { resource: 'chatbot', operation: 'updateSettings', kind: 'typebot', settings: { keywordFinish: '#stop' } }, read: 'GET /typebot/fetchSettings/demo', request: 'POST /typebot/settings/demo' },
	{ node: 'Create Bot', parameters: { resource: 'chatbot', operation: 'create', kind: 'typebot', url: 'https://typebot.example.com', typebot: 'e2e-flow', description: 'E2E flow', triggerValue: 'start' }, request: 'POST /typebot/create/demo' },
	{ node: 'Bots', parameters: { resource: 'chatbot', operation: 'getMany', kind: 'typebot', returnAll: true }, request: 'GET /typebot/find/demo' },
	{ node: 'Get Bot', parameters: { resource: 'chatbot', operation: 'get', kind: 'typebot', botId: byId(BOT) }, request: 'GET /typebot/fetch/{bot}/demo' },
	{ node: 'Update Bot', parameters: { resource: 'chatbot', operation: 'update', kind: 'typebot', botId: byId(BOT), url: 'https://typebot.example.com', typebot: 'e2e-flow', triggerType: 'advanced', triggerValue: '^go' }, request: 'PUT /typebot/update/{bot}/demo' },
	{ node: 'Ignore Chat', parameters: { resource: 'chatbot', operation: 'ignoreChat', kind: 'typebot', remoteJid: '5511944440000', ignore: 'add' }, request: 'POST /typebot/ignoreJid/demo' },
	{ node: 'Start Flow', parameters: { resource: 'chatbot', operation: 'start', remoteJid: CHAT, url: 'https://typebot.example.com', typebot: 'e2e-flow', options: { startSession: true } }, request: 'POST /typebot/start/demo' },
	{ node: 'Pause', parameters: { resource: 'chatbot', operation: 'changeStatus', kind: 'typebot', remoteJid: CHAT, status: 'paused' }, request: 'POST /typebot/changeStatus/demo' },
	{ node: 'Sessions', parameters: { resource: 'chatbot', operation: 'getSessions', kind: 'typebot', botId: byId(BOT), returnAll: true }, request: 'GET /typebot/fetchSessions/{bot}/demo' },
	{ node: 'Settings', parameters: { resource: 'chatbot', operation: 'getSettings', kind: 'typebot' }, request: 'GET /typebot/fetchSettings/demo' },
	{ node: 'Delete Bot', parameters: { resource: 'chatbot', operation: 'delete', kind: 'typebot', botId: byId(BOT) }, request: 'DELETE /typebot/delete/{bot}/demo' },
	{ node: 'Delete Credential', parameters: { resource: 'chatbot', operation: 'deleteOpenAiCredential', openaiCredsId: byId(OPENAI_CREDENTIAL) }, request: 'DELETE /openai/creds/{cred}/demo' },
	{ node: 'Set Pusher', parameters: { resource: 'eventIntegration', operation: 'set', kind: 'pusher', appId: '1234567', key: 'e2e-key', secret: PUSHER_SECRET, cluster: 'eu', events: ['MESSAGES_UPSERT'] }, request: 'POST /pusher/set/demo' },
	{ node: 'Get Pusher', parameters: { resource: 'eventIntegration', operation: 'get', kind: 'pusher' }, request: 'GET /pusher/find/demo' },
];

function chainWorkflow(credId: string): WorkflowSpec {
	const start = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const nodes = STEPS.map((step, i) => ({
		id: step.node.replace(/\W/g, ''),
		name: step.node,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [200 * (i + 1), 0],
		credentials: credentialRef(credId, CREDENTIAL),
		// one item on: a list answers several
		executeOnce: true,
		parameters: { instance: picked('demo'), ...step.parameters },
	}));
	const names = ['Start', ...STEPS.map((step) => step.node)];
	const connections: Record<string, unknown> = {};
	names.slice(0, -1).forEach((name, i) => (connections[name] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }));
	return { name: 'e2e (t): chatbots and event integrations', nodes: [start, ...nodes], connections };
}

export async function chatbotChecks(tools: E2eTools, rest: RestClient): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }] });
	try {
		const made = await rest.call('POST', '/credentials', { name: CREDENTIAL, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const workflow = await rest.call('POST', '/workflows', { ...chainWorkflow(String(made.id)), active: false, settings: { executionOrder: 'v1' } });
		const result = await executeWorkflow(tools.userFolder, String(workflow.id), tools.version);
		const ran = await tools.check('(t) every Chatbot operation and Event Integration Set/Get run in one chained workflow (exit 0)', () => {
			assert.ok(result.ok, `exit ${result.code}: ${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`);
		});
		const outputs = nodeOutputs(result.data);
		await tools.check('(t) each node made its request (an update its read first), in order, and the server took it', () => {
			const bot = outputs['Create Bot']?.[0]?.json?.id;
			const cred = outputs['Create Credential']?.[0]?.json?.id;
			assert.ok(typeof bot === 'string' && typeof cred === 'string', 'no bot or credential id in the outputs');
			const expected = STEPS.flatMap((step) => [...(step.read ? [step.read] : []), step.request]).map((line) => line.replace('{bot}', bot).replace('{cred}', cred));
			const requests = (sandbox.requests as any[]).map((r) => `${r.method} ${r.path}`);
			assert.deepEqual(requests, expected);
			const refused = (sandbox.requests as any[]).filter((r) => r.status >= 300).map((r) => `${r.method} ${r.path} ${r.status}`);
			assert.deepEqual(refused, []);
		});
		await tools.check('(t) the bodies as the server reads them: the Typebot bot, the chat as a JID, Pusher\'s app', () => {
			const body = (line: string) => (sandbox.requests as any[]).find((r) => `${r.method} ${r.path}` === line)?.body;
			assert.deepEqual(body('POST /typebot/create/demo'), { enabled: true, description: 'E2E flow', url: 'https://typebot.example.com', typebot: 'e2e-flow', triggerType: 'keyword', triggerOperator: 'equals', triggerValue: 'start' });
			assert.deepEqual(body('POST /typebot/ignoreJid/demo'), { remoteJid: '5511944440000@s.whatsapp.net', action: 'add' });
			assert.deepEqual(body('POST /pusher/set/demo'), { pusher: { enabled: true, events: ['MESSAGES_UPSERT'], appId: '1234567', key: 'e2e-key', secret: PUSHER_SECRET, cluster: 'eu', useTLS: true } });
		});
		if (ran) {
			await tools.check('(t) the outputs: the flow\'s session listed, models read, secrets redacted', () => {
				assert.equal(outputs['Models']?.[0]?.json?.id, 'gpt-4o');
				assert.equal(outputs['Sessions']?.[0]?.json?.status, 'paused');
				assert.equal(outputs['Create Credential']?.[0]?.json?.apiKey, '[redacted]');
				assert.equal(outputs['Get Pusher']?.[0]?.json?.secret, '[redacted]');
				const text = JSON.stringify(outputs);
				for (const secret of [OPENAI_KEY, PUSHER_SECRET, sandbox.apiKey]) assert.ok(!text.includes(secret), 'a secret is in an output');
			});
		}
	} finally {
		await sandbox.close().catch(() => undefined);
	}
}

if (require.main === module) void runAlone('chatbots', chatbotChecks);
