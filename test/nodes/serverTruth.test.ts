import type { INodeParameters } from 'n8n-workflow';

import { OPERATIONS, labelsOf } from '../../nodes/MessagingInstance/actions/index';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import type { ServerVersion } from '../../sandbox/versions';
import { MESSAGE_IDS } from '../harness/engine';
import { declareSecrets } from '../harness/secrets';
import { run, sent } from './helpers';

/**
 * What the real server reads and answers (its source at 2.3.6, 2.3.7 and 2.4.0-rc2), on the
 * paths added last: fields it reads that the node now sends, values it refuses that the node
 * now stops, and answers that mean a failure although they are a 2xx.
 */

const CHAT = '5511988880000@s.whatsapp.net';
const GROUP = '120363000000000001@g.us';
const picked = (value: string) => ({ __rl: true, mode: 'list', value });

function useRelease(version: ServerVersion, switchedOff: string[] = []): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeAll(async () => {
		holder.current = await startSandbox({
			dialect: 'v2',
			version,
			switchedOff,
			instances: [{ name: 'demo', token: 'demo-token' }, { name: 'meta', token: 'meta-token', integration: 'WHATSAPP-BUSINESS' }],
		});
		declareSecrets('demo-token', 'meta-token');
		holder.current.addGroup('demo', { id: GROUP, subject: 'Team', participants: ['5511988880000'] });
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => holder.current.clearRequests());
	return holder;
}

describe('fields the server reads (2.4)', () => {
	const sandbox = useRelease('2.4.0');

	test('Send Media sends GIF Attribution with a GIF video; with an image it stops before sending', async () => {
		const video = { resource: 'message', operation: 'sendMedia', number: '5511988880000', mediaType: 'video', mediaSource: 'url', mediaUrl: 'https://files.example.com/dance.mp4' };
		const gif = await run(sandbox.current, { ...video, options: { gifPlayback: true, gifAttribution: 2 } });
		expect(gif.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{
				method: 'POST',
				path: '/message/sendMedia/demo',
				status: 201,
				body: { number: '5511988880000', mediatype: 'video', mimetype: 'video/mp4', media: 'https://files.example.com/dance.mp4', fileName: 'dance.mp4', gifPlayback: true, gifAttribution: 2, messageId: MESSAGE_IDS[0] },
			},
		]);

		sandbox.current.clearRequests();
		const image = await run(sandbox.current, { ...video, mediaType: 'image', mediaUrl: 'https://files.example.com/a.png', options: { gifAttribution: 1 } });
		expect(image.error?.message).toBe('"Options: GIF Attribution" needs a video, not an image [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Get Poll Votes sends a typed phone number as the chat\'s JID, which the server matches votes by', async () => {
		const poll = await run(sandbox.current, { resource: 'message', operation: 'sendPoll', number: '5511988880000', name: 'Lunch?', pollOptions: { option: [{ text: 'Yes' }, { text: 'No' }] } });
		expect(poll.error).toBeUndefined();
		const pollId = (poll.items[0].json.key as { id: string }).id;
		sandbox.current.clearRequests();

		const votes = await run(sandbox.current, { resource: 'message', operation: 'getPollVotes', remoteJid: '+55 11 98888-0000', messageId: pollId });
		expect(votes.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/getPollVote/demo', status: 200, body: { message: { key: { id: pollId } }, remoteJid: CHAT } }]);
		expect(votes.items[0].json).toEqual({ poll: { name: 'Lunch?', totalVotes: 0, results: { Yes: { votes: 0, voters: [] }, No: { votes: 0, voters: [] } } } });
	});
});

describe('fields the server reads (2.3.7)', () => {
	const sandbox = useRelease('2.3.7');

	test('Send Template sends a Status Webhook URL, which the server posts the message\'s status updates to', async () => {
		const template = { instance: 'meta', resource: 'message', operation: 'sendTemplate', number: '5511988880000', templateName: picked('hello_world') };
		const result = await run(sandbox.current, { ...template, webhookUrl: ' https://n8n.example.com/webhook/status ' });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current).filter((request) => request.path.startsWith('/message/'))).toEqual([
			{ method: 'POST', path: '/message/sendTemplate/meta', status: 201, body: { number: '5511988880000', name: 'hello_world', language: 'en_US', webhookUrl: 'https://n8n.example.com/webhook/status' } },
		]);

		sandbox.current.clearRequests();
		const wrong = await run(sandbox.current, { ...template, webhookUrl: 'n8n.example.com/status' });
		expect(wrong.error?.message).toBe('"Status Webhook URL" must be an http:// or https:// address [item 0]');
		expect(sandbox.current.requests.filter((request) => request.path.startsWith('/message/'))).toEqual([]);
	});

	test('Chatbot behaviour fields are offered for every platform: Typebot\'s settings carry Keep Open, Debounce Time, Split Messages and Time per Character', async () => {
		const result = await run(sandbox.current, { resource: 'chatbot', operation: 'updateSettings', kind: 'typebot', settings: { keepOpen: true, debounceTime: 3, splitMessages: true, timePerChar: 40 } });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[1]).toEqual({
			method: 'POST',
			path: '/typebot/settings/demo',
			status: 200,
			body: { expire: 300, keywordFinish: 'bye', delayMessage: 1000, unknownMessage: 'Sorry, I dont understand', listeningFromMe: true, stopBotFromMe: true, keepOpen: true, debounceTime: 3, splitMessages: true, timePerChar: 40, ignoreJids: [] },
		});
		expect(result.items[0].json).toMatchObject({ keepOpen: true, debounceTime: 3, splitMessages: true, timePerChar: 40 });

		sandbox.current.clearRequests();
		const bot = await run(sandbox.current, {
			resource: 'chatbot',
			operation: 'create',
			kind: 'openai',
			botType: 'assistant',
			openaiCredsId: { __rl: true, mode: 'id', value: 'clx0credential0id' },
			assistantId: 'asst_1',
			triggerValue: 'split',
			options: { splitMessages: true, timePerChar: 25 },
		});
		expect(sent(sandbox.current)[0].body).toMatchObject({ splitMessages: true, timePerChar: 25 });
		expect(bot.error).toBeUndefined();
	});
});

describe('values the server refuses or cannot match', () => {
	const sandbox = useRelease('2.3.7');

	test('Get Media URL sends no Expiry (the server refuses every one, see below) and gets the 7-day link; Get Media has no Message Record ID filter', async () => {
		const media = await run(sandbox.current, { resource: 'message', operation: 'sendMedia', number: '5511988880000', mediaType: 'image', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.png' });
		expect(media.error).toBeUndefined();
		sandbox.current.clearRequests();
		// a workflow saved with the options offered before: n8n drops parameters the node no longer has
		const listed = await run(sandbox.current, { resource: 'storage', operation: 'getMedia', returnAll: true, filters: { type: 'imageMessage', messageId: 12 } });
		expect(listed.error).toBeUndefined();
		const id = listed.items[0].json.id as string;
		const link = await run(sandbox.current, { resource: 'storage', operation: 'getMediaUrl', mediaId: id, options: { expiry: 3600 } });
		expect(link.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/s3/getMedia/demo', status: 201, body: { type: 'imageMessage' } },
			{ method: 'POST', path: '/s3/getMediaUrl/demo', status: 200, body: { id } },
		]);
		expect(link.items[0].json.mediaUrl).toMatch(/X-Amz-Expires=604800/);

		// The server refuses an expiry both ways: as text its S3 client, as a number its schema.
		const withExpiry = async (expiry: unknown) =>
			await fetch(`${sandbox.current.url}/s3/getMediaUrl/demo`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', apikey: sandbox.current.apiKey },
				body: JSON.stringify({ id, expiry }),
			});
		const asText = await withExpiry('3600');
		const asNumber = await withExpiry(3600);
		expect([asText.status, asNumber.status]).toEqual([400, 400]);
		expect(JSON.stringify(await asText.json())).toContain('expires should be of type \\"number\\"');
		expect(JSON.stringify(await asNumber.json())).toContain('is not of a type(s) string');
	});

	test('an option given by an expression outside its options stops before sending (Template Category, Change Status)', async () => {
		const status = await run(sandbox.current, { resource: 'chatbot', operation: 'changeStatus', kind: 'typebot', remoteJid: CHAT, status: '={{ "stopped" }}' });
		expect(status.error?.message).toBe('"Status" must be one of "closed", "delete", "opened", "paused", not "stopped" [item 0]');
		const category = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'create', name: 'promo', category: '={{ "PROMOTION" }}', components: '[{"type":"BODY","text":"Hi"}]' });
		expect(category.error?.message).toBe('"Category" must be one of "AUTHENTICATION", "MARKETING", "UTILITY", not "PROMOTION" [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});
});

/** The operation with its required fields given (n8n runs no node with a required field empty). */
function requiredFilled(key: string): INodeParameters {
	const operation = OPERATIONS.find((entry) => `${entry.resource}.${entry.value}` === key);
	const parameters: INodeParameters = { resource: operation?.resource ?? '', operation: operation?.value ?? '' };
	for (const property of operation?.properties ?? []) {
		if (!property.required || property.name in parameters) continue;
		if (property.type === 'resourceLocator') parameters[property.name] = { __rl: true, mode: 'id', value: 'x1' };
		else if (property.type === 'number') parameters[property.name] = 1;
		else if (property.type === 'string' || property.type === 'json') parameters[property.name] = 'x1';
	}
	return parameters;
}

/** The values of other fields that show this one (Audio Source shows for a Status of type audio). */
function shownBy(key: string, path: string): INodeParameters {
	const operation = OPERATIONS.find((entry) => `${entry.resource}.${entry.value}` === key);
	const show = operation?.properties.find((property) => property.name === path)?.displayOptions?.show ?? {};
	return Object.fromEntries(Object.entries(show).filter(([name]) => !name.startsWith('/')).map(([name, values]) => [name, (values as INodeParameters[string][])[0]]));
}

/** Every option-type field of every operation, at the top level of its form. */
const OPTION_FIELDS = OPERATIONS.flatMap((operation) =>
	[...(labelsOf(operation).choices?.keys() ?? [])]
		.filter((path) => !path.includes('.'))
		.map((path) => ({
			key: `${operation.resource}.${operation.value}`,
			path,
			label: labelsOf(operation).get(path) ?? path,
			// a field that takes no expression (Bot Platform, Event Bus) gets the value as it is stored, e.g. by a newer package
			stored: operation.properties.find((property) => property.name === path)?.noDataExpression === true,
		})),
);

describe('every option-type field of every operation is checked against its options', () => {
	const sandbox = useRelease('2.4.0');

	test('the registry has option-type fields to check', () => {
		expect(OPTION_FIELDS.length).toBeGreaterThan(40);
	});

	test.each(OPTION_FIELDS)('$key: $label', async ({ key, path, label, stored }) => {
		const parameters: INodeParameters = { ...requiredFilled(key), ...shownBy(key, path), [path]: stored ? 'x-not-an-option' : '={{ "x-not-an-option" }}' };
		const result = await run(sandbox.current, parameters, { credentials: { serverVersion: '2.4.0' } });
		expect(result.error?.message).toMatch(new RegExp(`^"${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" must be one of .*, not "x-not-an-option" \\[item 0\\]$`));
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('failures reported as success', () => {
	const sandbox = useRelease('2.3.7', ['rabbitmq']);

	test('Start Typebot: the server\'s empty 200 (its call to Typebot failed) is an error with a hint', async () => {
		const settings = await run(sandbox.current, { resource: 'chatbot', operation: 'updateSettings', kind: 'typebot' });
		expect(settings.error).toBeUndefined();
		sandbox.current.clearRequests();

		const start = { resource: 'chatbot', operation: 'start', remoteJid: '5511988880000', typebot: 'lead-form' };
		const failed = await run(sandbox.current, { ...start, url: 'https://typebot.unreachable.invalid' });
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/typebot/start/demo', status: 200, body: { remoteJid: CHAT, url: 'https://typebot.unreachable.invalid', typebot: 'lead-form' } }]);
		expect(failed.error?.message).toBe('"Operation" failed on the server: it could not start the flow (it answered with nothing) [item 0]');
		expect((failed.error as { description?: string }).description).toMatch(/call to the Typebot server failed/);

		const started = await run(sandbox.current, { ...start, url: 'https://typebot.example.com' });
		expect(started.error).toBeUndefined();
		expect(started.items[0].json).toMatchObject({ typebot: { typebot: { remoteJid: CHAT, typebot: 'lead-form' } } });

		sandbox.current.clearRequests();
		const status = await run(sandbox.current, { ...start, remoteJid: 'status@broadcast', url: 'https://typebot.example.com' });
		expect(status.error?.message).toBe('"Chat" cannot be Status (status@broadcast): a Typebot flow starts in a chat [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Event Integration Get: a bus switched off in the server\'s environment is an error naming its setting; one never set is off', async () => {
		const off = await run(sandbox.current, { resource: 'eventIntegration', operation: 'get', kind: 'rabbitmq' });
		const never = await run(sandbox.current, { resource: 'eventIntegration', operation: 'get', kind: 'nats' });
		expect(sent(sandbox.current)).toEqual([
			{ method: 'GET', path: '/rabbitmq/find/demo', status: 200, body: undefined },
			{ method: 'GET', path: '/nats/find/demo', status: 200, body: undefined },
		]);
		expect(off.error?.message).toBe('"Operation" cannot read it: the RabbitMQ integration is turned off on the server [item 0]');
		expect((off.error as { description?: string }).description).toBe('The server\'s administrator turns it on with RABBITMQ_ENABLED=true in its environment.');
		expect(never.items.map((item) => item.json)).toEqual([{ enabled: false, events: [] }]);

		const set = await run(sandbox.current, { resource: 'eventIntegration', operation: 'set', kind: 'rabbitmq', events: ['CALL'] });
		expect(set.error?.message).toBe('"Operation" was not saved: the RabbitMQ integration is turned off on the server [item 0]');
	});
});

describe('errors about the operation name it as the user sees it', () => {
	const older = useRelease('2.3.7');

	test('an operation of a newer server: "Group → Update Member Add Mode needs Evolution API 2.4 or newer; this server is 2.3.7"', async () => {
		const result = await run(older.current, { resource: 'group', operation: 'updateMemberAddMode', groupJid: picked(GROUP), mode: 'all_member_add' }, { credentials: { serverVersion: '2.3.7' } });
		expect(result.error?.message).toBe('Group → Update Member Add Mode needs Evolution API 2.4 or newer; this server is 2.3.7 [item 0]');
		expect(older.current.requests).toEqual([]);
	});

	test('an operation of v2.x servers with the documented dialect names the dialect', async () => {
		const result = await run(older.current, { resource: 'profile', operation: 'getPrivacy' }, { credentials: { dialect: 'documented' } });
		expect(result.error?.message).toBe('Profile → Get Privacy needs an Evolution API v2.x server; the credential\'s Server Dialect is the documented interface [item 0]');
		expect(older.current.requests).toEqual([]);
	});
});
