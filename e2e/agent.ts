/**
 * (l) An AI agent calls the node: n8n's AI Agent with an OpenAI Chat Model pointed at a
 * scripted model server on loopback (e2e/modelServer.ts, no network) uses the Messaging
 * Instance tool (`messagingInstanceTool`, Send Text, Number and Text filled by the model with
 * `$fromAI`) against the v2 sandbox. Two requests run in one workflow: one the model sends
 * correctly, one with a number that is not a phone number, whose error must come back to the
 * model as text it can act on.
 *
 *   tsx e2e/agent.ts [version]   runs (l) alone: packs, installs into a temp user folder,
 *                                starts a v2 sandbox (used while writing it, and for 1.x)
 *
 * E2E_AGENT_DUMP=<file.json> writes every request the model server received (what the model saw).
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import {
	PACKAGE_NAME,
	executeWorkflow,
	freePort,
	importCredentials,
	importWorkflows,
	majorOf,
	nodeOutputs,
	type WorkflowSpec,
} from '../scripts/n8n-runtime';
import { credentialRef } from '../scripts/demo-workflow';
import { startModelServer, textOf, MODEL_ID, type ChatRequest, type ModelServer, type OfferedTool, type Turn } from './modelServer';
import { bodyWithoutMessageId } from './everyOperation';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

export const TOOL_TYPE = `${PACKAGE_NAME}.messagingInstanceTool`;
/** The name n8n's editor gives a new Send Text tool node (NodeHelpers.makeNodeName: the action + " in " + the node's name). */
export const TOOL_NODE = 'Send a text message in Messaging Instance';
/** What the model sees: n8n turns the node's name into the tool's name (nodeNameToToolName). */
export const TOOL_NAME = 'Send_a_text_message_in_Messaging_Instance';
/** n8n's automatic tool description (Tool Description: Set Automatically) for Send Text. */
export const TOOL_DESCRIPTION = 'Send a text message in Messaging Instance';

/**
 * What each user asks and what the scripted model does about it: call the tool with these
 * arguments, then answer after the tool's result. The second number has no digits to send.
 */
const GOOD = {
	prompt: 'Tell Ana, +55 (11) 98888-0000, that her order 1042 has shipped.',
	number: '+55 (11) 98888-0000',
	text: 'Hi Ana, your order 1042 has shipped.',
	final: 'Done: I told Ana that order 1042 has shipped.',
};
const BAD = {
	prompt: 'Tell Bruno the meeting moved to 3 pm; his number is on his business card.',
	number: 'on his business card',
	text: 'Hi Bruno, the meeting moved to 3 pm.',
	final: 'I could not send it: the tool needs Bruno\'s phone number with country code. What is it?',
};
const SCENARIOS = [GOOD, BAD];
/** The hint of a wrong number (ItemParameters.checkRecipient), which a tool's error message carries. */
const NUMBER_HINT = 'Enter the number with country code, e.g. +55 11 99999-0000, or a JID such as 5511999990000@s.whatsapp.net.';

/** The parameter keys `$fromAI` gives the model, as the editor's "let the model define this" button writes them. */
export const fromAI = (key: string) => `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, 'string') }}`;

/**
 * The scripted model: the first turn of a conversation calls the Send Text tool it finds in
 * `tools` (by name), with arguments under the schema's own keys; once a tool result is in the
 * messages, it gives the final answer.
 */
export function agentScript(request: ChatRequest): Turn {
	const user = request.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n');
	const scenario = SCENARIOS.find((s) => user.includes(s.prompt));
	if (!scenario) throw new Error(`no scenario for the user message ${JSON.stringify(user.slice(0, 200))}`);
	if (request.messages.some((m) => m.role === 'tool')) return { content: scenario.final };
	const tools = (request.tools ?? []).map((t) => t.function);
	const tool = tools.find((t) => t.name === TOOL_NAME);
	if (!tool) throw new Error(`no tool ${TOOL_NAME} among ${JSON.stringify(tools.map((t) => t.name))}`);
	const keys = Object.keys(tool.parameters?.properties ?? {});
	const numberKey = keys.find((k) => /number|phone|recipient/i.test(k));
	const textKey = keys.find((k) => /text|message/i.test(k));
	if (!numberKey || !textKey) throw new Error(`the tool's schema has no number/text keys: ${JSON.stringify(keys)}`);
	return { tool: tool.name, args: { [numberKey]: scenario.number, [textKey]: scenario.text } };
}

/** One node of a workflow, as n8n's import and REST take it. */
export type SpecNode = Record<string, unknown>;

/** n8n's AI Agent as the editor adds it, its prompt taken from `text` (an expression). */
export function agentNode(version: string, text: string, position: [number, number]): SpecNode {
	return {
		id: 'agent',
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		// what the editor adds: 3.1 on n8n 2.x, 3 on 1.x (which has no 3.1)
		typeVersion: majorOf(version) >= 2 ? 3.1 : 3,
		position,
		parameters: { promptType: 'define', text, options: {} },
	};
}

/** The OpenAI Chat Model pointed (by its credential's Base URL) at the scripted model server. */
export function modelNode(credId: string, credName: string, position: [number, number]): SpecNode {
	return {
		id: 'model',
		name: 'OpenAI Chat Model',
		type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		typeVersion: 1.3,
		position,
		credentials: { openAiApi: { id: credId, name: credName } },
		// An OpenAI-compatible server speaks chat completions: "Use Responses API" off.
		parameters: { model: { __rl: true, mode: 'id', value: MODEL_ID }, responsesApiEnabled: false, options: {} },
	};
}

/** The Send Text tool node as the editor names it, Number and Text left to the model. */
export function sendTextToolNode(credId: string, credName: string, position: [number, number]): SpecNode {
	return {
		id: 'tool',
		name: TOOL_NODE,
		type: TOOL_TYPE,
		typeVersion: 2,
		position,
		credentials: credentialRef(credId, credName),
		parameters: {
			resource: 'message',
			operation: 'sendText',
			instance: { __rl: true, mode: 'list', value: 'demo' },
			number: fromAI('Number'),
			text: fromAI('Text'),
			options: {},
		},
	};
}

export function agentWorkflow(version: string, credIds: { openAi: string; messaging: string }): WorkflowSpec {
	const requests = SCENARIOS.map((s) => ({ prompt: s.prompt }));
	return {
		name: 'e2e (l): an AI agent sends a message',
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'requests', name: 'Requests', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0], parameters: { mode: 'raw', jsonOutput: JSON.stringify({ requests }), options: {} } },
			{ id: 'split', name: 'One Per Request', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: 'requests', options: {} } },
			agentNode(version, '={{ $json.prompt }}', [600, 0]),
			modelNode(credIds.openAi, 'Scripted model (e2e)', [500, 200]),
			{
				...sendTextToolNode(credIds.messaging, 'Sandbox v2 (agent)', [700, 200]),
				// n8n 2.x hands a failing tool's error to the agent by default; 1.x stops the whole
				// run instead unless the tool node's On Error is "Continue" (then the error item goes).
				...(majorOf(version) >= 2 ? {} : { onError: 'continueRegularOutput' }),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Requests', type: 'main', index: 0 }]] },
			Requests: { main: [[{ node: 'One Per Request', type: 'main', index: 0 }]] },
			'One Per Request': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			[TOOL_NODE]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

/** The chat requests of one conversation (by its user message), in order. */
function conversation(model: ModelServer, prompt: string): ChatRequest[] {
	return model
		.chats()
		.map((r) => r.body!)
		.filter((body) => body.messages.some((m) => m.role === 'user' && textOf(m.content).includes(prompt)));
}

/** The tool results (role `tool`) the agent sent back to the model in a conversation. */
function toolResults(model: ModelServer, prompt: string): string[] {
	const requests = conversation(model, prompt);
	const last = requests[requests.length - 1];
	return (last?.messages ?? []).filter((m) => m.role === 'tool').map((m) => textOf(m.content));
}

/** (l): the model server, the credentials and the workflow, one `n8n execute`, and what each side saw. */
export async function agentChecks(tools: E2eTools, sandbox: Sandbox): Promise<void> {
	const started = Date.now();
	const openAiKey = `sk-e2e-${randomBytes(12).toString('hex')}`;
	const model = await startModelServer(agentScript, await freePort());
	try {
		const [openAi, messaging] = await importCredentials(tools.userFolder, [
			{ name: 'Scripted model (e2e)', type: 'openAiApi', data: { apiKey: openAiKey, url: model.url, header: false } },
			{ name: 'Sandbox v2 (agent)', type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } },
		]);
		const [id] = await importWorkflows(tools.userFolder, [agentWorkflow(tools.version, { openAi, messaging })]);
		const sentBefore = sendTexts(sandbox).length;
		const result = await executeWorkflow(tools.userFolder, id, tools.version);
		const sent = sendTexts(sandbox).slice(sentBefore);
		const outputs = nodeOutputs(result.data);

		await tools.check('(l) an AI Agent with an OpenAI Chat Model (scripted server on loopback) runs a workflow with the Send Text tool (exit 0)', () => {
			if (!result.ok) {
				const error = result.data?.data?.resultData?.error ?? result.data?.resultData?.error;
				throw new Error(`exit ${result.code}: ${error ? `${error.node?.name ?? ''} ${error.message} ${error.description ?? ''}` : result.stdout.slice(-2000)}`);
			}
			assert.ok(model.chats().length >= 4, `the model was asked ${model.chats().length} times, expected 4 (two conversations, two turns each)`);
		});

		await tools.check(`(l) the model is offered the tool "${TOOL_NAME}", described "${TOOL_DESCRIPTION}", with the string parameters Number and Text`, () => {
			const first = conversation(model, GOOD.prompt)[0];
			assert.ok(first, 'the model was never asked about the first request');
			const offered: OfferedTool[] = (first.tools ?? []).map((t) => t.function);
			assert.deepEqual(offered.map((t) => t.name), [TOOL_NAME], 'tools offered');
			const tool = offered[0];
			assert.equal(tool.description, TOOL_DESCRIPTION);
			assert.deepEqual(Object.keys(tool.parameters?.properties ?? {}).sort(), ['Number', 'Text']);
			for (const key of ['Number', 'Text']) assert.equal(tool.parameters?.properties?.[key]?.type, 'string', `${key} type`);
			assert.deepEqual([...(tool.parameters?.required ?? [])].sort(), ['Number', 'Text'], 'required');
		});

		await tools.check("(l) the model's tool call reaches the sandbox: exactly one Send Text, with the model's number (as digits) and text", () => {
			assert.equal(sent.length, 1, `sendText requests: ${JSON.stringify(sent.map((r: any) => r.body))}`);
			assert.deepEqual(bodyWithoutMessageId('/message/sendText/demo', sent[0].body), { number: '5511988880000', text: GOOD.text });
			assert.ok(sent[0].status < 300, `the sandbox answered ${sent[0].status}`);
			const stored = (sandbox.chat as any[]).filter((e) => JSON.stringify(e).includes(GOOD.text));
			assert.ok(stored.length >= 1, 'the message is not in the sandbox chat');
		});

		await tools.check("(l) the tool's result goes back to the model, and the agent outputs the model's final answer", () => {
			const results = toolResults(model, GOOD.prompt);
			assert.equal(results.length, 1, `tool results: ${JSON.stringify(results)}`);
			assert.ok(/5511988880000/.test(results[0]) && !/"error"/i.test(results[0]), `tool result: ${results[0].slice(0, 400)}`);
			const items = outputs['AI Agent'] ?? [];
			assert.equal(items.length, 2, `AI Agent output ${JSON.stringify(items).slice(0, 400)}`);
			assert.equal(items[0].json?.output, GOOD.final);
		});

		await tools.check('(l) an input error comes back to the model as text naming the field (no stack trace), nothing is sent, the agent answers', () => {
			const results = toolResults(model, BAD.prompt);
			assert.equal(results.length, 1, `tool results: ${JSON.stringify(results)}`);
			const text = results[0];
			// n8n sends the tool's error as JSON: [{"error": "<the node's message>"}]
			const error = errorOf(text);
			assert.equal(error, `"Number" has no digits ("${BAD.number}") [item 0]. ${NUMBER_HINT}`, `tool result: ${text.slice(0, 600)}`);
			assert.ok(!/\n\s+at |\\n\s+at |NodeOperationError|node_modules/.test(text), `stack trace or internals in: ${text.slice(0, 600)}`);
			assert.ok(!sent.some((r: any) => r.body?.text === BAD.text), 'the bad request was sent');
			assert.equal(outputs['AI Agent']?.[1]?.json?.output, BAD.final);
		});

		await tools.check('(l) the model server saw no messaging API key or instance token, and the OpenAI key only in the Authorization header', () => {
			for (const request of model.requests) {
				const everything = `${JSON.stringify(request.headers)}\n${request.raw}`;
				assert.ok(!everything.includes(sandbox.apiKey), `the messaging API key reached the model (${request.method} ${request.path})`);
				assert.ok(!everything.includes(sandbox.instanceToken('demo')), 'the instance token reached the model');
				assert.ok(!request.raw.includes(openAiKey), 'the OpenAI key is in a request body');
				assert.equal(request.headers.authorization, `Bearer ${openAiKey}`);
			}
		});
	} finally {
		if (process.env.E2E_AGENT_DUMP) {
			// what the model server received, for reading (the key shown as <redacted>)
			const fs = await import('node:fs');
			fs.writeFileSync(process.env.E2E_AGENT_DUMP, JSON.stringify(model.requests, null, 2).split(openAiKey).join('<redacted>'));
			console.log(`e2e: (l) model server requests written to ${process.env.E2E_AGENT_DUMP}`);
		}
		await model.close();
		console.log(`e2e: (l) took ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}
}

/** The `error` of a tool result n8n sent as JSON (`[{"error": …}]` or `{"error": …}`), else the text itself. */
function errorOf(text: string): string {
	try {
		const parsed = JSON.parse(text);
		const first = Array.isArray(parsed) ? parsed[0] : parsed;
		if (typeof first?.error === 'string') return first.error;
	} catch {
		/* plain text */
	}
	return text;
}

function sendTexts(sandbox: Sandbox): any[] {
	return (sandbox.requests as any[]).filter((r) => r.path === '/message/sendText/demo' && r.method === 'POST');
}

/** `tsx e2e/agent.ts [version]`: (l) alone, on a fresh user folder and a fresh v2 sandbox. */
async function standalone(version: string): Promise<void> {
	const fs = await import('node:fs');
	const os = await import('node:os');
	const path = await import('node:path');
	const { ensureN8n, installTarballIntoUserFolder, packRepo } = await import('../scripts/n8n-runtime');
	await ensureN8n(version);
	const tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-agent-'));
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }] });
	const { Report } = await import('./report');
	const report = new Report('agent');
	const tools: E2eTools = {
		version,
		userFolder,
		waitFor: () => Promise.reject(new Error('not used')),
		check: (name, fn) => report.check(name, fn),
	};
	try {
		await installTarballIntoUserFolder(tarball, userFolder);
		await agentChecks(tools, sandbox);
	} finally {
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
