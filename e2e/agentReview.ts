/**
 * (w) A person reviews an AI agent's tool call on WhatsApp, in a real n8n 2.x: n8n's AI Agent
 * (an OpenAI Chat Model pointed at the scripted model server, e2e/modelServer.ts) has the
 * Send Text tool (`messagingInstanceTool`) behind n8n's Human-in-the-Loop tool made of this
 * node (`messagingInstanceHitlTool`): the gated tool's `ai_tool` output goes into the review
 * node, the review node's `ai_tool` output into the agent. When the model calls Send Text, the
 * review node sends the approval request with its links to the reviewer in the sandbox and
 * the execution waits; approved through the link, the run resumes and Send Text runs once with
 * the model's arguments; declined, nothing is sent and the model gets n8n's rejection text.
 *
 *   tsx e2e/agentReview.ts [version]   runs (w) alone: packs, installs into a temp user
 *                                      folder, starts n8n (~40 s)
 *
 * n8n 1.x has no Human-in-the-Loop tools: there the check says so and runs nothing.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import { freePort, majorOf, PACKAGE_NAME, request, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { credentialRef } from '../scripts/demo-workflow';
import { agentNode, modelNode, sendTextToolNode, TOOL_NAME, TOOL_NODE } from './agent';
import { startModelServer, textOf, type ChatRequest, type ModelServer, type Turn } from './modelServer';
import { unflatten } from './serverVersions';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const HITL_TYPE = `${PACKAGE_NAME}.messagingInstanceHitlTool`;
/** The review node's name: the editor names a new Human-in-the-Loop tool after the node (its `defaults.name`). */
const REVIEW_NODE = 'Messaging Instance';
const REVIEWER = '5511977770000';
const CUSTOMER = '5511988880000';
const WAITING_LINK = /https?:\/\/[^\s]+\/webhook-waiting\/[^\s]+/g;
const MESSAGING_CREDENTIAL = 'Sandbox v2 (review)';
const MODEL_CREDENTIAL = 'Scripted model (review)';

/** Two requests to the agent: the reviewer approves the first call and declines the second. */
const APPROVED = {
	prompt: 'Tell Ana, +55 (11) 98888-0000, that her refund of 120 BRL was approved.',
	text: 'Hi Ana, your refund of 120 BRL was approved.',
	final: 'Done: Ana knows her refund was approved.',
};
const DECLINED = {
	prompt: 'Tell Ana, +55 (11) 98888-0000, that her order ships tomorrow.',
	text: 'Hi Ana, your order ships tomorrow.',
	final: 'The reviewer stopped that message; I will wait for instructions.',
};
const UNEDITED = {
	prompt: 'Tell Ana, +55 (11) 98888-0000, that her parcel is at the post office.',
	text: 'Hi Ana, your parcel is at the post office.',
	final: 'The reviewer stopped that message.',
};
const SCENARIOS = [APPROVED, DECLINED, UNEDITED];

/**
 * The README's review message: what the agent wants to send and to whom, from the gated tool's
 * arguments (`$tool.parameters`, under the `$fromAI` keys). n8n's default message writes
 * `{{ $tool.parameters }}`, an object, which an expression renders as "[object Object]".
 */
export const REVIEW_MESSAGE = '=The assistant wants to send this to {{ $tool.parameters.Number }}:\n\n{{ $tool.parameters.Text }}';
/** The start of n8n's default message of a Human-in-the-Loop tool, up to where the arguments go. */
const DEFAULT_MESSAGE_START = `The agent wants to run this tool: ${TOOL_NAME}\n\nInput:\n`;

/**
 * The scripted model: the first turn calls the gated Send Text tool with the arguments under
 * the keys of the schema it is offered (n8n nests the tool's own under `toolParameters`, the
 * review node's under `hitlParameters`); once a tool result is in the messages, it answers.
 */
export function reviewScript(request: ChatRequest): Turn {
	const user = request.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n');
	const scenario = SCENARIOS.find((s) => user.includes(s.prompt));
	if (!scenario) throw new Error(`no scenario for the user message ${JSON.stringify(user.slice(0, 200))}`);
	if (request.messages.some((m) => m.role === 'tool')) return { content: scenario.final };
	const tool = (request.tools ?? []).map((t) => t.function).find((t) => t.name === TOOL_NAME);
	if (!tool) throw new Error(`no tool ${TOOL_NAME} among ${JSON.stringify((request.tools ?? []).map((t) => t.function.name))}`);
	const properties = (tool.parameters?.properties ?? {}) as Record<string, any>;
	const own = properties.toolParameters?.properties;
	if (!own) throw new Error(`the tool's schema has no toolParameters: ${JSON.stringify(tool.parameters)}`);
	const keys = Object.keys(own);
	const numberKey = keys.find((k) => /number|phone|recipient/i.test(k));
	const textKey = keys.find((k) => /text|message/i.test(k));
	if (!numberKey || !textKey) throw new Error(`the tool's schema has no number/text keys: ${JSON.stringify(keys)}`);
	return { tool: tool.name, args: { toolParameters: { [numberKey]: '+55 (11) 98888-0000', [textKey]: scenario.text }, hitlParameters: {} } };
}

/** Webhook → AI Agent; the model; Send Text → the review node → the agent. */
export function reviewWorkflow(version: string, path: string, credIds: { openAi: string; messaging: string }, message?: string): WorkflowSpec {
	return {
		name: `e2e (w): a person reviews the agent's message on WhatsApp (${message ? 'the README\'s message' : 'n8n\'s default message'})`,
		nodes: [
			{ id: 'hook', name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomBytes(8).toString('hex'), parameters: { path, httpMethod: 'POST', options: {} } },
			agentNode(version, '={{ $json.body.prompt }}', [300, 0]),
			modelNode(credIds.openAi, MODEL_CREDENTIAL, [200, 200]),
			{
				id: 'review',
				name: REVIEW_NODE,
				type: HITL_TYPE,
				typeVersion: 2,
				position: [400, 200],
				credentials: credentialRef(credIds.messaging, MESSAGING_CREDENTIAL),
				// Without a message, n8n's default (the tool's name and arguments); both buttons, so the reviewer can decline.
				parameters: {
					instance: { __rl: true, mode: 'list', value: 'demo' },
					number: REVIEWER,
					...(message ? { message } : {}),
					approvalOptions: { values: { approvalType: 'double' } },
				},
			},
			sendTextToolNode(credIds.messaging, MESSAGING_CREDENTIAL, [400, 400]),
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			// The gated tool feeds the review node, which is the agent's tool.
			[TOOL_NODE]: { ai_tool: [[{ node: REVIEW_NODE, type: 'ai_tool', index: 0 }]] },
			[REVIEW_NODE]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

function sendTexts(sandbox: Sandbox, number: string): any[] {
	return (sandbox.requests as any[]).filter((r) => r.method === 'POST' && r.path === '/message/sendText/demo' && String(r.body?.number ?? '').replace(/\D/g, '') === number);
}

/** The chat requests of one conversation (by its user message), in order. */
function conversation(model: ModelServer, prompt: string): ChatRequest[] {
	return model
		.chats()
		.map((r) => r.body!)
		.filter((body) => body.messages.some((m) => m.role === 'user' && textOf(m.content).includes(prompt)));
}

/** The tool messages of the conversation's last request: what n8n sent back for each tool call. */
function toolMessages(model: ModelServer, prompt: string): Array<{ id?: string; content: string }> {
	const requests = conversation(model, prompt);
	const last = requests[requests.length - 1];
	return (last?.messages ?? []).filter((m) => m.role === 'tool').map((m) => ({ id: m.tool_call_id, content: textOf(m.content) }));
}

/** The workflow's newest execution, `{id, status}`. */
async function newestExecution(rest: RestClient, workflowId: string): Promise<{ id: string; status: string } | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = (await rest.call('GET', `/executions?filter=${filter}&limit=1`)) as { results: Array<{ id: string; status: string }> };
	return page.results[0];
}

async function post(link: string): Promise<{ status: number; body: string }> {
	// The page's buttons post its form, as a browser sends it.
	const res = await fetch(link, { method: 'POST', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e' }, body: new FormData(), redirect: 'manual' });
	return { status: res.status, body: await res.text() };
}

interface Review {
	executionId: string;
	message: string;
	approve: string;
	decline: string;
}

/** Starts a run with the prompt; waits for the review request to reach the reviewer and the execution to wait. */
async function startAndAwaitReview(tools: E2eTools, rest: RestClient, sandbox: Sandbox, n8nUrl: string, workflowId: string, path: string, prompt: string): Promise<Review> {
	const before = sendTexts(sandbox, REVIEWER).length;
	// Publication runs in the background: the webhook answers 404 until it is served (a 404 starts nothing).
	await tools.waitFor('the production webhook', async () => {
		const res = await request('POST', `${n8nUrl}/webhook/${path}`, { prompt });
		return res.status === 200 ? res : undefined;
	}, 15000);
	const message = await tools.waitFor('the review request to the reviewer', () => sendTexts(sandbox, REVIEWER).slice(before)[0]?.body?.text as string | undefined, 30000);
	const execution = await tools.waitFor('the execution waiting', async () => {
		const newest = await newestExecution(rest, workflowId);
		return newest?.status === 'waiting' ? newest : undefined;
	}, 15000);
	const links = [...message.matchAll(WAITING_LINK)].map((m) => m[0]);
	return { executionId: execution.id, message, approve: links.find((l) => /approved=true/.test(l)) ?? '', decline: links.find((l) => /approved=false/.test(l)) ?? '' };
}

async function finished(tools: E2eTools, rest: RestClient, executionId: string): Promise<any> {
	const full = await tools.waitFor(`execution ${executionId} finished`, async () => {
		const got = await rest.call('GET', `/executions/${executionId}`);
		return got.status === 'success' || got.status === 'error' || got.status === 'crashed' ? got : undefined;
	}, 30000);
	return { status: full.status, raw: typeof full.data === 'string' ? full.data : JSON.stringify(full.data), data: typeof full.data === 'string' ? unflatten(full.data) : full.data };
}

/** The message the reviewer gets: the text, then the approve and decline links as the node writes them. */
function withLinks(text: string, review: Review): string {
	return `${text}\n\n*✓ Approve:*\n${review.approve}\n\n*✗ Decline:*\n${review.decline}`;
}

const agentOutput = (run: any): unknown => run.data?.resultData?.runData?.['AI Agent']?.slice(-1)[0]?.data?.main?.[0]?.[0]?.json?.output;

export async function agentReviewChecks(tools: E2eTools, rest: RestClient, n8nUrl: string): Promise<void> {
	if (majorOf(tools.version) < 2) {
		console.log(`e2e: (w) not run on n8n ${tools.version}: Human-in-the-Loop tools came with n8n 2.x`);
		return;
	}
	const started = Date.now();
	const openAiKey = `sk-e2e-${randomBytes(12).toString('hex')}`;
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }] });
	const model = await startModelServer(reviewScript, await freePort());
	const suffix = randomBytes(4).toString('hex');
	const edited = { path: `agent-review-${suffix}`, id: '' };
	const unedited = { path: `agent-review-default-${suffix}`, id: '' };
	/** The stored data of every finished run, to look for secrets in. */
	const runs: string[] = [];
	try {
		const messaging = String((await rest.call('POST', '/credentials', { name: MESSAGING_CREDENTIAL, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } })).id);
		const openAi = String((await rest.call('POST', '/credentials', { name: MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: openAiKey, url: model.url, header: false } })).id);
		for (const [workflow, message] of [[edited, REVIEW_MESSAGE], [unedited, undefined]] as const) {
			const spec = reviewWorkflow(tools.version, workflow.path, { openAi, messaging }, message);
			workflow.id = String((await rest.call('POST', '/workflows', { ...spec, active: false, settings: { executionOrder: 'v1' } })).id);
			await rest.activate(workflow.id);
		}

		// --- approved -----------------------------------------------------------------------
		let review: Review | undefined;
		await tools.check('(w) the model calls the gated Send Text: the reviewer gets what it would send and to whom, with approve and decline links; the run waits; nothing sent yet', async () => {
			review = await startAndAwaitReview(tools, rest, sandbox, n8nUrl, edited.id, edited.path, APPROVED.prompt);
			assert.match(review.approve, /\/webhook-waiting\/\d+\/[^?]*\?approved=true&signature=[0-9a-f]{64}$/);
			assert.match(review.decline, /\/webhook-waiting\/\d+\/[^?]*\?approved=false&signature=[0-9a-f]{64}$/);
			assert.equal(review.message, withLinks(`The assistant wants to send this to +55 (11) 98888-0000:\n\n${APPROVED.text}`, review));
			assert.equal(sendTexts(sandbox, CUSTOMER).length, 0, 'Send Text ran before the review');
			// The model is offered Send Text itself, its own arguments nested under toolParameters (the review node adds none).
			const offered = (conversation(model, APPROVED.prompt)[0]?.tools ?? []).map((t) => t.function);
			assert.deepEqual(offered.map((t) => t.name), [TOOL_NAME], 'tools offered');
			const properties = (offered[0].parameters?.properties ?? {}) as Record<string, any>;
			assert.deepEqual(Object.keys(properties).sort(), ['hitlParameters', 'toolParameters']);
			assert.deepEqual(Object.keys(properties.toolParameters?.properties ?? {}).sort(), ['Number', 'Text']);
			assert.deepEqual(properties.hitlParameters?.properties, {});
		});
		if (review) {
			const { executionId, approve } = review;
			await tools.check("(w) approved through the link: the run resumes, Send Text runs once with the model's number and text, the model gets its result and answers", async () => {
				const answered = await post(approve);
				assert.equal(answered.status, 200, answered.body.slice(0, 300));
				const run = await finished(tools, rest, executionId);
				runs.push(run.raw);
				assert.equal(run.status, 'success');
				const sent = sendTexts(sandbox, CUSTOMER);
				assert.equal(sent.length, 1, `Send Text requests: ${JSON.stringify(sent.map((r) => r.body))}`);
				assert.equal(sent[0].body.text, APPROVED.text);
				assert.ok(sent[0].status < 300, `the sandbox answered ${sent[0].status}`);
				const stored = (sandbox.chat as any[]).filter((e) => e.direction === 'out' && String(e.chat).startsWith(CUSTOMER));
				assert.equal(stored.length, 1, `the customer's chat in the sandbox: ${JSON.stringify(stored.map((e) => e.text))}`);
				assert.ok(JSON.stringify(stored[0].body).includes(APPROVED.text), stored[0].text);
				const results = toolMessages(model, APPROVED.prompt);
				assert.equal(results.length, 1, `tool results: ${JSON.stringify(results)}`);
				const [result] = JSON.parse(results[0].content) as any[];
				assert.equal(result?.key?.remoteJid, `${CUSTOMER}@s.whatsapp.net`, `tool result: ${results[0].content.slice(0, 400)}`);
				assert.equal(result?.message?.extendedTextMessage?.text, APPROVED.text);
				assert.equal(agentOutput(run), APPROVED.final);
			});
		}

		// --- declined -----------------------------------------------------------------------
		let second: Review | undefined;
		await tools.check('(w) a second request: the review request goes out and the run waits', async () => {
			second = await startAndAwaitReview(tools, rest, sandbox, n8nUrl, edited.id, edited.path, DECLINED.prompt);
			assert.equal(second.message, withLinks(`The assistant wants to send this to +55 (11) 98888-0000:\n\n${DECLINED.text}`, second));
		});
		if (second) {
			const { executionId, decline } = second;
			await tools.check("(w) declined through the link: the run resumes, nothing is sent, the model gets n8n's rejection text and answers", async () => {
				const answered = await post(decline);
				assert.equal(answered.status, 200, answered.body.slice(0, 300));
				const run = await finished(tools, rest, executionId);
				runs.push(run.raw);
				assert.equal(run.status, 'success');
				assert.equal(sendTexts(sandbox, CUSTOMER).length, 1, 'the declined message was sent');
				assert.equal((sandbox.chat as any[]).filter((e) => e.direction === 'out' && String(e.chat).startsWith(CUSTOMER)).length, 1, 'the declined text reached the customer');
				const results = toolMessages(model, DECLINED.prompt);
				assert.equal(results.length, 1, `tool results: ${JSON.stringify(results)}`);
				const [{ id, content }] = results;
				assert.deepEqual(JSON.parse(content), [
					{
						output: `User rejected the tool call to ${TOOL_NODE} (id: ${id}). STOP what you are doing and wait for the user to tell you how to proceed. The tool is still available if needed.`,
					},
				]);
				assert.equal(agentOutput(run), DECLINED.final);
			});
		}

		// --- n8n's default message ----------------------------------------------------------
		await tools.check("(w) with the review node's Message left empty, n8n's default names the tool but not the arguments; declined, nothing is sent", async () => {
			const third = await startAndAwaitReview(tools, rest, sandbox, n8nUrl, unedited.id, unedited.path, UNEDITED.prompt);
			assert.ok(third.message.startsWith(DEFAULT_MESSAGE_START), third.message);
			const shown = third.message.slice(DEFAULT_MESSAGE_START.length).split('\n\n*✓ Approve:*')[0];
			// n8n renders `{{ $tool.parameters }}` (an object) as "[object Object]": neither the number nor the text show.
			assert.ok(!shown.includes(UNEDITED.text), `n8n's default message now shows the arguments (${shown}): the README can say so`);
			assert.equal(third.message, withLinks(`${DEFAULT_MESSAGE_START}${shown}`, third));
			const answered = await post(third.decline);
			assert.equal(answered.status, 200, answered.body.slice(0, 300));
			const run = await finished(tools, rest, third.executionId);
			runs.push(run.raw);
			assert.equal(run.status, 'success');
			assert.equal(sendTexts(sandbox, CUSTOMER).length, 1, 'the declined message was sent');
			assert.equal(agentOutput(run), UNEDITED.final);
		});

		await tools.check('(w) the model server saw no messaging API key or instance token (the OpenAI key only in Authorization); no secret in the stored runs', () => {
			assert.ok(model.chats().length >= 6, `the model was asked ${model.chats().length} times`);
			const token = sandbox.instanceToken('demo');
			for (const r of model.requests) {
				const everything = `${JSON.stringify(r.headers)}\n${r.raw}`;
				assert.ok(!everything.includes(sandbox.apiKey), `the messaging API key reached the model (${r.method} ${r.path})`);
				assert.ok(!everything.includes(token), 'the instance token reached the model');
				assert.ok(!r.raw.includes(openAiKey), 'the OpenAI key is in a request body');
				assert.equal(r.headers.authorization, `Bearer ${openAiKey}`);
			}
			assert.equal(runs.length, 3, 'not every run was read back');
			for (const raw of runs) {
				assert.ok(raw.includes(REVIEW_NODE), 'no run data to look into');
				for (const secret of [sandbox.apiKey, token, openAiKey]) assert.ok(!raw.includes(secret), 'a secret is in a stored run');
			}
		});
	} finally {
		for (const workflow of [edited, unedited]) if (workflow.id) await rest.deactivate(workflow.id).catch(() => undefined);
		await model.close();
		await sandbox.close();
		console.log(`e2e: (w) took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}
}

if (require.main === module) void runAlone('agent-review', (tools, rest, n8nUrl) => agentReviewChecks(tools, rest, n8nUrl));
