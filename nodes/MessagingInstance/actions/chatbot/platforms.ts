import type { INodeProperties } from 'n8n-workflow';

import { picker } from '../../../shared/pickers';

/**
 * The chatbot platforms the server hosts, as data: what an operation on bots needs to know
 * about one platform. The operations themselves (./*.ts) are written once for all of them.
 * A new platform is one entry here, with its own fields; nothing else changes.
 *
 * Facts from the server's source (tags 2.3.7 and 2.4.0-rc2,
 * src/api/integrations/chatbot/<platform>/validate/*.schema.ts and the controllers).
 */

/** How a platform field's value goes into the body. */
export type FieldFormat =
	/** text; sent only when not empty (an update then keeps the stored value) */
	| 'text'
	/** text that is a secret (an API key, a password): as `text`, and never output */
	| 'secret'
	/** one entry per line, sent as a list of texts */
	| 'lines'
	/** a whole number */
	| 'integer'
	/** one of the field's options */
	| 'option'
	/** a switch the server keeps when the body leaves it out: "Keep Current" (the default) sends nothing, On and Off send true and false */
	| 'keepOrSwitch';

export interface PlatformField {
	property: INodeProperties;
	format: FieldFormat;
	/** The server refuses a bot without it (its schema, or its controller for the given type). */
	required?: boolean;
}

export interface BotPlatform {
	/** The `kind` value, and the first segment of the platform's routes. */
	value: string;
	name: string;
	/** The platform's own fields of a bot, in the order shown (Create and Update). */
	fields: PlatformField[];
	/**
	 * What its settings schema requires in every body (validate/<platform>.schema.ts, the same
	 * at 2.3.6, 2.3.7 and 2.4.0-rc2): a write without one of them is refused.
	 */
	settingsRequired: readonly string[];
	/** Fields of its default settings beyond the shared ones. */
	settingsFields?: PlatformField[];
}

const text = (displayName: string, name: string, description: string, placeholder = '', required = false, displayOptions?: INodeProperties['displayOptions']): PlatformField => ({
	property: { displayName, name, type: 'string', default: '', placeholder, description, ...(required ? { required: true } : {}), ...(displayOptions ? { displayOptions } : {}) },
	format: 'text',
	required,
});

const secret = (displayName: string, name: string, description: string): PlatformField => ({
	property: { displayName, name, type: 'string', typeOptions: { password: true }, default: '', description },
	format: 'secret',
});

/** What every platform's settings schema requires; Typebot's stops at Stop When I Write. */
const SIX_REQUIRED = ['expire', 'keywordFinish', 'delayMessage', 'unknownMessage', 'listeningFromMe', 'stopBotFromMe'];
const NINE_REQUIRED = [...SIX_REQUIRED, 'keepOpen', 'debounceTime', 'ignoreJids'];
const ELEVEN_REQUIRED = [...NINE_REQUIRED, 'splitMessages', 'timePerChar'];

const API_KEY_DESCRIPTION = 'The platform\'s API key; left empty, an update keeps the stored one. Never shown in the output.';

/** The OpenAI credential a bot or the settings use: picked from the instance's, or its ID. */
export function openAiCredentialProperty(name = 'openaiCredsId', description = 'The OpenAI credential (an API key stored on the server): pick it, or give its ID'): INodeProperties {
	return picker({
		displayName: 'OpenAI Credential',
		name,
		description,
		searchMethod: 'searchOpenAiCredentials',
		typedMode: { displayName: 'By ID', name: 'id', placeholder: 'clx0credential0id' },
	});
}

const whenOpenAi = (botType: string) => ({ show: { botType: [botType] } });

const messagesField = (displayName: string, name: string, who: string): PlatformField => ({
	property: {
		displayName,
		name,
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		displayOptions: whenOpenAi('chatCompletion'),
		description: `${who} messages that open every conversation, one per line`,
	},
	format: 'lines',
});

export const BOT_PLATFORMS: readonly BotPlatform[] = [
	{
		value: 'openai',
		name: 'OpenAI',
		fields: [
			{ property: openAiCredentialProperty(), format: 'text', required: true },
			{
				property: {
					displayName: 'Bot Type',
					name: 'botType',
					type: 'options',
					options: [
						{ name: 'Assistant', value: 'assistant', description: 'An assistant made in OpenAI\'s platform' },
						{ name: 'Chat Completion', value: 'chatCompletion', description: 'A model with the messages given here' },
					],
					default: 'chatCompletion',
					required: true,
				},
				format: 'option',
				required: true,
			},
			text('Assistant ID', 'assistantId', 'ID of the OpenAI assistant', 'asst_…', true, whenOpenAi('assistant')),
			text('Function URL', 'functionUrl', 'Address the assistant\'s function calls are posted to', 'https://…', false, whenOpenAi('assistant')),
			{
				property: {
					...picker({
						displayName: 'Model',
						name: 'model',
						description: 'The model: pick it from those the credential may use, or type its ID',
						searchMethod: 'searchOpenAiModels',
						typedMode: { displayName: 'By ID', name: 'id', placeholder: 'gpt-4o-mini' },
					}),
					displayOptions: whenOpenAi('chatCompletion'),
				},
				format: 'text',
				required: true,
			},
			messagesField('System Messages', 'systemMessages', 'System'),
			messagesField('Assistant Messages', 'assistantMessages', 'Assistant'),
			messagesField('User Messages', 'userMessages', 'User'),
			{
				property: {
					displayName: 'Max Tokens',
					name: 'maxTokens',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 1_000_000 },
					default: 300,
					required: true,
					displayOptions: whenOpenAi('chatCompletion'),
					description: 'Most tokens one answer may use',
				},
				format: 'integer',
				required: true,
			},
		],
		settingsRequired: ['openaiCredsId', ...NINE_REQUIRED],
		settingsFields: [
			{ property: openAiCredentialProperty('openaiCredsId', 'The credential the settings use (e.g. to transcribe audio)'), format: 'text', required: true },
			{
				// The controller stores `speechToText: data.speechToText` (openai.controller.ts): sent only when chosen here.
				property: {
					displayName: 'Speech to Text',
					name: 'speechToText',
					type: 'options',
					options: [
						{ name: 'Keep Current', value: 'keep', description: 'Leave transcription as it is stored' },
						{ name: 'On', value: true, description: 'Transcribe voice messages before the bot reads them' },
						{ name: 'Off', value: false, description: 'Give voice messages to the bot as they are' },
					],
					default: 'keep',
					description: 'Whether voice messages are transcribed before the bot reads them',
				},
				format: 'keepOrSwitch',
			},
		],
	},
	{
		value: 'typebot',
		name: 'Typebot',
		fields: [
			text('Typebot URL', 'url', 'Address of the Typebot server', 'https://typebot.example.com', true),
			text('Typebot', 'typebot', 'Public ID of the flow on that server', 'my-typebot-abc123', true),
		],
		settingsRequired: SIX_REQUIRED,
	},
	{
		value: 'dify',
		name: 'Dify',
		fields: [
			{
				property: {
					displayName: 'Bot Type',
					name: 'botType',
					type: 'options',
					options: [
						{ name: 'Agent', value: 'agent' },
						{ name: 'Chatbot', value: 'chatBot' },
						{ name: 'Text Generator', value: 'textGenerator' },
						{ name: 'Workflow', value: 'workflow' },
					],
					default: 'chatBot',
					required: true,
					description: 'The kind of Dify app',
				},
				format: 'option',
				required: true,
			},
			text('API URL', 'apiUrl', 'Address of the Dify API', 'https://api.dify.ai/v1'),
			secret('API Key', 'apiKey', API_KEY_DESCRIPTION),
		],
		settingsRequired: ELEVEN_REQUIRED,
	},
	{
		value: 'flowise',
		name: 'Flowise',
		fields: [text('API URL', 'apiUrl', 'Address of the Flowise prediction API of the flow', 'https://flowise.example.com/api/v1/prediction/…', true), secret('API Key', 'apiKey', API_KEY_DESCRIPTION)],
		settingsRequired: NINE_REQUIRED,
	},
	{
		value: 'n8n',
		name: 'N8n',
		fields: [
			text('Webhook URL', 'webhookUrl', 'Address of the n8n workflow\'s Webhook trigger', 'https://n8n.example.com/webhook/…', true),
			text('Basic Auth User', 'basicAuthUser', 'User name of the webhook\'s basic authentication'),
			secret('Basic Auth Password', 'basicAuthPass', 'Password of the webhook\'s basic authentication; left empty, an update keeps the stored one. Never shown in the output.'),
		],
		settingsRequired: ELEVEN_REQUIRED,
	},
	{
		value: 'evoai',
		name: 'EvoAI',
		fields: [text('Agent URL', 'agentUrl', 'Address of the EvoAI agent', 'https://evoai.example.com/api/v1/a2a/…', true), secret('API Key', 'apiKey', API_KEY_DESCRIPTION)],
		settingsRequired: ELEVEN_REQUIRED,
	},
	{
		value: 'evolutionBot',
		name: 'Evolution Bot',
		fields: [text('API URL', 'apiUrl', 'Address of the bot\'s API', 'https://bot.example.com/api', true), secret('API Key', 'apiKey', API_KEY_DESCRIPTION)],
		settingsRequired: ELEVEN_REQUIRED,
	},
];

export function platformOf(kind: string): BotPlatform | undefined {
	return BOT_PLATFORMS.find((platform) => platform.value === kind);
}
