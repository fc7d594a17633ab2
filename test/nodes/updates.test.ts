import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/MessagingInstance/actions/index';
import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { declareSecrets } from '../harness/secrets';
import { run, sent } from './helpers';

/**
 * An update changes only what the user set. Every operation that sets, updates or changes
 * something declares how (`update`: it sends only what the item sets, or it reads the stored
 * object and writes it back with the item's fields over it), and here each one runs as a fresh
 * node — only its required fields given, its options never opened — against a v2 sandbox that
 * already holds something else: what was sent, and that what the user did not set is still
 * stored. The list of cases is checked against the registry, so a new update operation without
 * a case fails here.
 */

const GROUP = '120363000000000777@g.us';
const CHATWOOT_TOKEN = 'cw-token-kept-0123456789';
const NEW_CHATWOOT_TOKEN = 'cw-token-new-9876543210';
const picked = (value: string) => ({ __rl: true, mode: 'list', value });

type Case = (sandbox: Sandbox) => Promise<void>;

async function stored(sandbox: Sandbox, parameters: INodeParameters): Promise<IDataObject> {
	const read = await run(sandbox, parameters);
	expect(read.error).toBeUndefined();
	return read.items[0].json;
}

/** Runs the fresh node and expects exactly one request with this body, answered 2xx. */
function sendsOnly(parameters: INodeParameters, path: string, body: IDataObject, query?: IDataObject): Case {
	return async (sandbox) => {
		const result = await run(sandbox, parameters);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests.map((request) => ({ path: request.path, body: request.body, ok: request.status < 300, ...(query ? { query: request.query } : {}) }));
		expect(requests).toEqual([{ path, body, ok: true, ...(query ? { query } : {}) }]);
	};
}

const PRIVACY_STORED = { readreceipts: 'none', profile: 'contacts', status: 'none', online: 'match_last_seen', last: 'none', groupadd: 'contacts' };

const CASES: Record<string, Case> = {
	'profile.updatePrivacy': async (sandbox) => {
		const seeded = await run(sandbox, { resource: 'profile', operation: 'updatePrivacy', readReceipts: 'none', profilePicture: 'contacts', statusPrivacy: 'none', online: 'match_last_seen', lastSeen: 'none', groupAdd: 'contacts' });
		expect(seeded.error).toBeUndefined();
		sandbox.clearRequests();

		const changed = await run(sandbox, { resource: 'profile', operation: 'updatePrivacy', readReceipts: 'all' });
		expect(changed.error).toBeUndefined();
		expect(sent(sandbox)).toEqual([
			{ method: 'GET', path: '/chat/fetchPrivacySettings/demo', body: undefined, status: 200 },
			{ method: 'POST', path: '/chat/updatePrivacySettings/demo', body: { ...PRIVACY_STORED, readreceipts: 'all' }, status: 201 },
		]);
		expect(await stored(sandbox, { resource: 'profile', operation: 'getPrivacy' })).toEqual({ ...PRIVACY_STORED, readreceipts: 'all' });

		// A fresh node sets nothing: it fails before any request instead of writing the six back.
		sandbox.clearRequests();
		const fresh = await run(sandbox, { resource: 'profile', operation: 'updatePrivacy' });
		expect(fresh.error?.message).toBe('"Operation" has no setting to change [item 0]');
		expect(sandbox.requests).toEqual([]);
	},
	'chatwoot.set': async (sandbox) => {
		declareSecrets(CHATWOOT_TOKEN, NEW_CHATWOOT_TOKEN);
		const connection = { url: 'https://chatwoot.example.com', accountId: '7', token: CHATWOOT_TOKEN };
		const seeded = await run(sandbox, { resource: 'chatwoot', operation: 'set', ...connection, options: { signMsg: true, reopenConversation: true, signDelimiter: '--', nameInbox: 'Support', ignoreJids: '@g.us' } });
		expect(seeded.error).toBeUndefined();
		sandbox.clearRequests();

		// Switched off: the stored connection goes back with enabled false, nothing wiped.
		const off = await run(sandbox, { resource: 'chatwoot', operation: 'set', chatwootEnabled: false });
		expect(off.error).toBeUndefined();
		expect(sent(sandbox)).toEqual([
			{ method: 'GET', path: '/chatwoot/find/demo', body: undefined, status: 200 },
			{
				method: 'POST',
				path: '/chatwoot/set/demo',
				body: { ...connection, nameInbox: 'Support', signMsg: true, reopenConversation: true, conversationPending: false, signDelimiter: '--', enabled: false },
				status: 201,
			},
		]);
		expect(off.items[0].json).toMatchObject({ enabled: false, token: '[redacted]' });
		expect(await stored(sandbox, { resource: 'chatwoot', operation: 'get' })).toMatchObject({ enabled: false, ...connection, token: '[redacted]', nameInbox: 'Support', signDelimiter: '--', ignoreJids: ['@g.us'] });

		// Switched on again with a new token from a fresh node: the switches, inbox name, delimiter and ignored chats stay.
		sandbox.clearRequests();
		const on = await run(sandbox, { resource: 'chatwoot', operation: 'set', ...connection, token: NEW_CHATWOOT_TOKEN });
		expect(on.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			undefined,
			{ ...connection, token: NEW_CHATWOOT_TOKEN, nameInbox: 'Support', signMsg: true, reopenConversation: true, conversationPending: false, signDelimiter: '--', enabled: true },
		]);
		expect(await stored(sandbox, { resource: 'chatwoot', operation: 'get' })).toMatchObject({ enabled: true, nameInbox: 'Support', signMsg: true, reopenConversation: true, signDelimiter: '--', ignoreJids: ['@g.us'] });
	},
	'chatbot.updateSettings': async (sandbox) => {
		const seeded = await run(sandbox, { resource: 'chatbot', operation: 'updateSettings', kind: 'dify', settings: { ignoreJids: '@g.us', expire: 20, keywordFinish: '#stop' } });
		expect(seeded.error).toBeUndefined();
		sandbox.clearRequests();

		const fresh = await run(sandbox, { resource: 'chatbot', operation: 'updateSettings', kind: 'dify' });
		expect(fresh.error).toBeUndefined();
		const [read, write] = sent(sandbox);
		expect(read).toEqual({ method: 'GET', path: '/dify/fetchSettings/demo', body: undefined, status: 200 });
		expect(write).toMatchObject({ method: 'POST', path: '/dify/settings/demo', status: 200, body: { expire: 20, keywordFinish: '#stop', ignoreJids: ['@g.us'] } });
		expect(await stored(sandbox, { resource: 'chatbot', operation: 'getSettings', kind: 'dify' })).toMatchObject({ expire: 20, keywordFinish: '#stop', ignoreJids: ['@g.us'] });

		// One setting changed: only it; the rest as stored.
		sandbox.clearRequests();
		const one = await run(sandbox, { resource: 'chatbot', operation: 'updateSettings', kind: 'dify', settings: { expire: 5 } });
		expect(one.error).toBeUndefined();
		expect(sent(sandbox)[1].body).toMatchObject({ expire: 5, keywordFinish: '#stop', ignoreJids: ['@g.us'] });
	},
	'chatbot.update': async (sandbox) => {
		const bot = { kind: 'typebot', url: 'https://typebot.example.com', typebot: 'kept-options', triggerValue: 'kept' };
		const created = await run(sandbox, { resource: 'chatbot', operation: 'create', ...bot, options: { expire: 20, keepOpen: true, ignoreJids: '@g.us' } });
		expect(created.error).toBeUndefined();
		const id = created.items[0].json.id as string;
		sandbox.clearRequests();

		const fresh = await run(sandbox, { resource: 'chatbot', operation: 'update', ...bot, botId: picked(id), triggerValue: 'renamed' });
		expect(fresh.error).toBeUndefined();
		expect(sent(sandbox)).toEqual([
			{ method: 'PUT', path: `/typebot/update/${id}/demo`, status: 200, body: { enabled: true, url: bot.url, typebot: bot.typebot, triggerType: 'keyword', triggerOperator: 'equals', triggerValue: 'renamed' } },
		]);
		expect(await stored(sandbox, { resource: 'chatbot', operation: 'get', kind: 'typebot', botId: picked(id) })).toMatchObject({ triggerValue: 'renamed', expire: 20, keepOpen: true, ignoreJids: ['@g.us'] });
	},
	'webhook.set': async (sandbox) => {
		// Headers the node does not offer (a trigger's secret header, set by another client) stay.
		const response = await fetch(`${sandbox.url}/webhook/set/demo`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', apikey: sandbox.apiKey },
			body: JSON.stringify({ webhook: { enabled: true, url: 'https://old.example.com/hook', events: ['CALL'], headers: { 'x-kept': 'yes' } } }),
		});
		expect(response.status).toBe(201);
		sandbox.clearRequests();

		await sendsOnly({ resource: 'webhook', operation: 'set', url: 'https://n8n.example.com/webhook/new' }, '/webhook/set/demo', {
			webhook: { enabled: true, url: 'https://n8n.example.com/webhook/new', byEvents: false, base64: false, events: ['MESSAGES_UPSERT'] },
		})(sandbox);
		expect(sandbox.webhookOf('demo')).toMatchObject({ url: 'https://n8n.example.com/webhook/new', headers: { 'x-kept': 'yes' } });
	},
	// The fields below are all on the form (none hidden, no options collection): the body is what the editor shows.
	'settings.set': sendsOnly({ resource: 'settings', operation: 'set' }, '/settings/set/demo', {
		rejectCall: false,
		msgCall: '',
		groupsIgnore: false,
		alwaysOnline: false,
		readMessages: false,
		readStatus: false,
		syncFullHistory: false,
	}),
	'proxy.set': sendsOnly({ resource: 'proxy', operation: 'set', host: 'proxy.example.com', port: '8080' }, '/proxy/set/demo', {
		enabled: true,
		host: 'proxy.example.com',
		port: '8080',
		protocol: 'http',
		username: '',
		password: '',
	}),
	'eventIntegration.set': sendsOnly({ resource: 'eventIntegration', operation: 'set', kind: 'nats' }, '/nats/set/demo', { nats: { enabled: true, events: [] } }),
	'template.update': async (sandbox) => {
		// Nothing to change: it fails before any request rather than send an empty edit.
		const result = await run(sandbox, { resource: 'template', operation: 'update', instance: 'cloud', templateId: { __rl: true, mode: 'id', value: '1234567890123456' } });
		expect(result.error?.message).toBe('"Update Fields" needs at least one field to change [item 0]');
		expect(sandbox.requests.filter((request) => request.path.startsWith('/template/'))).toEqual([]);
	},
	// One value each, the one the operation is for.
	'profile.updateName': sendsOnly({ resource: 'profile', operation: 'updateName', name: 'Ana' }, '/chat/updateProfileName/demo', { name: 'Ana' }),
	'profile.updateStatus': sendsOnly({ resource: 'profile', operation: 'updateStatus', status: 'Busy' }, '/chat/updateProfileStatus/demo', { status: 'Busy' }),
	'profile.updatePicture': sendsOnly({ resource: 'profile', operation: 'updatePicture', mediaSource: 'url', mediaUrl: 'https://files.example.com/me.jpg' }, '/chat/updateProfilePicture/demo', {
		picture: 'https://files.example.com/me.jpg',
	}),
	'group.updateSubject': sendsOnly({ resource: 'group', operation: 'updateSubject', groupJid: picked(GROUP), subject: 'Team' }, '/group/updateGroupSubject/demo', { subject: 'Team' }, { groupJid: GROUP }),
	'group.updateDescription': sendsOnly({ resource: 'group', operation: 'updateDescription', groupJid: picked(GROUP), description: 'About' }, '/group/updateGroupDescription/demo', { description: 'About' }, { groupJid: GROUP }),
	'group.updatePicture': sendsOnly({ resource: 'group', operation: 'updatePicture', groupJid: picked(GROUP), mediaSource: 'url', mediaUrl: 'https://files.example.com/g.jpg' }, '/group/updateGroupPicture/demo', { image: 'https://files.example.com/g.jpg' }, { groupJid: GROUP }),
	'group.updateSetting': sendsOnly({ resource: 'group', operation: 'updateSetting', groupJid: picked(GROUP) }, '/group/updateSetting/demo', { action: 'announcement' }, { groupJid: GROUP }),
	'group.setEphemeral': sendsOnly({ resource: 'group', operation: 'setEphemeral', groupJid: picked(GROUP) }, '/group/toggleEphemeral/demo', { expiration: 86400 }, { groupJid: GROUP }),
	'group.updateParticipants': sendsOnly({ resource: 'group', operation: 'updateParticipants', groupJid: picked(GROUP), participants: '5511977770000' }, '/group/updateParticipant/demo', { action: 'add', participants: ['5511977770000'] }, { groupJid: GROUP }),
	'group.updateMemberAddMode': async () => {
		// a route of 2.4: its own sandbox
		const newer = await startSandbox({ dialect: 'v2', version: '2.4.0', instances: [{ name: 'demo', token: 'demo-token' }] });
		try {
			newer.addGroup('demo', { id: GROUP, subject: 'Team', participants: ['5511988880000'] });
			await sendsOnly({ resource: 'group', operation: 'updateMemberAddMode', groupJid: picked(GROUP) }, '/group/updateMemberAddMode/demo', { groupJid: GROUP, mode: 'admin_add' }, { groupJid: GROUP })(newer);
		} finally {
			await newer.close();
		}
	},
	'chat.updateMessage': sendsOnly({ resource: 'chat', operation: 'updateMessage', number: '5511999990000', text: 'edited', remoteJid: '5511999990000@s.whatsapp.net', messageId: '3EB0NOTSENT' }, '/chat/updateMessage/demo', {
		number: '5511999990000',
		text: 'edited',
		key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: '3EB0NOTSENT' },
	}),
	'chatbot.changeStatus': sendsOnly({ resource: 'chatbot', operation: 'changeStatus', kind: 'typebot', remoteJid: '5511999990000' }, '/typebot/changeStatus/demo', { remoteJid: '5511999990000@s.whatsapp.net', status: 'paused' }),
	'instance.setPresence': sendsOnly({ resource: 'instance', operation: 'setPresence' }, '/instance/setPresence/demo', { presence: 'available' }),
	'contact.updateBlock': sendsOnly({ resource: 'contact', operation: 'updateBlock', number: '5511988880000' }, '/chat/updateBlockStatus/demo', { number: '5511988880000', status: 'block' }),
};

const keyOf = (operation: Operation) => `${operation.resource}.${operation.value}`;
const UPDATES = OPERATIONS.filter((operation) => operation.update !== undefined);

describe('Updates change only what the user set', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo', token: 'demo-token' }, { name: 'cloud', token: 'cloud-token', integration: 'WHATSAPP-BUSINESS' }] });
		declareSecrets('demo-token', 'cloud-token');
		sandbox.addGroup('demo', { id: GROUP, subject: 'Team', participants: ['5511988880000'] });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.clearRequests());

	test('every operation that sets, updates or changes something declares how it keeps the rest', () => {
		const undeclared = OPERATIONS.filter((operation) => /^(set|update|change)/.test(operation.value) && operation.update === undefined).map(keyOf);
		expect(undeclared).toEqual([]);
	});

	test('every operation that declares it has a fresh-node case here', () => {
		expect(UPDATES.map(keyOf).filter((key) => CASES[key] === undefined)).toEqual([]);
		expect(Object.keys(CASES).filter((key) => !UPDATES.some((operation) => keyOf(operation) === key))).toEqual([]);
	});

	test.each(UPDATES.map((operation) => [keyOf(operation), operation.update?.rule]))('%s (%s): a fresh node changes nothing the user did not set', async (key) => {
		await CASES[key](sandbox);
	});
});
