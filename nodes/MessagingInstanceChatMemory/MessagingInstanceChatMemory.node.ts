import type { INodeType, INodeTypeDescription, ISupplyDataFunctions, SupplyData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AI_MEMORY, NO_INPUTS } from '../shared/connections';
import { inputError } from '../shared/errors';
import { searchInstances } from '../shared/pickers';
import { CURRENT_MESSAGES_EXPRESSION, MAX_INTERACTIONS, memoryProperties } from './description';
import { readTurns, type MemorySettings } from './history';
import codexFile from './MessagingInstanceChatMemory.node.json';

/** The longest chat JID or message id taken; no server has longer ones. */
const MAX_ID_CHARS = 256;
/** The most current messages a run names (a burst is a few). */
const MAX_CURRENT = 100;

/** A parameter's text: a string, or the value of a picker (`{ mode, value }`). */
function parameterText(value: unknown): string {
	const inner = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { value?: unknown }).value : value;
	return typeof inner === 'string' || typeof inner === 'number' ? String(inner).trim() : '';
}

function isId(text: string): boolean {
	return text.length <= MAX_ID_CHARS && !/[\s\u0000-\u001f\u007f]/.test(text);
}

/** The node's parameters for one item, checked before anything is asked. */
function settingsOf(ctx: ISupplyDataFunctions, itemIndex: number): MemorySettings {
	const node = ctx.getNode();
	const instance = parameterText(ctx.getNodeParameter('instance', itemIndex, ''));
	if (instance === '') throw inputError(node, itemIndex, 'Instance', 'is required', 'Pick the instance from the list, or give its name.');
	const rawChat = parameterText(ctx.getNodeParameter('chatId', itemIndex, ''));
	const chatId = /^\d+$/.test(rawChat) ? `${rawChat}@s.whatsapp.net` : rawChat;
	if (chatId === '' || !isId(chatId) || !chatId.includes('@')) {
		throw inputError(node, itemIndex, 'Chat ID', chatId === '' ? 'is required' : 'is not a chat JID', 'Use the trigger\'s or Collect Burst\'s {{ $json.chatId }}: a group (…@g.us) or a contact (…@s.whatsapp.net).');
	}
	const interactions = ctx.getNodeParameter('contextWindowLength', itemIndex, 5) as unknown;
	if (typeof interactions !== 'number' || !Number.isInteger(interactions) || interactions < 1 || interactions > MAX_INTERACTIONS) {
		throw inputError(node, itemIndex, 'Context Window Length', `must be a whole number from 1 to ${MAX_INTERACTIONS}`);
	}
	const options = ctx.getNodeParameter('options', itemIndex, {}) as { currentMessageIds?: unknown };
	const given = 'currentMessageIds' in options ? options.currentMessageIds : ctx.evaluateExpression(CURRENT_MESSAGES_EXPRESSION, itemIndex);
	return { instance, chatId, interactions, current: currentIds(ctx, itemIndex, given) };
}

/** The current message IDs: a list, or a text of IDs separated by commas or spaces; none is allowed (the whole chat is history). */
function currentIds(ctx: ISupplyDataFunctions, itemIndex: number, given: unknown): Set<string> {
	const list = Array.isArray(given) ? given : typeof given === 'string' ? given.split(/[\s,]+/) : given === undefined || given === null ? [] : [given];
	const ids = list.map((id) => (typeof id === 'string' ? id.trim() : id)).filter((id) => id !== '');
	const bad = ids.find((id) => typeof id !== 'string' || !isId(id));
	if (bad !== undefined || ids.length > MAX_CURRENT) {
		throw inputError(
			ctx.getNode(),
			itemIndex,
			'Current Message IDs',
			ids.length > MAX_CURRENT ? `names ${ids.length} messages, more than ${MAX_CURRENT}` : 'holds something that is not a message ID',
			'Leave the option out (Collect Burst\'s messages or the trigger\'s messageId are used), or map {{ $json.messageId }}.',
		);
	}
	return new Set(ids as string[]);
}

export class MessagingInstanceChatMemory implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Instance Chat Memory',
		name: 'messagingInstanceChatMemory',
		icon: {
			light: 'file:messagingInstanceChatMemory.svg',
			dark: 'file:messagingInstanceChatMemory.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ "Chat: " + $parameter["chatId"] }}',
		description: 'Give an AI agent the chat\'s history as the messaging server stored it, with no database of its own',
		defaults: { name: 'Messaging Instance Chat Memory' },
		// In the description, not only beside it: n8n reads a node's codex from its description
		// first, and this is what lists the node under AI → Memory in the node creator.
		codex: { categories: codexFile.categories, subcategories: codexFile.subcategories, alias: codexFile.alias, resources: codexFile.resources },
		inputs: NO_INPUTS,
		outputs: AI_MEMORY,
		outputNames: ['Memory'],
		credentials: [{ name: 'messagingInstanceApi', required: true }],
		// A memory is plugged into the agent, never called by it: no tool variant. (Said here
		// because the lint rule tells AI-only nodes by literal input/output lists, and these are named ones.)
		usableAsTool: undefined,
		properties: memoryProperties,
	};

	methods = {
		listSearch: { searchInstances },
	};

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const settings = settingsOf(this, itemIndex);
		let sdk: typeof import('./serverMemory');
		try {
			// Loaded here, not with the node: n8n 1.x has no AI node SDK, and the package's other nodes must load there.
			sdk = await import('./serverMemory');
		} catch {
			throw new NodeOperationError(this.getNode(), 'The chat memory needs n8n\'s AI node SDK (@n8n/ai-node-sdk), which this n8n does not ship: it is tested with n8n 2.40.7 and 2.41.1', {
				itemIndex,
				description: 'Update n8n, or use one of n8n\'s own memory nodes. The Messaging Instance action node and trigger work on this n8n.',
			});
		}
		return sdk.chatMemory(this, settings.interactions, async () => await readTurns(this, itemIndex, settings));
	}
}
