import { BaseChatHistory, supplyMemory, WindowedChatMemory, type Message } from '@n8n/ai-node-sdk';
import type { ISupplyDataFunctions, SupplyData } from 'n8n-workflow';

import type { Turn } from './turns';

/**
 * The memory as n8n's AI Agent takes it, built with n8n's AI node SDK. This is the only file
 * that loads the SDK, and the node loads it only when an agent asks for the memory: on an n8n
 * without the SDK (1.x) the package's other nodes load and work, and this node says what it needs.
 */

function messageOf(turn: Turn): Message {
	return { role: turn.role, content: [{ type: 'text', text: turn.text }] };
}

/**
 * The chat as the server stored it, read once per agent run; what the agent saves (its input
 * and answer) is kept for the rest of the run only, so that the agent's later steps see it.
 * Nothing is written to the server: it stores the contact's messages and what the workflow
 * sends, which the next run reads.
 */
class ServerChatHistory extends BaseChatHistory {
	private stored?: Promise<Message[]>;
	private readonly saved: Message[] = [];

	constructor(private readonly read: () => Promise<Turn[]>) {
		super();
	}

	async getMessages(): Promise<Message[]> {
		this.stored ??= this.read().then((turns) => turns.map(messageOf));
		return [...(await this.stored), ...this.saved];
	}

	async addMessage(message: Message): Promise<void> {
		this.saved.push(message);
	}

	async clear(): Promise<void> {
		this.saved.length = 0;
	}
}

/** The memory of one agent run: the last `interactions` exchanges of the chat, then what the run saves. */
export function chatMemory(ctx: ISupplyDataFunctions, interactions: number, read: () => Promise<Turn[]>): SupplyData {
	// The SDK is typed against the n8n-workflow of the n8n that ships it, the node against the
	// package's: the same context and answer, two copies of their types.
	const context = ctx as unknown as Parameters<typeof supplyMemory>[0];
	return supplyMemory(context, new WindowedChatMemory(new ServerChatHistory(read), { windowSize: interactions })) as unknown as SupplyData;
}
