import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { loadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
import { BOT_KEY, N8N_PASSWORD, OPENAI_KEY, useRelease } from './chatbotRelease';
import { credentialsFor, run, sent } from './helpers';

/**
 * Chatbot against a v2 sandbox playing 2.3.7 (Event Integration: eventIntegration.test.ts):
 * every operation on every Bot Platform, the exact request each sends (as the server's schemas
 * read it), the answer each gives, and the secrets (bot API keys, n8n's password, OpenAI keys,
 * Pusher's secret) nowhere in an output: each is declared to the harness's global check too.
 */

const picked = (value: string) => ({ __rl: true, mode: 'list', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const CHAT = '5511988880000@s.whatsapp.net';

const chatbot = (operation: string, parameters: INodeParameters = {}): INodeParameters => ({ resource: 'chatbot', operation, ...parameters });

interface PlatformCase {
	kind: string;
	/** the platform's own fields as the user fills them, and as the body carries them */
	fields: INodeParameters;
	body: IDataObject;
	/** the secret of the bot's answer, redacted */
	secret?: string;
	/** the settings fields beyond the shared ones, and their body */
	settingsFields?: INodeParameters;
	settingsBody?: IDataObject;
}

let credentialId = '';

const PLATFORMS: PlatformCase[] = [
	{
		kind: 'openai',
		fields: { botType: 'chatCompletion', model: picked('gpt-4o-mini'), systemMessages: 'You are kind.\n\n Answer briefly. ', maxTokens: 300 },
		body: { botType: 'chatCompletion', model: 'gpt-4o-mini', systemMessages: ['You are kind.', 'Answer briefly.'], maxTokens: 300 },
	},
	{ kind: 'typebot', fields: { url: 'https://typebot.example.com', typebot: 'lead-form-x1' }, body: { url: 'https://typebot.example.com', typebot: 'lead-form-x1' } },
	{
		kind: 'dify',
		fields: { botType: 'agent', apiUrl: 'https://api.dify.ai/v1', apiKey: BOT_KEY },
		body: { botType: 'agent', apiUrl: 'https://api.dify.ai/v1', apiKey: BOT_KEY },
		secret: 'apiKey',
	},
	{ kind: 'flowise', fields: { apiUrl: 'https://flowise.example.com/api/v1/prediction/f1', apiKey: BOT_KEY }, body: { apiUrl: 'https://flowise.example.com/api/v1/prediction/f1', apiKey: BOT_KEY }, secret: 'apiKey' },
	{
		kind: 'n8n',
		fields: { webhookUrl: 'https://n8n.example.com/webhook/bot', basicAuthUser: 'bot', basicAuthPass: N8N_PASSWORD },
		body: { webhookUrl: 'https://n8n.example.com/webhook/bot', basicAuthUser: 'bot', basicAuthPass: N8N_PASSWORD },
		secret: 'basicAuthPass',
	},
	{ kind: 'evoai', fields: { agentUrl: 'https://evoai.example.com/api/v1/a2a/agent1', apiKey: BOT_KEY }, body: { agentUrl: 'https://evoai.example.com/api/v1/a2a/agent1', apiKey: BOT_KEY }, secret: 'apiKey' },
	{ kind: 'evolutionBot', fields: { apiUrl: 'https://bot.example.com/api', apiKey: BOT_KEY }, body: { apiUrl: 'https://bot.example.com/api', apiKey: BOT_KEY }, secret: 'apiKey' },
];

/** The settings body a fresh Update Settings sends on an instance without saved settings: the server's own defaults, read first (Speech to Text left as stored). */
function freshSettings(platform: PlatformCase): IDataObject {
	return {
		...(platform.kind === 'openai' ? { openaiCredsId: credentialId } : {}),
		expire: 300,
		keywordFinish: 'bye',
		delayMessage: 1000,
		unknownMessage: 'Sorry, I dont understand',
		listeningFromMe: true,
		stopBotFromMe: true,
		// every platform reads all four (its service sends through the shared one)
		keepOpen: false,
		debounceTime: 1,
		ignoreJids: [],
		splitMessages: false,
		timePerChar: 0,
	};
}

describe('Chatbot: every operation on every Bot Platform', () => {
	const sandbox = useRelease();

	test('OpenAI credentials: create (the key redacted in the answer), list, models, delete', async () => {
		const created = await run(sandbox.current, chatbot('createOpenAiCredential', { name: 'Support', apiKey: ` ${OPENAI_KEY} ` }));
		expect(created.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/openai/creds/demo', status: 201, body: { name: 'Support', apiKey: OPENAI_KEY } }]);
		const record = created.items[0].json;
		expect(record).toEqual({ id: expect.any(String), name: 'Support', apiKey: '[redacted]', createdAt: expect.any(String), updatedAt: expect.any(String), instanceId: expect.any(String) });
		credentialId = record.id as string;

		sandbox.current.clearRequests();
		const listed = await run(sandbox.current, chatbot('getManyOpenAiCredentials', { returnAll: true }));
		expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: '/openai/creds/demo', status: 200, body: undefined }]);
		expect(listed.items.map((item) => item.json)).toEqual([{ ...record }]);

		sandbox.current.clearRequests();
		const models = await run(sandbox.current, chatbot('getOpenAiModels', { openaiCredsId: picked(credentialId), limit: 2 }));
		expect(sandbox.current.requests.map(({ method, path, query }) => ({ method, path, query }))).toEqual([{ method: 'GET', path: '/openai/getModels/demo', query: { openaiCredsId: credentialId } }]);
		expect(models.items.map((item) => item.json.id)).toEqual(['gpt-4o', 'gpt-4o-mini']);

		// A second credential, deleted again.
		const spare = await run(sandbox.current, chatbot('createOpenAiCredential', { name: 'Spare', apiKey: `${OPENAI_KEY}-2` }));
		sandbox.current.clearRequests();
		const deleted = await run(sandbox.current, chatbot('deleteOpenAiCredential', { openaiCredsId: byId(spare.items[0].json.id as string) }));
		expect(sent(sandbox.current)).toEqual([{ method: 'DELETE', path: `/openai/creds/${spare.items[0].json.id as string}/demo`, status: 200, body: undefined }]);
		expect(deleted.items.map((item) => item.json)).toEqual([{ openaiCreds: { id: spare.items[0].json.id } }]);
	});

	test('Get OpenAI Models without a credential uses the settings\' one; without settings the server\'s error names the item', async () => {
		const result = await run(sandbox.current, chatbot('getOpenAiModels', { returnAll: true }), { credentials: {}, items: [{}] });
		expect(sandbox.current.requests.map(({ path, query, status }) => ({ path, query, status }))).toEqual([{ path: '/openai/getModels/demo', query: {}, status: 500 }]);
		expect(result.error?.message).toBe('Settings not found (HTTP 500)');
	});

	describe.each(PLATFORMS)('$kind', (platform) => {
		const { kind } = platform;
		let botId = '';

		test('Update Settings with fresh defaults sends the server\'s defaults; Get Settings reads them back', async () => {
			const settings = await run(sandbox.current, chatbot('updateSettings', { kind, ...(kind === 'openai' ? { openaiCredsId: picked(credentialId) } : {}) }));
			expect(settings.error).toBeUndefined();
			// read first: an empty Ignored Chats sends the stored list back (updates.test.ts)
			expect(sent(sandbox.current)).toEqual([
				{ method: 'GET', path: `/${kind}/fetchSettings/demo`, status: 200, body: undefined },
				{ method: 'POST', path: `/${kind}/settings/demo`, status: 200, body: freshSettings(platform) },
			]);
			expect(settings.items[0].json).toMatchObject({ ...freshSettings(platform), id: expect.any(String) });

			sandbox.current.clearRequests();
			const read = await run(sandbox.current, chatbot('getSettings', { kind }));
			expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: `/${kind}/fetchSettings/demo`, status: 200, body: undefined }]);
			expect(read.items[0].json).toMatchObject({ ...freshSettings(platform), fallback: null });
		});

		test('Create sends the platform\'s fields, the trigger and the options; the answer shows no secret', async () => {
			const result = await run(
				sandbox.current,
				chatbot('create', {
					kind,
					...platform.fields,
					...(kind === 'openai' ? { openaiCredsId: picked(credentialId) } : {}),
					description: `Support ${kind}`,
					triggerType: 'keyword',
					triggerOperator: 'startsWith',
					triggerValue: `hi ${kind}`,
					options: {
						expire: 20,
						keywordFinish: '#stop',
						ignoreJids: '@g.us, 5511977770000@s.whatsapp.net',
						keepOpen: true,
						debounceTime: 5,
						splitMessages: true,
						timePerChar: 40,
					},
				}),
			);
			expect(result.error).toBeUndefined();
			const body = {
				enabled: true,
				description: `Support ${kind}`,
				...(kind === 'openai' ? { openaiCredsId: credentialId } : {}),
				...platform.body,
				triggerType: 'keyword',
				triggerOperator: 'startsWith',
				triggerValue: `hi ${kind}`,
				expire: 20,
				keywordFinish: '#stop',
				keepOpen: true,
				debounceTime: 5,
				ignoreJids: ['@g.us', '5511977770000@s.whatsapp.net'],
				splitMessages: true,
				timePerChar: 40,
			};
			expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: `/${kind}/create/demo`, status: 201, body }]);
			const bot = result.items[0].json;
			const shown = platform.secret ? { ...body, [platform.secret]: '[redacted]' } : body;
			expect(bot).toMatchObject({ ...shown, id: expect.any(String), instanceId: expect.any(String) });
			botId = bot.id as string;
		});

		test('Get Many lists the bot; Get reads it; both without the secret', async () => {
			const many = await run(sandbox.current, chatbot('getMany', { kind, returnAll: true }));
			const one = await run(sandbox.current, chatbot('get', { kind, botId: picked(botId) }));
			expect(sent(sandbox.current)).toEqual([
				{ method: 'GET', path: `/${kind}/find/demo`, status: 200, body: undefined },
				{ method: 'GET', path: `/${kind}/fetch/${botId}/demo`, status: 200, body: undefined },
			]);
			expect(many.items.map((item) => item.json.id)).toEqual([botId]);
			expect(one.items.map((item) => item.json)).toEqual([many.items[0].json]);
			if (platform.secret) expect(one.items[0].json[platform.secret]).toBe('[redacted]');
		});

		test('Update sends PUT to the bot\'s path; an empty secret is left out (the stored one stays)', async () => {
			const fields = { ...platform.fields, ...(platform.secret ? { [platform.secret]: '' } : {}) };
			const result = await run(
				sandbox.current,
				chatbot('update', { kind, botId: byId(botId), ...fields, ...(kind === 'openai' ? { openaiCredsId: picked(credentialId) } : {}), enabled: false, triggerType: 'advanced', triggerValue: `^${kind}` }),
			);
			expect(result.error).toBeUndefined();
			const own = { ...platform.body };
			if (platform.secret) delete own[platform.secret];
			expect(sent(sandbox.current)).toEqual([
				{ method: 'PUT', path: `/${kind}/update/${botId}/demo`, status: 200, body: { enabled: false, ...(kind === 'openai' ? { openaiCredsId: credentialId } : {}), ...own, triggerType: 'advanced', triggerValue: `^${kind}` } },
			]);
			expect(result.items[0].json).toMatchObject({ id: botId, enabled: false, triggerType: 'advanced', triggerValue: `^${kind}`, ...(platform.secret ? { [platform.secret]: '[redacted]' } : {}) });
		});

		test('Ignore Chat, Change Status and Get Sessions act on the chat', async () => {
			const ignored = await run(sandbox.current, chatbot('ignoreChat', { kind, remoteJid: '+55 11 98888-0000', ignore: 'add' }));
			const paused = await run(sandbox.current, chatbot('changeStatus', { kind, remoteJid: CHAT, status: 'paused' }));
			const sessions = await run(sandbox.current, chatbot('getSessions', { kind, botId: picked(botId), returnAll: true }));
			expect(sent(sandbox.current)).toEqual([
				{ method: 'POST', path: `/${kind}/ignoreJid/demo`, status: 200, body: { remoteJid: CHAT, action: 'add' } },
				{ method: 'POST', path: `/${kind}/changeStatus/demo`, status: 200, body: { remoteJid: CHAT, status: 'paused' } },
				{ method: 'GET', path: `/${kind}/fetchSessions/${botId}/demo`, status: 200, body: undefined },
			]);
			expect(ignored.items.map((item) => item.json)).toEqual([{ ignoreJids: [CHAT] }]);
			expect(paused.items.map((item) => item.json)).toEqual([{ bot: { instanceName: 'demo', bot: { remoteJid: CHAT, status: 'paused', session: { count: 0 } } } }]);
			// No conversation yet: an empty list is no item.
			expect(sessions.items).toEqual([]);
		});

		test('Update Settings names a fallback bot; the answer carries it without its secret', async () => {
			const result = await run(
				sandbox.current,
				chatbot('updateSettings', { kind, ...(kind === 'openai' ? { openaiCredsId: picked(credentialId), speechToText: true } : {}), settings: { expire: 0, ignoreJids: '' }, fallbackId: picked(botId) }),
			);
			expect(result.error).toBeUndefined();
			// the chat Ignore Chat added stays ignored: an empty Ignored Chats keeps the stored list
			expect(sent(sandbox.current)[1].body).toEqual({ ...freshSettings(platform), ...(kind === 'openai' ? { speechToText: true } : {}), expire: 0, fallbackId: botId, ignoreJids: [CHAT] });
			sandbox.current.clearRequests();
			const unignored = await run(sandbox.current, chatbot('ignoreChat', { kind, remoteJid: CHAT, ignore: 'remove' }));
			expect(unignored.items.map((item) => item.json)).toEqual([{ ignoreJids: [] }]);
			sandbox.current.clearRequests();
			const read = await run(sandbox.current, chatbot('getSettings', { kind }));
			expect(read.items[0].json).toMatchObject({ fallbackId: botId, fallback: { id: botId, ...(platform.secret ? { [platform.secret]: '[redacted]' } : {}) } });
		});

		test('Delete removes the bot; Get of the ID then fails naming the Bot field', async () => {
			const deleted = await run(sandbox.current, chatbot('delete', { kind, botId: byId(botId) }));
			expect(deleted.items.map((item) => item.json)).toEqual([{ bot: { id: botId } }]);
			const again = await run(sandbox.current, chatbot('get', { kind, botId: byId(botId) }));
			expect(sent(sandbox.current)).toEqual([
				{ method: 'DELETE', path: `/${kind}/delete/${botId}/demo`, status: 200, body: undefined },
				{ method: 'GET', path: `/${kind}/fetch/${botId}/demo`, status: 200, body: undefined },
			]);
			expect(again.error?.message).toMatch(/^"Bot" names no .+ bot on the server \[item 0\]$/);
		});
	});

	test('Start Typebot: the flow starts in the chat with its variables, and its conversation is listed', async () => {
		const started = await run(
			sandbox.current,
			chatbot('start', { remoteJid: '5511988880000', url: 'https://typebot.example.com', typebot: 'welcome', options: { startSession: true, variables: { variable: [{ name: 'plan', value: 'pro' }] } } }),
		);
		expect(started.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/typebot/start/demo', status: 200, body: { remoteJid: CHAT, url: 'https://typebot.example.com', typebot: 'welcome', startSession: true, variables: [{ name: 'plan', value: 'pro' }] } },
		]);
		expect(started.items.map((item) => item.json)).toEqual([{ typebot: { instanceName: 'demo', typebot: { url: 'https://typebot.example.com', remoteJid: CHAT, typebot: 'welcome', prefilledVariables: { plan: 'pro' } } } }]);
		const bots = await run(sandbox.current, chatbot('getMany', { kind: 'typebot', returnAll: true }));
		const bot = bots.items.find((item) => item.json.typebot === 'welcome')?.json.id as string;
		const sessions = await run(sandbox.current, chatbot('getSessions', { kind: 'typebot', botId: byId(bot), returnAll: true }));
		expect(sessions.items.map((item) => item.json)).toEqual([expect.objectContaining({ botId: bot, remoteJid: CHAT, status: 'opened', type: 'typebot' })]);
	});

	test('fresh defaults: Get Many of a new node lists OpenAI\'s bots', async () => {
		const result = await run(sandbox.current, { resource: 'chatbot' });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: '/openai/find/demo', status: 200, body: undefined }]);
	});

	test('fresh defaults: Create with only the required fields sends a keyword trigger with Equals', async () => {
		const result = await run(sandbox.current, chatbot('create', { kind: 'typebot', url: 'https://typebot.example.com', typebot: 'fresh', triggerValue: 'fresh' }));
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/typebot/create/demo', status: 201, body: { enabled: true, url: 'https://typebot.example.com', typebot: 'fresh', triggerType: 'keyword', triggerOperator: 'equals', triggerValue: 'fresh' } },
		]);
	});

	test('checks before sending: a keyword trigger needs its value, an assistant its ID, a field of the wrong type names itself', async () => {
		const noValue = await run(sandbox.current, chatbot('create', { kind: 'flowise', apiUrl: 'https://f.example.com', triggerType: 'keyword', triggerValue: '={{ "" }}' }));
		const noAssistant = await run(sandbox.current, chatbot('create', { kind: 'openai', openaiCredsId: picked(credentialId), botType: 'assistant', assistantId: '={{ " " }}', triggerType: 'all' }));
		const badExpire = await run(sandbox.current, chatbot('create', { kind: 'evoai', agentUrl: 'https://e.example.com', triggerType: 'none', options: { expire: 1.5 } }));
		expect(sent(sandbox.current)).toEqual([]);
		expect(noValue.error?.message).toBe('"Trigger Value" is required [item 0]');
		expect(noAssistant.error?.message).toBe('"Assistant ID" is required [item 0]');
		expect(badExpire.error?.message).toBe('"Options: Expire After (Minutes)" must be a whole number [item 0]');
	});

	test('the server\'s refusal of a second "every message" bot comes back as the item\'s error', async () => {
		const first = await run(sandbox.current, chatbot('create', { kind: 'evolutionBot', apiUrl: 'https://one.example.com', triggerType: 'all' }));
		expect(first.error).toBeUndefined();
		const second = await run(sandbox.current, chatbot('create', { kind: 'evolutionBot', apiUrl: 'https://two.example.com', triggerType: 'all' }), { continueOnFail: true });
		expect(sent(sandbox.current).map((request) => request.status)).toEqual([201, 500]);
		expect(second.items).toHaveLength(1);
		expect(String(second.items[0].json.error)).toMatch(/with an "All" trigger/);
	});
});

describe('Chatbot pickers', () => {
	const sandbox = useRelease();
	const node = new MessagingInstance();
	const context = (parameters: INodeParameters, parameter: string) =>
		loadOptionsContext({ type: ACTION_TYPE, typeVersion: 2, name: 'Messaging Instance', credentials: credentialsFor(sandbox.current) as never, parameters, parameter });

	test('bots of the chosen platform, OpenAI credentials by name, the credential\'s models', async () => {
		const creds = await run(sandbox.current, chatbot('createOpenAiCredential', { name: 'Sales', apiKey: OPENAI_KEY }));
		const id = creds.items[0].json.id as string;
		await run(sandbox.current, chatbot('create', { kind: 'typebot', url: 'https://typebot.example.com', typebot: 'sales', description: 'Sales flow', triggerValue: 'sales' }));
		await run(sandbox.current, chatbot('create', { kind: 'dify', apiUrl: 'https://api.dify.ai/v1', description: 'Dify helper', triggerType: 'none' }));
		sandbox.current.clearRequests();
		const instance = picked('demo');
		const bots = await node.methods.listSearch.searchChatbots.call(context({ resource: 'chatbot', operation: 'get', kind: 'typebot', instance }, 'botId'));
		expect(bots.results).toEqual([{ name: 'Sales flow (keyword)', value: expect.any(String) }]);
		const found = await node.methods.listSearch.searchOpenAiCredentials.call(context({ resource: 'chatbot', operation: 'create', kind: 'openai', instance }, 'openaiCredsId'), 'sal');
		expect(found.results).toEqual([{ name: 'Sales', value: id }]);
		const models = await node.methods.listSearch.searchOpenAiModels.call(context({ resource: 'chatbot', operation: 'create', kind: 'openai', instance, openaiCredsId: picked(id) }, 'model'), 'mini');
		expect(models.results).toEqual([{ name: 'gpt-4o-mini', value: 'gpt-4o-mini' }]);
		expect(sandbox.current.requests.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
			{ method: 'GET', path: '/typebot/find/demo', query: {} },
			{ method: 'GET', path: '/openai/creds/demo', query: {} },
			{ method: 'GET', path: '/openai/getModels/demo', query: { openaiCredsId: id } },
		]);
		expect(JSON.stringify([bots, found, models])).not.toContain(OPENAI_KEY);
	});
});
