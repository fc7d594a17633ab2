import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';
import { picker } from '../../../shared/pickers';
import { BOT_PLATFORMS, platformOf, type BotPlatform, type PlatformField } from './platforms';

/**
 * What the chatbot operations share: the Bot Platform field, the bot picker, the fields every
 * platform's bots and settings have, and how a platform's own fields (./platforms.ts) are
 * shown and read. Each operation file puts these together for one route.
 */

export const KIND_LABEL = 'Bot Platform';

/** The Bot Platform field: every platform of the table. */
export function kindProperty(): INodeProperties {
	return {
		displayName: KIND_LABEL,
		name: 'kind',
		type: 'options',
		noDataExpression: true,
		options: BOT_PLATFORMS.map((platform) => ({ name: platform.name, value: platform.value })),
		default: 'openai',
		description: 'The chatbot platform the server connects the instance to',
	};
}

/** The item's platform; one the table does not know (a value stored by a newer package) is an error. */
export function readPlatform(params: ItemParameters): BotPlatform {
	const kind = params.text('kind', KIND_LABEL).trim();
	const platform = platformOf(kind);
	if (!platform) params.fail(KIND_LABEL, `is not a platform this node knows ("${kind.slice(0, 40)}")`);
	return platform as BotPlatform;
}

/** The path of a platform's route, e.g. `/typebot/fetch/abc`: the id field, when given, is read as one path segment. */
export function platformPath(params: ItemParameters, action: string, idField?: string): string {
	const { value } = readPlatform(params);
	return idField === undefined ? `/${value}/${action}` : `/${value}/${action}/${params.pathSegment(idField)}`;
}

/** Every path of an action over the platforms, as the sandbox serves them. */
export function platformPaths(action: string, withId = false): string[] {
	return BOT_PLATFORMS.map((platform) => `/${platform.value}/${action}${withId ? '/{id}' : ''}`);
}

export function botIdProperty(description = 'The bot: pick it from the platform\'s bots on the instance, or give its ID'): INodeProperties {
	return picker({
		displayName: 'Bot',
		name: 'botId',
		description,
		searchMethod: 'searchChatbots',
		typedMode: { displayName: 'By ID', name: 'id', placeholder: 'clx0bot0id' },
	});
}

/** A chat as the bot sessions know it: a JID; a phone number becomes its phone JID. */
export function chatProperty(description: string): INodeProperties {
	return {
		displayName: 'Chat',
		name: 'remoteJid',
		type: 'string',
		default: '',
		required: true,
		placeholder: '5511999990000@s.whatsapp.net',
		description,
		hint: 'A JID, or a phone number with country code (it becomes its …@s.whatsapp.net JID)',
	};
}

export function readChat(params: ItemParameters, name = 'remoteJid'): string {
	params.text(name);
	return params.chatJid(name);
}

/**
 * The platforms' own fields as node properties: each shown only for its platform (and for its
 * own conditions), a field several platforms define alike shown once for all of them.
 */
export function platformProperties(fieldsOf: (platform: BotPlatform) => readonly PlatformField[] | undefined): INodeProperties[] {
	const merged: Array<{ key: string; kinds: string[]; property: INodeProperties }> = [];
	for (const platform of BOT_PLATFORMS) {
		for (const { property } of fieldsOf(platform) ?? []) {
			const key = JSON.stringify(property);
			const same = merged.find((entry) => entry.key === key);
			if (same) same.kinds.push(platform.value);
			else merged.push({ key, kinds: [platform.value], property });
		}
	}
	return merged.map(({ kinds, property }) => ({
		...property,
		displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, kind: kinds } },
	}));
}

/** Whether a field's own conditions (e.g. OpenAI's Bot Type) hold for the values read so far. */
function conditionsHold(field: PlatformField, body: IDataObject): boolean {
	const show = field.property.displayOptions?.show ?? {};
	return Object.entries(show).every(([name, values]) => (values as unknown[]).includes(body[name]));
}

/** One field's value as the server reads it; undefined when the user left an optional one empty. */
function readField(params: ItemParameters, field: PlatformField): string | number | boolean | string[] | undefined {
	const { name, type } = field.property;
	const label = params.label(name);
	switch (field.format) {
		case 'integer': {
			return params.number(name, { integer: true, min: 1 }, label);
		}
		case 'option':
			return type === 'boolean' ? params.flag(name, label) : params.text(name, label).trim();
		case 'keepOrSwitch': {
			const value = params.raw<unknown>(name, 'keep');
			return value === 'keep' ? undefined : params.checkFlag(value, label);
		}
		case 'lines': {
			const raw = params.raw<unknown>(name, '');
			const entries = Array.isArray(raw)
				? raw.map((entry, position) => params.checkText(entry, `${label} (entry ${position + 1})`))
				: params.checkText(raw, label).split(/\r?\n/);
			const lines = entries.map((line) => line.trim()).filter((line) => line !== '');
			return lines.length > 0 ? lines : undefined;
		}
		default: {
			const value = params.textOrEmpty(name, label).trim();
			if (value === '') {
				if (field.required) params.fail(label, 'is required');
				return undefined;
			}
			return value;
		}
	}
}

/** The platform's own fields of the item, in the table's order, those whose conditions hold. */
export function readPlatformFields(params: ItemParameters, fields: readonly PlatformField[] | undefined, into: IDataObject = {}): IDataObject {
	for (const field of fields ?? []) {
		if (!conditionsHold(field, into)) continue;
		const value = readField(params, field);
		if (value !== undefined) into[field.property.name] = value;
	}
	return into;
}

/**
 * How a bot behaves in a conversation: on bots an option (the server's settings fill the gaps),
 * in the settings a field. Every platform has every one: the shared controller stores them
 * all (base-chatbot.controller.ts), its emit waits Debounce Time for every platform, and each
 * platform's service (Typebot's and OpenAI's too) sends through the shared service's
 * `sendMessageWhatsApp`, which reads Split Messages and Time per Character; Typebot's and
 * OpenAI's services read Keep Open themselves, the others' through the shared service.
 */
interface Behaviour {
	property: INodeProperties;
	read(params: ItemParameters, value: unknown, label: string): string | number | boolean | string[];
}

const wholeNumber = (params: ItemParameters, value: unknown, label: string) => params.checkNumber(value, label, { integer: true, min: 0 });
const someText = (params: ItemParameters, value: unknown, label: string) => {
	const text = params.checkText(value, label).trim();
	if (text === '') params.fail(label, 'cannot be empty (the server refuses it)');
	return text;
};
const aFlag = (params: ItemParameters, value: unknown, label: string) => params.checkFlag(value, label);
const jidList = (params: ItemParameters, value: unknown, label: string) => {
	const entries = Array.isArray(value)
		? value.map((entry, position) => params.checkText(entry, `${label} (entry ${position + 1})`))
		: params.checkText(value, label).split(/[\n,]/);
	return [...new Set(entries.map((entry) => entry.trim()).filter((entry) => entry !== ''))];
};

const BEHAVIOURS: Behaviour[] = [
	{
		property: { displayName: 'Expire After (Minutes)', name: 'expire', type: 'number', typeOptions: { minValue: 0, maxValue: 525_600 }, default: 0, description: 'Minutes without a message after which a conversation with the bot ends (0: never)' },
		read: wholeNumber,
	},
	{
		property: { displayName: 'Keyword to End', name: 'keywordFinish', type: 'string', default: '', placeholder: '#stop', description: 'A message that ends the conversation with the bot' },
		read: someText,
	},
	{
		property: { displayName: 'Typing Delay (Milliseconds)', name: 'delayMessage', type: 'number', typeOptions: { minValue: 0, maxValue: 300_000 }, default: 1000, description: 'How long the bot shows "typing…" before each answer' },
		read: wholeNumber,
	},
	{
		property: { displayName: 'Unknown Message Answer', name: 'unknownMessage', type: 'string', default: '', description: 'What the bot answers to a message it cannot read (e.g. a sticker)' },
		read: someText,
	},
	{
		property: { displayName: 'Listen to Own Messages', name: 'listeningFromMe', type: 'boolean', default: false, description: 'Whether messages this instance sends also go to the bot' },
		read: aFlag,
	},
	{
		property: { displayName: 'Stop When I Write', name: 'stopBotFromMe', type: 'boolean', default: false, description: 'Whether a message this instance sends by hand pauses the bot in that chat' },
		read: aFlag,
	},
	{
		property: { displayName: 'Keep Open', name: 'keepOpen', type: 'boolean', default: false, description: 'Whether an ended conversation is kept (closed) instead of deleted, so the bot does not start again in that chat' },
		read: aFlag,
	},
	{
		property: { displayName: 'Debounce Time (Seconds)', name: 'debounceTime', type: 'number', typeOptions: { minValue: 0, maxValue: 3_600 }, default: 0, description: 'Seconds the bot waits for more messages before it answers them together' },
		read: wholeNumber,
	},
	{
		property: {
			displayName: 'Ignored Chats',
			name: 'ignoreJids',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: '5511999990000@s.whatsapp.net, @g.us',
			description: 'JIDs the bot never answers, separated by commas or new lines; "@g.us" stands for every group, "@s.whatsapp.net" for every person',
		},
		read: jidList,
	},
	{
		property: { displayName: 'Split Messages', name: 'splitMessages', type: 'boolean', default: false, description: 'Whether a long answer goes out as several messages, one per paragraph' },
		read: aFlag,
	},
	{
		property: { displayName: 'Time per Character (Milliseconds)', name: 'timePerChar', type: 'number', typeOptions: { minValue: 0, maxValue: 10_000 }, default: 0, description: 'Typing time per character of a split answer' },
		read: wholeNumber,
	},
];

/**
 * The behaviour as a collection: a bot's Options (what is left out, the server takes from the
 * platform's settings), or the settings' own Settings (what is left out keeps its stored value).
 */
export function botOptionsProperty(name = 'options', displayName = 'Options', placeholder = 'Add Option'): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options: BEHAVIOURS.map((behaviour) => behaviour.property) };
}

/** The behaviour the item sets in the collection `name`, read as the server takes it. */
export function readBotOptions(params: ItemParameters, name = 'options'): IDataObject {
	const options = params.collection(name);
	const body: IDataObject = {};
	for (const behaviour of BEHAVIOURS) {
		const field = behaviour.property.name;
		if (options[field] === undefined) continue;
		body[field] = behaviour.read(params, options[field], params.label(`${name}.${field}`));
	}
	return body;
}

/** The names of the behaviour fields: what the server's settings hold besides a platform's own. */
export const BEHAVIOUR_NAMES: readonly string[] = BEHAVIOURS.map((behaviour) => behaviour.property.name);

export const TRIGGER_PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Enabled',
		name: 'enabled',
		type: 'boolean',
		default: true,
		description: 'Whether the bot answers chats',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		description: 'A name for the bot, as lists and pickers show it',
	},
	{
		displayName: 'Trigger',
		name: 'triggerType',
		type: 'options',
		options: [
			{ name: 'Every Message', value: 'all', description: 'The bot answers every chat (only one bot of the platform may)' },
			{ name: 'Keyword', value: 'keyword', description: 'A message matching the keyword starts the bot' },
			{ name: 'Advanced', value: 'advanced', description: 'A message matching the trigger value as a pattern starts the bot' },
			{ name: 'None', value: 'none', description: 'The bot starts only when a fallback or a workflow starts it' },
		],
		default: 'keyword',
		required: true,
	},
	{
		displayName: 'Trigger Operator',
		name: 'triggerOperator',
		type: 'options',
		options: [
			{ name: 'Contains', value: 'contains' },
			{ name: 'Ends With', value: 'endsWith' },
			{ name: 'Equals', value: 'equals' },
			{ name: 'Regex', value: 'regex' },
			{ name: 'Starts With', value: 'startsWith' },
		],
		default: 'equals',
		displayOptions: { show: { triggerType: ['keyword'] } },
		description: 'How the message is compared with the keyword',
	},
	{
		displayName: 'Trigger Value',
		name: 'triggerValue',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'hello',
		displayOptions: { show: { triggerType: ['keyword', 'advanced'] } },
		description: 'The keyword, or for Advanced the pattern',
	},
];

/** Enabled, Description and the trigger, as the server checks them (it wants an operator and a value for a keyword). */
export function readTrigger(params: ItemParameters): IDataObject {
	const body: IDataObject = { enabled: params.flag('enabled') };
	const description = params.textOrEmpty('description').trim();
	if (description !== '') body.description = description;
	const triggerType = params.text('triggerType').trim();
	body.triggerType = triggerType;
	if (triggerType === 'keyword') body.triggerOperator = params.text('triggerOperator').trim();
	if (triggerType === 'keyword' || triggerType === 'advanced') body.triggerValue = params.text('triggerValue').trim();
	return body;
}

/** A bot's whole body for Create and Update. */
export function readBot(params: ItemParameters): IDataObject {
	const platform = readPlatform(params);
	const { enabled, description, ...trigger } = readTrigger(params);
	const body: IDataObject = { enabled, ...(description !== undefined ? { description } : {}) };
	readPlatformFields(params, platform.fields, body);
	return { ...body, ...trigger, ...readBotOptions(params) };
}
