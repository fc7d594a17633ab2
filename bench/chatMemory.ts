/**
 * Part 8: what the chat memory costs per agent turn, beside n8n's Simple Memory. Both run the
 * same way through n8n-core (an agent node asks n8n for its memory, n8n resolves the memory's
 * parameters against the agent's input item and calls its supplyData, the agent loads the
 * history): ours reads the chat from a 2.3.7 sandbox (Find Messages), Simple Memory's core (a
 * LangChain BufferWindowMemory over a chat history held in n8n's process, as n8n's node keeps
 * it) holds the same conversation already. Same window (5 interactions), same chat (20
 * interactions before the turn); turns interleaved, medians.
 *
 *   tsx bench/chatMemory.ts   runs part 8 alone (BENCH_ROUNDS turns of each, default 5 → at least 20)
 */
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeParameters, INodeType, IWorkflowExecuteAdditionalData, SupplyData } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/server';
import { BenchCredentials, mapNodeSources } from './nodeRun';
import { envInt, fmt, fmtRatio, log, median, table } from './util';
import { useAiSdk } from '../scripts/aiSdk';

const INTERACTIONS = 20;
const WINDOW = 5;
const CONTACT = '5511922220000';
const CHAT = `${CONTACT}@s.whatsapp.net`;

// n8n's AI node SDK and its langchain come from `.ai-sdk/` (scripts/aiSdk.ts), as n8n's own module folder provides them inside n8n.
useAiSdk();
interface InProcessHistory {
	addUserMessage(text: string): Promise<void>;
	addAIMessage(text: string): Promise<void>;
}
const { BufferWindowMemory } = require('@langchain/classic/memory') as { BufferWindowMemory: new (options: object) => object };
const { ChatMessageHistory } = require('@langchain/classic/stores/message/in_memory') as { ChatMessageHistory: new () => InProcessHistory };

/** n8n's Simple Memory, reduced to what it does per turn: a window over a history held in the process. */
const history = new ChatMessageHistory();
class SimpleMemory implements INodeType {
	description = {
		displayName: 'Simple Memory',
		name: 'simpleMemory',
		group: ['transform'],
		version: 1,
		description: 'n8n Simple Memory core',
		defaults: { name: 'Simple Memory' },
		inputs: [],
		outputs: ['ai_memory'],
		properties: [],
	} as unknown as INodeType['description'];

	async supplyData(): Promise<SupplyData> {
		return { response: new BufferWindowMemory({ k: WINDOW, chatHistory: history, returnMessages: true, inputKey: 'input', outputKey: 'output', memoryKey: 'chat_history' }) };
	}
}

interface LangchainMemory {
	loadMemoryVariables(values: IDataObject): Promise<{ chat_history: unknown[] }>;
}

/** The agent's side of a turn: ask n8n for the memory, load the history (what n8n's AI Agent does before it calls the model). */
class LoadingAgent implements INodeType {
	description = {
		displayName: 'Agent',
		name: 'agent',
		group: ['transform'],
		version: 1,
		description: 'Loads its memory',
		defaults: { name: 'Agent' },
		inputs: ['main', { type: 'ai_memory', required: true, maxConnections: 1 }],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const memory = (await this.getInputConnectionData(NodeConnectionTypes.AiMemory, 0)) as LangchainMemory;
		const history = (await memory.loadMemoryVariables({})).chat_history;
		return [[{ json: { turns: history.length }, pairedItem: { item: 0 } }]];
	}
}

/** One agent turn through n8n-core: the agent node with the memory on its `ai_memory` input, the input item the trigger's. */
async function agentTurn(memory: { type: INodeType; parameters: INodeParameters }, item: IDataObject, credentials: ICredentialDataDecryptedObject): Promise<{ turns: number; error?: string }> {
	mapNodeSources();
	const { MessagingInstanceApi } = require('../credentials/MessagingInstanceApi.credentials') as typeof import('../credentials/MessagingInstanceApi.credentials');
	const agentType = new LoadingAgent();
	const agent: INode = { id: 'agent', name: 'AI Agent', type: 'bench.agent', typeVersion: 1, position: [0, 0], parameters: {} };
	const memoryNode: INode = { id: 'memory', name: 'Memory', type: 'bench.memory', typeVersion: 1, position: [0, 200], parameters: memory.parameters, credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Bench' } } };
	const types: Record<string, INodeType> = { 'bench.agent': agentType, 'bench.memory': memory.type };
	const workflow = new Workflow({
		id: 'wf-bench',
		name: 'bench',
		nodes: [agent, memoryNode],
		connections: { Memory: { ai_memory: [[{ node: 'AI Agent', type: 'ai_memory', index: 0 }]] } },
		active: false,
		nodeTypes: { getByName: (name: string) => types[name], getByNameAndVersion: (name: string) => types[name], getKnownTypes: () => ({}) },
		settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'bench-1', { id: workflow.id, name: workflow.name, nodes: [agent, memoryNode], connections: {} } as never);
	const additionalData = {
		credentialsHelper: new BenchCredentials(credentials, new MessagingInstanceApi().authenticate),
		hooks,
		executionId: 'bench-1',
		userId: 'bench',
		variables: {},
		logAiEvent: () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
	const runData = createRunExecutionData({ executionData: { nodeExecutionStack: [{ node: agent, data: { main: [[{ json: item }]] }, source: null }] } });
	const run = await new WorkflowExecute(additionalData, 'manual', runData).processRunExecutionData(workflow);
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
	const error = run.data.resultData.error;
	const output = run.data.resultData.runData['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json as { turns?: number } | undefined;
	return { turns: output?.turns ?? 0, error: error ? `${error.message} ${error.description ?? ''}` : undefined };
}

async function say(sandbox: Sandbox, text: string): Promise<void> {
	const answer = await fetch(`${sandbox.url}/message/sendText/demo`, { method: 'POST', headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ number: CONTACT, text }) });
	if (answer.status !== 201) throw new Error(`sendText: ${answer.status}`);
}

interface Measure {
	ms: number;
	requests: number;
	turns: number;
}

async function turnOf(sandbox: Sandbox, memory: { type: INodeType; parameters: INodeParameters }): Promise<Measure> {
	const before = sandbox.requests.length;
	const started = performance.now();
	const run = await agentTurn(memory, { chatId: CHAT, messageId: 'NOW' }, { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' });
	const ms = performance.now() - started;
	if (run.error) throw new Error(`${memory.type.description.displayName}: ${run.error}`);
	return { ms, requests: sandbox.requests.length - before, turns: run.turns };
}

export async function chatMemoryBench(rounds: number, out: string[]): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }] });
	const ours: Measure[] = [];
	const simple: Measure[] = [];
	try {
		for (let i = 1; i <= INTERACTIONS; i++) {
			await sandbox.injectMessage('demo', { from: CONTACT, id: `Q${i}`, text: `question ${i} about the order` });
			await say(sandbox, `answer ${i}: it ships on Friday`);
			await history.addUserMessage(`question ${i} about the order`);
			await history.addAIMessage(`answer ${i}: it ships on Friday`);
		}
		await sandbox.injectMessage('demo', { from: CONTACT, id: 'NOW', text: 'and the invoice?' });
		mapNodeSources();
		const { MessagingInstanceChatMemory } = require('../nodes/MessagingInstanceChatMemory/MessagingInstanceChatMemory.node') as typeof import('../nodes/MessagingInstanceChatMemory/MessagingInstanceChatMemory.node');
		const chatMemory = { type: new MessagingInstanceChatMemory(), parameters: { instance: { __rl: true, mode: 'list', value: 'demo' }, contextWindowLength: WINDOW } };
		const simpleMemory = { type: new SimpleMemory(), parameters: {} };
		const turns = Math.max(rounds * 4, 20);
		// Warm-up: the first run of each loads modules and builds n8n's contexts.
		await turnOf(sandbox, chatMemory);
		await turnOf(sandbox, simpleMemory);
		for (let t = 0; t < turns; t++) {
			ours.push(await turnOf(sandbox, chatMemory));
			simple.push(await turnOf(sandbox, simpleMemory));
		}
		log(`chat memory: ${turns} turns of each done`);
	} finally {
		await sandbox.close();
	}
	const oursMs = median(ours.map((m) => m.ms));
	const simpleMs = median(simple.map((m) => m.ms));
	out.push(
		'## 8. The chat memory: cost per agent turn, beside Simple Memory',
		'',
		`One chat of ${INTERACTIONS} interactions, Context Window Length ${WINDOW}; each turn is an n8n-core run of an agent node that asks for its memory and loads it ` +
			`(the same run for both); medians of ${ours.length} turns each, interleaved. The sandbox answers in this process.`,
		'',
		table(
			['per agent turn', 'requests', 'ms', 'vs Simple Memory', 'turns given'],
			[
				['Messaging Instance Chat Memory (reads the chat: Find Messages)', fmt(median(ours.map((m) => m.requests)), 2), fmt(oursMs, 1), fmtRatio(oursMs / simpleMs), fmt(median(ours.map((m) => m.turns)))],
				['Simple Memory (a window over a history in n8n\'s process)', fmt(median(simple.map((m) => m.requests)), 2), fmt(simpleMs, 1), '1.00×', fmt(median(simple.map((m) => m.turns)))],
			],
		),
	);
}

if (require.main === module) {
	const out: string[] = [];
	chatMemoryBench(envInt('BENCH_ROUNDS', 5), out).then(
		() => {
			console.log(out.join('\n'));
			process.exit(0);
		},
		(e: Error) => {
			console.error(e.stack ?? e);
			process.exit(1);
		},
	);
}
