/**
 * The part of n8n's AI node SDK (`@n8n/ai-node-sdk`, 0.30.1 in n8n 2.40.7) the chat memory
 * uses, as the SDK declares it. The SDK is n8n's: an optional peer dependency of the package,
 * loaded only when an agent asks for the memory (serverMemory.ts). It is not a devDependency
 * (scripts/aiSdk.ts says why), so its types are declared here.
 */
declare module '@n8n/ai-node-sdk' {
	import type { ISupplyDataFunctions, SupplyData } from 'n8n-workflow';

	export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';
	export interface ContentText {
		type: 'text';
		text: string;
	}
	/** The SDK has more kinds of content (tool calls, files, reasoning…); the memory writes text only. */
	export type MessageContent = ContentText | { type: string; [field: string]: unknown };
	export interface Message {
		role: MessageRole;
		content: MessageContent[];
		name?: string;
		id?: string;
	}

	export interface ChatHistory {
		getMessages(): Promise<Message[]>;
		addMessage(message: Message): Promise<void>;
		addMessages(messages: Message[]): Promise<void>;
		clear(): Promise<void>;
	}

	export abstract class BaseChatHistory implements ChatHistory {
		abstract getMessages(): Promise<Message[]>;
		abstract addMessage(message: Message): Promise<void>;
		addMessages(messages: Message[]): Promise<void>;
		abstract clear(): Promise<void>;
	}

	export interface ChatMemory {
		loadMessages(): Promise<Message[]>;
		saveTurn(input: string, output: string): Promise<void>;
		clear(): Promise<void>;
		readonly chatHistory: ChatHistory;
	}

	export interface WindowedChatMemoryConfig {
		windowSize?: number;
	}

	export class WindowedChatMemory implements ChatMemory {
		readonly chatHistory: ChatHistory;
		constructor(chatHistory: ChatHistory, config?: WindowedChatMemoryConfig);
		loadMessages(): Promise<Message[]>;
		saveTurn(input: string, output: string): Promise<void>;
		clear(): Promise<void>;
	}

	export interface SupplyMemoryOptions {
		closeFunction?: () => Promise<void>;
	}

	export function supplyMemory(context: ISupplyDataFunctions, memory: ChatMemory, options?: SupplyMemoryOptions): SupplyData;
}
