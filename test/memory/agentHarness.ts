import { WorkflowExecute } from 'n8n-core';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import type { ExecutionError, IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeParameters, INodeType, IRun } from 'n8n-workflow';

import { MessagingInstanceChatMemory } from '../../nodes/MessagingInstanceChatMemory/MessagingInstanceChatMemory.node';
import { additionalDataFor } from '../harness/additionalData';
import { TestCredentialsHelper } from '../harness/credentialsHelper';
import { executionHooks } from '../harness/engine';
import { nodeTypes, PACKAGE, registerNodeType, START_TYPE } from '../harness/nodeTypes';
import { assertNoSecrets, credentialSecrets } from '../harness/secrets';
import type { Sandbox } from '../../sandbox/server';
import { credentialsFor } from '../nodes/helpers';

/**
 * The chat memory as n8n's AI Agent uses it, through n8n-core's own execution: a workflow
 * Start → Agent, the memory connected to the agent's `ai_memory` input. The test agent asks
 * n8n for its memory (getInputConnectionData: n8n resolves the memory's parameters against the
 * agent's input item and calls its supplyData), loads the history as LangChain messages, and
 * when the item says so saves a turn and loads again, as the real agent does after answering.
 */
export const MEMORY_TYPE = `${PACKAGE}.messagingInstanceChatMemory`;
const AGENT_TYPE = 'test.agent';

export interface Turn {
	role: string;
	text: string;
}

interface LangchainMessage {
	getType(): string;
	content: string | Array<{ type: string; text?: string }>;
}
interface LangchainMemory {
	loadMemoryVariables(values: IDataObject): Promise<{ chat_history: LangchainMessage[] }>;
	saveContext(input: IDataObject, output: IDataObject): Promise<void>;
}

function turnOf(message: LangchainMessage): Turn {
	const text = typeof message.content === 'string' ? message.content : message.content.map((block) => block.text ?? '').join('');
	return { role: message.getType() === 'human' ? 'user' : message.getType() === 'ai' ? 'assistant' : message.getType(), text };
}

class TestAgent implements INodeType {
	description = {
		displayName: 'Agent',
		name: 'agent',
		group: ['transform'],
		version: 1,
		description: 'Loads its memory as an AI agent does',
		defaults: { name: 'Agent' },
		inputs: ['main', { type: 'ai_memory', required: true, maxConnections: 1 }],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const memory = (await this.getInputConnectionData(NodeConnectionTypes.AiMemory, itemIndex)) as LangchainMemory;
			const history = (await memory.loadMemoryVariables({})).chat_history.map(turnOf);
			const save = items[itemIndex].json.save as { input: string; output: string } | undefined;
			const json: IDataObject = { history };
			if (save) {
				await memory.saveContext({ input: save.input }, { output: save.output });
				json.afterSave = (await memory.loadMemoryVariables({})).chat_history.map(turnOf);
			}
			output.push({ json, pairedItem: { item: itemIndex } });
		}
		return [output];
	}
}

registerNodeType(AGENT_TYPE, new TestAgent());
registerNodeType(MEMORY_TYPE, new MessagingInstanceChatMemory());

export interface AgentRun {
	/** Per input item: the history the agent loaded (and after a save). */
	items: Array<{ history: Turn[]; afterSave?: Turn[] }>;
	error?: ExecutionError;
	run: IRun;
}

/** The memory's parameters as the editor saves a fresh node with Instance picked: the rest are defaults. */
export const FRESH_MEMORY: INodeParameters = { instance: { __rl: true, mode: 'list', value: 'demo' } };

/** Where the memory's credential points: a sandbox, or any server that answers like one (test/hostile/server.ts). */
export type MemoryServer = Pick<Sandbox, 'url' | 'apiKey' | 'dialect'>;

export async function runAgent(
	sandbox: MemoryServer,
	items: IDataObject[],
	memory: INodeParameters = {},
	credentials: IDataObject = {},
): Promise<AgentRun> {
	const credentialData = { ...credentialsFor(sandbox as Sandbox), ...credentials };
	const credentialsHelper = new TestCredentialsHelper({ messagingInstanceApi: credentialData });
	const start: INode = { id: 'start', name: 'Start', type: START_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(items), files: '[]' } };
	const agent: INode = { id: 'agent', name: 'AI Agent', type: AGENT_TYPE, typeVersion: 1, position: [200, 0], parameters: {} };
	const memoryNode: INode = {
		id: 'memory',
		name: 'Chat Memory',
		type: MEMORY_TYPE,
		typeVersion: 1,
		position: [200, 200],
		parameters: { ...FRESH_MEMORY, ...memory },
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Sandbox' } },
	};
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'memory test',
		nodes: [start, agent, memoryNode],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Chat Memory': { ai_memory: [[{ node: 'AI Agent', type: 'ai_memory', index: 0 }]] },
		},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const { hooks, finished } = executionHooks([start, agent, memoryNode]);
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }] },
	});
	const execute = new WorkflowExecute(additionalDataFor(credentialsHelper, 'http://127.0.0.1:5678', { hooks }), 'manual', runExecutionData);
	await execute.processRunExecutionData(workflow);
	const run = await finished;
	const output = run.data.resultData.runData['AI Agent']?.[0]?.data?.main?.[0] ?? [];
	const error = run.data.resultData.error;
	assertNoSecrets('an agent run with the chat memory', { output, error, 'the stored run': run }, credentialSecrets(credentialData));
	return { items: output.map((item) => item.json as AgentRun['items'][number]), error, run };
}
