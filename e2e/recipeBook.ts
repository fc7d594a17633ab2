/**
 * The usage recipes as a user builds them in n8n's editor: which node they add (from which
 * action), what they set in it, how they connect them. `buildRecipe` turns one into the
 * workflow the editor saves, with n8n's own rules passed in (so the same code runs with the
 * n8n-workflow of the version under test):
 * - a node's name is `NodeHelpers.makeNodeName` of its parameters with defaults (the action's
 *   name, e.g. "Create an instance"; else the type's default name), made unique the editor's
 *   way (`uniqueNodeName`: the base name, then base1, base2, …);
 * - its parameters are `NodeHelpers.getNodeParameters(…, returnDefaults false)`: only what
 *   differs from a fresh node's defaults.
 * The files under docs/recipes/ are these builds (`tsx e2e/recipes.ts write`); the e2e group
 * (e2e/recipes.ts) rebuilds them with the running n8n's rules and node types and compares.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/* eslint-disable @typescript-eslint/no-explicit-any */

export const RECIPE_DIR = path.resolve(__dirname, '..', 'docs', 'recipes');
export const recipePath = (file: string): string => path.join(RECIPE_DIR, `${file}.json`);
/** A recipe file as it is. */
export const readRecipe = (file: string): any => JSON.parse(fs.readFileSync(recipePath(file), 'utf8'));

export const ACTION = 'n8n-nodes-messaging-instance.messagingInstance';
export const TRIGGER = 'n8n-nodes-messaging-instance.messagingInstanceTrigger';
/** The credential names the files refer to (no id: n8n finds a credential of that type and name on import). */
export const SANDBOX_CREDENTIAL = 'Sandbox (dev)';
export const REDIS_CREDENTIAL = 'Redis (queue)';
/** The chat model's credential: the name n8n gives a new OpenAI credential. */
export const OPENAI_CREDENTIAL = 'OpenAi account';
/** The instance of `npm start`'s sandbox, picked from the list as the user picks it. */
export const INSTANCE = { __rl: true, mode: 'list', value: 'demo', cachedResultName: 'demo' };

export interface RecipeNode {
	type: string;
	typeVersion: number;
	/** what the user set: the action's resource and operation, then the fields typed or picked */
	set: Record<string, unknown>;
	credential?: 'messagingInstanceApi' | 'redis' | 'openAiApi';
	/** node settings the user changed (e.g. On Error) */
	settings?: Record<string, unknown>;
}

export interface Recipe {
	/** the file under docs/recipes/, without .json */
	file: string;
	/** the workflow's name */
	name: string;
	nodes: RecipeNode[];
	/** [from, to, output of `from`, connection type (default main; a sub-node's e.g. ai_languageModel)] by index in `nodes` */
	links: Array<[number, number, number?, string?]>;
}

/** n8n's naming and parameter rules (n8n-workflow's NodeHelpers) and the node types they apply to. */
export interface EditorRules {
	makeNodeName(parameters: any, description: any): string;
	getNodeParameters(properties: any[], values: any, returnDefaults: boolean, returnNoneDisplayed: boolean, node: any, description: any): any;
	/** the node type's description for that version (as n8n serves it: full type name) */
	describe(type: string, typeVersion: number): any;
}

/** The editor's unique node name: the name itself when free, else its base with the next free number. */
export function uniqueNodeName(name: string, taken: ReadonlySet<string>): string {
	if (!taken.has(name)) return name;
	const match = /^(.*\D)(\d*)$/.exec(name);
	const base = match ? match[1] : name;
	let n = match && match[2] !== '' ? Number(match[2]) : 1;
	while (taken.has(`${base}${n}`)) n++;
	return `${base}${n}`;
}

/** A stable UUID-shaped id for a node of a recipe, so the files change only when the recipe does. */
function stableId(...parts: Array<string | number>): string {
	const h = createHash('sha256').update(parts.join('/')).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The workflow the editor saves for a recipe, by n8n's rules. */
export function buildRecipe(recipe: Recipe, rules: EditorRules): Record<string, unknown> {
	const taken = new Set<string>();
	const nodes = recipe.nodes.map((step, index) => {
		const description = rules.describe(step.type, step.typeVersion);
		const shell = { typeVersion: step.typeVersion, parameters: {} };
		const withDefaults = rules.getNodeParameters(description.properties, step.set, true, false, shell, description) ?? {};
		const name = uniqueNodeName(rules.makeNodeName(withDefaults, description), taken);
		taken.add(name);
		const saved = rules.getNodeParameters(description.properties, withDefaults, false, false, shell, description) ?? {};
		const node: Record<string, unknown> = {
			parameters: saved,
			type: step.type,
			typeVersion: step.typeVersion,
			position: [index * 220, 0],
			id: stableId(recipe.file, index),
			name,
		};
		// The editor gives every node with webhooks (triggers, Send and Wait) its own webhook id.
		if (description.webhooks?.length) node.webhookId = stableId(recipe.file, index, 'webhook');
		if (step.credential === 'messagingInstanceApi') node.credentials = { messagingInstanceApi: { id: null, name: SANDBOX_CREDENTIAL } };
		if (step.credential === 'redis') node.credentials = { redis: { id: null, name: REDIS_CREDENTIAL } };
		if (step.credential === 'openAiApi') node.credentials = { openAiApi: { id: null, name: OPENAI_CREDENTIAL } };
		Object.assign(node, step.settings ?? {});
		return node;
	});
	const connections: Record<string, Record<string, Array<Array<{ node: string; type: string; index: number }>>>> = {};
	for (const [from, to, output = 0, type = 'main'] of recipe.links) {
		const source = String(nodes[from].name);
		const outputs = ((connections[source] ??= {})[type] ??= []);
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: String(nodes[to].name), type, index: 0 });
	}
	return { name: recipe.name, nodes, connections, active: false, settings: { executionOrder: 'v1' } };
}

/** The node names an expression refers to with `$('…')` or `$node["…"]`. */
export function referencedNodeNames(workflow: { nodes: Array<{ parameters: unknown }> }): string[] {
	const names = new Set<string>();
	const text = JSON.stringify(workflow.nodes.map((n) => n.parameters));
	for (const m of text.matchAll(/\$\(\\?['"]([^'"\\]+)\\?['"]\)|\$node\[\\?['"]([^'"\\]+)\\?['"]\]/g)) names.add(m[1] ?? m[2]);
	return [...names];
}

const IF = 'n8n-nodes-base.if';
const WEBHOOK = 'n8n-nodes-base.webhook';

/** An If node's single condition, as the editor stores it (If 2.3: filter version 3). */
function condition(id: string, leftValue: string, operator: Record<string, unknown>, rightValue: unknown = ''): Record<string, unknown> {
	return {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 3 },
			conditions: [{ id, leftValue, rightValue, operator }],
			combinator: 'and',
		},
		options: {},
	};
}

const echoReply: Recipe = {
	file: 'echo-reply',
	name: 'Reply to every incoming message',
	nodes: [
		{ type: TRIGGER, typeVersion: 3, credential: 'messagingInstanceApi', set: { instance: INSTANCE } },
		{ type: ACTION, typeVersion: 2, credential: 'messagingInstanceApi', set: { resource: 'message', operation: 'sendText', instance: INSTANCE, number: '={{ $json.chatId }}', text: '=You said: {{ $json.text }}' } },
	],
	links: [[0, 1]],
};

const onboarding: Recipe = {
	file: 'onboarding',
	name: 'Onboard a new number',
	nodes: [
		{ type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, set: {} },
		{
			type: ACTION,
			typeVersion: 2,
			credential: 'messagingInstanceApi',
			set: { resource: 'instance', operation: 'create', instanceName: 'shop', integration: 'WHATSAPP-BAILEYS', qrcode: true },
			settings: { onError: 'continueRegularOutput' },
		},
		{
			type: ACTION,
			typeVersion: 2,
			credential: 'messagingInstanceApi',
			set: { resource: 'instance', operation: 'connect', instance: { __rl: true, mode: 'name', value: "={{ $('Create an instance').params.instanceName }}" } },
		},
	],
	links: [[0, 1], [1, 2]],
};

const approval: Recipe = {
	file: 'send-and-wait-approval',
	name: 'Ask a manager to approve an expense',
	nodes: [
		{ type: WEBHOOK, typeVersion: 2.1, set: { httpMethod: 'POST', path: 'expense' } },
		{
			type: ACTION,
			typeVersion: 2,
			credential: 'messagingInstanceApi',
			set: {
				resource: 'message',
				operation: 'sendAndWait',
				instance: INSTANCE,
				number: '={{ $json.body.manager }}',
				message: '=Approve {{ $json.body.amount }} EUR for {{ $json.body.name }}?',
				approvalOptions: { values: { approvalType: 'double' } },
			},
		},
		{ type: IF, typeVersion: 2.3, set: condition(stableId('approval', 'condition'), '={{ $json.data.approved }}', { type: 'boolean', operation: 'true', singleValue: true }) },
	],
	links: [[0, 1], [1, 2]],
};

const chatReply: Recipe = {
	file: 'send-and-wait-chat-reply',
	name: 'Ask in the chat and act on the reply',
	nodes: [
		{ type: WEBHOOK, typeVersion: 2.1, set: { httpMethod: 'POST', path: 'order' } },
		{
			type: ACTION,
			typeVersion: 2,
			credential: 'messagingInstanceApi',
			set: {
				resource: 'message',
				operation: 'sendAndWait',
				instance: INSTANCE,
				number: '={{ $json.body.phone }}',
				message: '=Deliver order {{ $json.body.id }} on Friday?',
				responseType: 'chatReply',
				choices: { values: [{ choice: 'Yes' }, { choice: 'No' }] },
				options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'days' } } },
			},
		},
		{ type: IF, typeVersion: 2.3, set: condition(stableId('chat-reply', 'condition'), '={{ $json.choice }}', { type: 'string', operation: 'equals' }, 'Yes') },
		{ type: ACTION, typeVersion: 2, credential: 'messagingInstanceApi', set: { resource: 'message', operation: 'sendText', instance: INSTANCE, number: '={{ $json.chatId }}', text: 'Booked for Friday.' } },
	],
	links: [[0, 1], [1, 2], [2, 3, 0]],
};

/** The file the Code node makes (docs/recipes.md shows its code as it is). */
export const CODE_FILE = { text: 'Orders today: 42\n', fileName: 'report.txt', mimeType: 'text/plain', number: '5511999990000' };

const mediaFromCode: Recipe = {
	file: 'media-from-code',
	name: 'Send a file made in a Code node',
	nodes: [
		{ type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, set: {} },
		{
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			set: {
				jsCode: [
					'// Any bytes become a file: base64 in `data`, with its MIME type and file name.',
					`const report = ${JSON.stringify(CODE_FILE.text)};`,
					'return [{',
					`  json: { number: '${CODE_FILE.number}' },`,
					`  binary: { data: { data: Buffer.from(report).toString('base64'), mimeType: '${CODE_FILE.mimeType}', fileName: '${CODE_FILE.fileName}' } },`,
					'}];',
				].join('\n'),
			},
		},
		{ type: ACTION, typeVersion: 2, credential: 'messagingInstanceApi', set: { resource: 'message', operation: 'sendMedia', instance: INSTANCE, number: '={{ $json.number }}', caption: "Today's report" } },
	],
	links: [[0, 1], [1, 2]],
};

const downloadMedia: Recipe = {
	file: 'download-media',
	name: 'Download the file of an incoming message',
	nodes: [
		{ type: TRIGGER, typeVersion: 3, credential: 'messagingInstanceApi', set: { instance: INSTANCE, options: { mediaAsBinary: false } } },
		{ type: ACTION, typeVersion: 2, credential: 'messagingInstanceApi', set: { resource: 'message', operation: 'downloadMedia', instance: INSTANCE, messageId: '={{ $json.messageId }}' } },
	],
	links: [[0, 1]],
};

const queueDedupe: Recipe = {
	file: 'queue-mode-dedupe',
	name: 'Reply once per message in queue mode',
	nodes: [
		{ type: TRIGGER, typeVersion: 3, credential: 'messagingInstanceApi', set: { instance: INSTANCE } },
		{ type: 'n8n-nodes-base.redis', typeVersion: 1, credential: 'redis', set: { operation: 'incr', key: "={{ 'messaging-dedupe:' + $json.dedupeKey }}", expire: true, ttl: 86400 } },
		{ type: IF, typeVersion: 2.3, set: condition(stableId('queue', 'condition'), '={{ Object.values($json)[0] }}', { type: 'number', operation: 'equals' }, 1) },
		{
			type: ACTION,
			typeVersion: 2,
			credential: 'messagingInstanceApi',
			set: {
				resource: 'message',
				operation: 'sendText',
				instance: INSTANCE,
				number: "={{ $('Messaging Instance Trigger').item.json.chatId }}",
				text: "=You said: {{ $('Messaging Instance Trigger').item.json.text }}",
			},
		},
	],
	links: [[0, 1], [1, 2], [2, 3, 0]],
};

export const CHAT_MEMORY = 'n8n-nodes-messaging-instance.messagingInstanceChatMemory';

/** A new Collect Burst node with what the user set besides its instance. */
const collectBurstNode = (set: Record<string, unknown> = {}): RecipeNode => ({ type: ACTION, typeVersion: 2, credential: 'messagingInstanceApi', set: { resource: 'message', operation: 'collectBurst', instance: INSTANCE, ...set } });

/**
 * Trigger → Collect Burst → AI Agent prompted with the burst's text (its OpenAI Chat Model keeps
 * the node's default model; the memory given) → Send Text of the agent's output to the burst's
 * chat (the agent's item holds only `output`).
 */
function agentOnBursts(file: string, name: string, memory: RecipeNode): Recipe {
	return {
		file,
		name,
		nodes: [
			{ type: TRIGGER, typeVersion: 3, credential: 'messagingInstanceApi', set: { instance: INSTANCE } },
			collectBurstNode(),
			{ type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, set: { promptType: 'define', text: '={{ $json.text }}' } },
			// "Use Responses API" off: any OpenAI-compatible server answers (Ollama, LiteLLM, the tier's scripted model).
			{ type: '@n8n/n8n-nodes-langchain.lmChatOpenAi', typeVersion: 1.3, credential: 'openAiApi', set: { responsesApiEnabled: false } },
			memory,
			{
				type: ACTION,
				typeVersion: 2,
				credential: 'messagingInstanceApi',
				set: { resource: 'message', operation: 'sendText', instance: INSTANCE, number: "={{ $('Collect a burst of messages').item.json.chatId }}", text: '={{ $json.output }}' },
			},
		],
		links: [[0, 1], [1, 2], [3, 2, 0, 'ai_languageModel'], [4, 2, 0, 'ai_memory'], [2, 5]],
	};
}

/** Collect Burst before an AI agent (docs/collect-burst.md), with n8n's Simple Memory. */
const collectBurst = agentOnBursts('collect-burst', 'Answer once per burst with an AI agent', {
	type: '@n8n/n8n-nodes-langchain.memoryBufferWindow',
	typeVersion: 1.3,
	set: { sessionIdType: 'customKey', sessionKey: '={{ $json.chatId }}' },
});

/** The same agent with the chat as its memory (docs/recipes.md, "An AI agent that remembers"): Chat ID and the window keep their defaults. */
const agentThatRemembers = agentOnBursts('ai-agent-memory', 'An AI agent that remembers', { type: CHAT_MEMORY, typeVersion: 1, credential: 'messagingInstanceApi', set: { instance: INSTANCE } });

/** Collect Burst silent while a person writes from the phone (docs/collect-burst.md, "Hand over to a person"). */
const handOver: Recipe = {
	file: 'hand-over',
	name: 'Hand over to a person',
	nodes: [
		{ type: TRIGGER, typeVersion: 3, credential: 'messagingInstanceApi', set: { instance: INSTANCE } },
		collectBurstNode({ options: { silentAfterPersonMinutes: 5 } }),
		{ type: ACTION, typeVersion: 2, credential: 'messagingInstanceApi', set: { resource: 'message', operation: 'sendText', instance: INSTANCE, number: '={{ $json.chatId }}', text: '=You said: {{ $json.text }}' } },
	],
	links: [[0, 1], [1, 2]],
};

/** The campaign's contacts (docs/campaign.md shows the Code node's code as it is): the sandbox's numbers starting with 0 have no account. */
export const CAMPAIGN_CONTACTS = [
	{ row: 1, phone: '5511977771001', name: 'Ana' },
	{ row: 2, phone: '0511977771002', name: 'Bo' },
];

const campaign: Recipe = {
	file: 'campaign',
	name: 'Send to many without getting the number banned',
	nodes: [
		{ type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, set: {} },
		{
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			set: {
				jsCode: [
					'// One item per contact; in a real campaign a Google Sheets or database node gives these.',
					'return [',
					...CAMPAIGN_CONTACTS.map(({ row, phone, name }) => `  { json: { row: ${row}, phone: '${phone}', name: '${name}' } },`),
					'];',
				].join('\n'),
			},
		},
		{
			type: ACTION,
			typeVersion: 2,
			credential: 'messagingInstanceApi',
			set: {
				resource: 'message',
				operation: 'sendText',
				instance: INSTANCE,
				number: '={{ $json.phone }}',
				text: '=Hello {{ $json.name }}, our shop opens on Monday.',
				sending: {
					pauseMinSeconds: 20,
					pauseMaxSeconds: 60,
					typeLikePerson: true,
					typingMinSeconds: 2,
					typingMaxSeconds: 8,
					onlyNumbersWithAccount: true,
					rateLimitRetries: 3,
					rateLimitWaitSeconds: 60,
					stopAfterFailures: 3,
				},
			},
			settings: { onError: 'continueRegularOutput' },
		},
		{ type: IF, typeVersion: 2.3, set: condition(stableId('campaign', 'condition'), '={{ $json.outcome }}', { type: 'string', operation: 'equals' }, 'sent') },
	],
	links: [[0, 1], [1, 2], [2, 3]],
};

/** Every recipe the docs show, in the order docs/recipes.md has them. */
export const RECIPES: Recipe[] = [echoReply, collectBurst, handOver, onboarding, mediaFromCode, downloadMedia, approval, chatReply, queueDedupe, campaign, agentThatRemembers];
