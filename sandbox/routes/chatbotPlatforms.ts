/**
 * The sandbox's table of the chatbot platforms the server hosts (tags 2.3.7 and 2.4.0-rc2:
 * src/api/integrations/chatbot/<platform>/validate/*.schema.ts and the controllers), one entry
 * each, and the schemas made from it. The routes they serve are in ./chatbot.ts.
 */
import type { Schema } from '../validate';

const str: Schema = { type: 'string' };
const bool: Schema = { type: 'boolean' };
const int: Schema = { type: 'integer' };
const strings: Schema = { type: 'array', items: str };

export interface Platform {
	kind: string;
	/** the controller's integrationName, as its messages say it */
	label: string;
	/** the session `type` of its conversations */
	sessionType: string;
	/** the settings column that names the fallback bot */
	fallbackField: string;
	/** the bot schema's own properties and its required ones besides enabled and triggerType */
	own: Record<string, Schema>;
	ownRequired: string[];
	/** the bot schema lists keepOpen/debounceTime, splitMessages/timePerChar */
	keepsOpen: boolean;
	splits: boolean;
	/** the settings schema: extra properties, and the required list */
	settingsOwn: Record<string, Schema>;
	settingsRequired: string[];
	/** the fields the controller's duplicate check compares (same values on the instance: "… already exists") */
	identity: (body: Record<string, unknown>) => Record<string, unknown> | undefined;
	/** the controller's own checks of a bot (OpenAI's bot type) */
	check?: (body: Record<string, unknown>) => string | undefined;
	/** the name of the "already exists" message */
	exists: string;
}

const SIX = ['expire', 'keywordFinish', 'delayMessage', 'unknownMessage', 'listeningFromMe', 'stopBotFromMe'];
const NINE = [...SIX, 'keepOpen', 'debounceTime', 'ignoreJids'];
const ELEVEN = [...NINE, 'splitMessages', 'timePerChar'];

const openaiCheck = (body: Record<string, unknown>): string | undefined => {
	if (body.botType === 'assistant' && !body.assistantId) return 'Assistant ID is required';
	if (body.botType === 'chatCompletion') {
		if (!body.model) return 'Model is required';
		if (!body.maxTokens) return 'Max tokens is required';
	}
	return undefined;
};

export const PLATFORMS: Platform[] = [
	{
		kind: 'openai',
		label: 'Openai',
		sessionType: 'openai',
		fallbackField: 'openaiIdFallback',
		own: {
			openaiCredsId: str,
			botType: { type: 'string', enum: ['assistant', 'chatCompletion'] },
			assistantId: str,
			functionUrl: str,
			model: str,
			systemMessages: strings,
			assistantMessages: strings,
			userMessages: strings,
			maxTokens: int,
		},
		ownRequired: ['openaiCredsId', 'botType'],
		keepsOpen: true,
		splits: false,
		settingsOwn: { openaiCredsId: str, speechToText: bool, openaiIdFallback: str },
		settingsRequired: ['openaiCredsId', ...NINE],
		identity: (b) => (b.botType === 'assistant' ? { botType: b.botType, assistantId: b.assistantId } : { botType: b.botType, model: b.model, maxTokens: b.maxTokens }),
		check: openaiCheck,
		exists: 'OpenAI Bot already exists',
	},
	{
		kind: 'typebot',
		label: 'Typebot',
		sessionType: 'typebot',
		fallbackField: 'typebotIdFallback',
		own: { url: str, typebot: str },
		ownRequired: ['url', 'typebot'],
		keepsOpen: false,
		splits: false,
		settingsOwn: { keepOpen: bool, debounceTime: int, typebotIdFallback: str },
		settingsRequired: SIX,
		identity: (b) => ({ url: b.url, typebot: b.typebot }),
		exists: 'Typebot already exists',
	},
	{
		kind: 'dify',
		label: 'Dify',
		sessionType: 'dify',
		fallbackField: 'difyIdFallback',
		own: { botType: { type: 'string', enum: ['chatBot', 'textGenerator', 'agent', 'workflow'] }, apiUrl: str, apiKey: str },
		ownRequired: ['botType'],
		keepsOpen: true,
		splits: true,
		settingsOwn: { difyIdFallback: str },
		settingsRequired: ELEVEN,
		identity: (b) => ({ botType: b.botType, apiUrl: b.apiUrl, apiKey: b.apiKey }),
		exists: 'Dify already exists',
	},
	{
		kind: 'flowise',
		label: 'Flowise',
		sessionType: 'flowise',
		fallbackField: 'flowiseIdFallback',
		own: { apiUrl: str, apiKey: str },
		ownRequired: ['apiUrl'],
		keepsOpen: true,
		splits: true,
		settingsOwn: { flowiseIdFallback: str },
		settingsRequired: NINE,
		identity: (b) => ({ apiUrl: b.apiUrl, apiKey: b.apiKey }),
		exists: 'Flowise already exists',
	},
	{
		kind: 'n8n',
		label: 'N8n',
		sessionType: 'n8n',
		fallbackField: 'n8nIdFallback',
		// the schema names the password basicAuthPassword; the DTO and the record carry basicAuthPass
		own: { webhookUrl: str, basicAuthUser: str, basicAuthPassword: str },
		ownRequired: ['webhookUrl'],
		keepsOpen: true,
		splits: true,
		settingsOwn: { botIdFallback: str },
		settingsRequired: ELEVEN,
		identity: (b) => ({ webhookUrl: b.webhookUrl }),
		exists: 'N8n already exists',
	},
	{
		kind: 'evoai',
		label: 'Evoai',
		sessionType: 'evoai',
		fallbackField: 'evoaiIdFallback',
		own: { agentUrl: str, apiKey: str },
		ownRequired: ['agentUrl'],
		keepsOpen: true,
		splits: true,
		settingsOwn: { botIdFallback: str },
		settingsRequired: ELEVEN,
		identity: (b) => ({ agentUrl: b.agentUrl, apiKey: b.apiKey }),
		exists: 'Evoai already exists',
	},
	{
		kind: 'evolutionBot',
		label: 'EvolutionBot',
		sessionType: 'evolution',
		fallbackField: 'botIdFallback',
		own: { apiUrl: str, apiKey: str },
		ownRequired: ['apiUrl'],
		keepsOpen: true,
		splits: true,
		settingsOwn: { botIdFallback: str },
		settingsRequired: ELEVEN,
		identity: (b) => ({ apiUrl: b.apiUrl, apiKey: b.apiKey }),
		exists: 'Evolution Bot already exists',
	},
];

/**
 * The servers' `isNotEmpty(...names)`: `if: { propertyNames: { enum: names } }` holds only when
 * every key of the body is one of the names; then each named text needs a character.
 */
function notEmpty(names: string[]): Schema['when'] {
	return [
		{
			test: (b) => Object.keys(b).every((key) => names.includes(key)),
			then: { properties: Object.fromEntries(names.map((name) => [name, { minLength: 1, description: `The "${name}" cannot be empty` }])) },
		},
	];
}

function objectSchema(properties: Record<string, Schema>, required: string[]): Schema {
	return { type: 'object', properties, required, when: notEmpty(required) };
}

const TRIGGER: Record<string, Schema> = {
	triggerType: { type: 'string', enum: ['all', 'keyword', 'none', 'advanced'] },
	triggerOperator: { type: 'string', enum: ['equals', 'contains', 'startsWith', 'endsWith', 'regex'] },
	triggerValue: str,
};

const BEHAVIOUR: Record<string, Schema> = {
	expire: int,
	keywordFinish: str,
	delayMessage: int,
	unknownMessage: str,
	listeningFromMe: bool,
	stopBotFromMe: bool,
};

export function botSchema(p: Platform): Schema {
	return objectSchema(
		{
			enabled: bool,
			description: str,
			...p.own,
			...TRIGGER,
			...BEHAVIOUR,
			...(p.keepsOpen ? { keepOpen: bool, debounceTime: int } : {}),
			ignoreJids: strings,
			...(p.splits ? { splitMessages: bool, timePerChar: int } : {}),
		},
		['enabled', ...p.ownRequired, 'triggerType'],
	);
}

export function settingsSchema(p: Platform): Schema {
	return objectSchema(
		{ ...BEHAVIOUR, keepOpen: bool, debounceTime: int, ignoreJids: strings, ...(p.splits ? { splitMessages: bool, timePerChar: int } : {}), ...p.settingsOwn },
		p.settingsRequired,
	);
}

export const statusSchema = objectSchema({ remoteJid: str, status: { type: 'string', enum: ['opened', 'closed', 'paused', 'delete'] } }, ['remoteJid', 'status']);
export const ignoreSchema = objectSchema({ remoteJid: str, action: { type: 'string', enum: ['add', 'remove'] } }, ['remoteJid', 'action']);
export const startSchema = objectSchema({ remoteJid: str, url: str, typebot: str }, ['remoteJid', 'url', 'typebot']);
export const credsSchema = objectSchema({ name: str, apiKey: str }, ['name', 'apiKey']);
