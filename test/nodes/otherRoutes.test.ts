import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { TINY_PNG_BASE64 } from '../../sandbox/messages';
import type { ServerVersion } from '../../sandbox/versions';
import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { runNode } from '../harness/engine';
import { loadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
import { declareSecrets } from '../harness/secrets';
import { credentialsFor, run, sent, useSandbox } from './helpers';

/**
 * The profile, proxy, business, template, storage and Chatwoot resources and the routes added
 * to Chat, Message and Group, against a v2 sandbox: the exact request each sends (fresh-node
 * defaults unless a test opens options), what came back, and the checks that stop an item
 * before sending. Secrets these routes carry (proxy password, Chatwoot token) are declared to
 * the harness, which fails any test whose output or stored run shows them.
 */

const PROXY_PASSWORD = 'proxy-pass-7c1e9b55';
const CHATWOOT_TOKEN = 'cw-token-4f0a2d8e61';
declareSecrets(PROXY_PASSWORD, CHATWOOT_TOKEN);

const CHAT = '5511988880000@s.whatsapp.net';
const picked = (value: string) => ({ __rl: true, mode: 'list', value });
const jsons = (result: { items: Array<{ json: IDataObject }> }) => result.items.map((item) => item.json);

describe('Profile', () => {
	const sandbox = useSandbox('v2');

	test('Update Name and Update Status send the text as typed', async () => {
		const name = await run(sandbox.current, { resource: 'profile', operation: 'updateName', name: 'Acme Support' });
		const status = await run(sandbox.current, { resource: 'profile', operation: 'updateStatus', status: 'Open 9–18' });
		expect(name.error).toBeUndefined();
		expect(status.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/updateProfileName/demo', status: 200, body: { name: 'Acme Support' } },
			{ method: 'POST', path: '/chat/updateProfileStatus/demo', status: 200, body: { status: 'Open 9–18' } },
		]);
		expect([...jsons(name), ...jsons(status)]).toEqual([{ update: 'success' }, { update: 'success' }]);
	});

	test('Update Name refuses a blank name before sending, naming field and item', async () => {
		const result = await run(sandbox.current, { resource: 'profile', operation: 'updateName', name: '   ' });
		expect(result.error?.message).toBe('"Name" is required [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Update Picture sends a binary image as base64, a URL as it is', async () => {
		const png = Buffer.from(TINY_PNG_BASE64, 'base64');
		const fromBinary = await runNode({
			parameters: { instance: 'demo', resource: 'profile', operation: 'updatePicture' },
			items: [{}],
			files: [{ data: { base64: png.toString('base64'), mimeType: 'image/png', fileName: 'me.png' } }],
			credentials: credentialsFor(sandbox.current),
		});
		const fromUrl = await run(sandbox.current, { resource: 'profile', operation: 'updatePicture', mediaSource: 'url', mediaUrl: 'https://files.example.com/me.jpg' });
		expect(fromBinary.error).toBeUndefined();
		expect(fromUrl.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/updateProfilePicture/demo', status: 200, body: { picture: png.toString('base64') } },
			{ method: 'POST', path: '/chat/updateProfilePicture/demo', status: 200, body: { picture: 'https://files.example.com/me.jpg' } },
		]);
		expect([...jsons(fromBinary), ...jsons(fromUrl)]).toEqual([{ update: 'success' }, { update: 'success' }]);
	});

	test('Update Picture refuses a file that is not an image before sending', async () => {
		const result = await runNode({
			parameters: { instance: 'demo', resource: 'profile', operation: 'updatePicture' },
			items: [{}],
			files: [{ data: { base64: Buffer.from('%PDF-1.4').toString('base64'), mimeType: 'application/pdf', fileName: 'a.pdf' } }],
			credentials: credentialsFor(sandbox.current),
		});
		expect(result.error?.message).toMatch(/^"File" is image, but the file is "application\/pdf"/);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Remove Picture is a DELETE without a body', async () => {
		const result = await run(sandbox.current, { resource: 'profile', operation: 'removePicture' });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map(({ method, path, rawBody }) => ({ method, path, rawBody }))).toEqual([
			{ method: 'DELETE', path: '/chat/removeProfilePicture/demo', rawBody: '' },
		]);
		expect(jsons(result)).toEqual([{ update: 'success' }]);
	});

	test('Update Privacy from a fresh node sends all six settings; Get Privacy reads them back', async () => {
		const fresh = await run(sandbox.current, { resource: 'profile', operation: 'updatePrivacy' });
		const changed = await run(sandbox.current, { resource: 'profile', operation: 'updatePrivacy', lastSeen: 'none', online: 'match_last_seen', readReceipts: 'none' });
		const read = await run(sandbox.current, { resource: 'profile', operation: 'getPrivacy' });
		expect([fresh.error, changed.error, read.error]).toEqual([undefined, undefined, undefined]);
		const defaults = { readreceipts: 'all', profile: 'all', status: 'contacts', online: 'all', last: 'all', groupadd: 'all' };
		const after = { ...defaults, readreceipts: 'none', online: 'match_last_seen', last: 'none' };
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/updatePrivacySettings/demo', status: 201, body: defaults },
			{ method: 'POST', path: '/chat/updatePrivacySettings/demo', status: 201, body: after },
			{ method: 'GET', path: '/chat/fetchPrivacySettings/demo', status: 200, body: undefined },
		]);
		expect(jsons(changed)).toEqual([{ update: 'success', data: after }]);
		expect(jsons(read)).toEqual([after]);
	});

	test('Update Privacy refuses a value outside its list, naming the field', async () => {
		const result = await run(sandbox.current, { resource: 'profile', operation: 'updatePrivacy', groupAdd: '={{ "everybody" }}' });
		expect(result.error?.message).toBe('"Groups Add" must be one of all, contacts, contact_blacklist, none, not "everybody" [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Get Business Profile: own account from a fresh node, another number normalised', async () => {
		const own = await run(sandbox.current, { resource: 'profile', operation: 'getBusinessProfile' });
		const other = await run(sandbox.current, { resource: 'profile', operation: 'getBusinessProfile', number: '+55 11 98888-0000' });
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/fetchBusinessProfile/demo', status: 200, body: undefined },
			{ method: 'POST', path: '/chat/fetchBusinessProfile/demo', status: 200, body: { number: '5511988880000' } },
		]);
		expect(own.items[0].json).toMatchObject({ isBusiness: true, description: expect.any(String), category: 'Shopping & retail' });
		expect(jsons(other)).toEqual([{ isBusiness: false, message: 'Not is business profile', exists: true, jid: CHAT, number: '5511988880000' }]);
	});

	test('Profile operations need a v2 server: the documented dialect fails before any request', async () => {
		const documented = await startSandbox({ dialect: 'documented' });
		try {
			const result = await run(documented, { resource: 'profile', operation: 'getPrivacy' });
			expect(result.error?.message).toBe('"Operation" Get Privacy needs a v2.x server [item 0]');
			expect(documented.requests).toEqual([]);
		} finally {
			await documented.close();
		}
	});
});

describe('Chat → Get, Message → Get Receipts, Group → Get Invite Info / Accept Invite', () => {
	const sandbox = useSandbox('v2');
	beforeEach(async () => {
		await sandbox.current.injectMessage('demo', { from: '5511988880000', id: '3EB0IN', text: 'hello' });
		sandbox.current.clearRequests();
	});

	test('Get Chat: a number becomes its JID in the query; the chat comes back', async () => {
		const result = await run(sandbox.current, { resource: 'chat', operation: 'get', remoteJid: '+55 11 98888-0000' });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
			{ method: 'GET', path: '/chat/findChatByRemoteJid/demo', query: { remoteJid: CHAT } },
		]);
		expect(jsons(result)).toEqual([expect.objectContaining({ remoteJid: CHAT, unreadMessages: 0, instanceId: expect.any(String) })]);
	});

	test('Get Chat: the server\'s 200 null for an unknown chat is an error naming the field', async () => {
		const result = await run(sandbox.current, { resource: 'chat', operation: 'get', remoteJid: '5511977770000@s.whatsapp.net' });
		expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: '/chat/findChatByRemoteJid/demo', status: 200, body: undefined }]);
		expect(result.error?.message).toBe('"Chat (Remote JID)" names no chat of this instance [item 0]');
	});

	test('Get Receipts: pages of `offset` numbered by `page`, filtered by chat and message', async () => {
		for (const text of ['one', 'two', 'three']) await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '5511988880000', text });
		sandbox.current.clearRequests();
		const limited = await run(sandbox.current, { resource: 'message', operation: 'getReceipts', limit: 2, filters: { remoteJid: '5511988880000' } });
		expect(limited.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/findStatusMessage/demo', status: 200, body: { where: { remoteJid: CHAT }, page: 1, offset: 2 } }]);
		expect(jsons(limited)).toHaveLength(2);
		for (const receipt of jsons(limited)) expect(receipt).toMatchObject({ remoteJid: CHAT, fromMe: true, status: 'DELIVERY_ACK', keyId: expect.any(String) });

		sandbox.current.clearRequests();
		const id = jsons(limited)[0].keyId as string;
		const one = await run(sandbox.current, { resource: 'message', operation: 'getReceipts', returnAll: true, filters: { messageId: ` ${id} ` } });
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/findStatusMessage/demo', status: 200, body: { where: { id }, page: 1, offset: 50 } }]);
		expect(jsons(one).map((receipt) => receipt.keyId)).toEqual([id]);
	});

	test('Get Receipts from a fresh node asks the first page of 50 without filters', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'getReceipts' });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/chat/findStatusMessage/demo', status: 200, body: { where: {}, page: 1, offset: 50 } }]);
	});

	test('Get Invite Info and Accept Invite: a link is cut to its code; accepting joins the group', async () => {
		const group = '120363000000000077@g.us';
		sandbox.current.addInstance('owner');
		sandbox.current.addGroup('owner', { id: group, subject: 'Partners', participants: ['5511988880000'] });
		const code = await run(sandbox.current, { instance: 'owner', resource: 'group', operation: 'getInviteCode', groupJid: picked(group) });
		const inviteCode = code.items[0].json.inviteCode as string;
		sandbox.current.clearRequests();
		const info = await run(sandbox.current, { resource: 'group', operation: 'getInviteInfo', inviteCode: `https://chat.whatsapp.com/${inviteCode}` });
		const accepted = await run(sandbox.current, { resource: 'group', operation: 'acceptInvite', inviteCode });
		expect([info.error, accepted.error]).toEqual([undefined, undefined]);
		expect(sandbox.current.requests.map(({ method, path, query, status }) => ({ method, path, query, status }))).toEqual([
			{ method: 'GET', path: '/group/inviteInfo/demo', query: { inviteCode }, status: 200 },
			{ method: 'GET', path: '/group/acceptInviteCode/demo', query: { inviteCode }, status: 200 },
		]);
		expect(info.items[0].json).toMatchObject({ id: group, subject: 'Partners', size: 2 });
		expect(jsons(accepted)).toEqual([{ accepted: true, groupJid: group }]);
	});

	test('an invite code that is not 22 letters and digits is refused before sending', async () => {
		const result = await run(sandbox.current, { resource: 'group', operation: 'acceptInvite', inviteCode: 'https://chat.whatsapp.com/short' });
		expect(result.error?.message).toBe('"Invite Code" must be an invite code of 22 letters and digits, or a link https://chat.whatsapp.com/<code> [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('Proxy and Chatwoot: secrets can be set and never come back', () => {
	const sandbox = useSandbox('v2');

	test('Proxy → Set sends host, port, protocol and credentials; Get outputs the proxy without its password', async () => {
		const set = await run(sandbox.current, { resource: 'proxy', operation: 'set', host: ' proxy.example.com ', port: '3128', protocol: 'socks5', username: 'alice', password: PROXY_PASSWORD });
		const got = await run(sandbox.current, { resource: 'proxy', operation: 'get' });
		expect([set.error, got.error]).toEqual([undefined, undefined]);
		expect(sent(sandbox.current).map(({ method, path, body, status }) => ({ method, path, body, status }))).toEqual([
			{ method: 'POST', path: '/proxy/set/demo', status: 201, body: { enabled: true, host: 'proxy.example.com', port: '3128', protocol: 'socks5', username: 'alice', password: PROXY_PASSWORD } },
			{ method: 'GET', path: '/proxy/find/demo', status: 200, body: undefined },
		]);
		expect(jsons(set)).toEqual([
			{ proxy: { instanceName: 'demo', proxy: { enabled: true, host: 'proxy.example.com', port: '3128', protocol: 'socks5', username: 'alice', password: '[redacted]' } } },
		]);
		expect(jsons(got)).toEqual([expect.objectContaining({ enabled: true, host: 'proxy.example.com', port: '3128', username: 'alice', password: '[redacted]' })]);
	});

	test('Proxy → Set turned off sends every field empty; Get of an instance without a proxy outputs enabled: false', async () => {
		const fresh = await startSandbox({ dialect: 'v2' });
		try {
			const got = await run(fresh, { resource: 'proxy', operation: 'get' });
			const off = await run(fresh, { resource: 'proxy', operation: 'set', proxyEnabled: false });
			expect(sent(fresh)).toEqual([
				{ method: 'GET', path: '/proxy/find/demo', status: 200, body: undefined },
				{ method: 'POST', path: '/proxy/set/demo', status: 201, body: { enabled: false, host: '', port: '', protocol: '', username: '', password: '' } },
			]);
			expect(jsons(got)).toEqual([{ enabled: false }]);
			expect(off.error).toBeUndefined();
		} finally {
			await fresh.close();
		}
	});

	test('Proxy → Set refuses a port out of range and a host with a scheme, naming the field', async () => {
		const port = await run(sandbox.current, { resource: 'proxy', operation: 'set', host: 'proxy.example.com', port: '70000' });
		const host = await run(sandbox.current, { resource: 'proxy', operation: 'set', host: 'http://proxy.example.com', port: '80' });
		expect(port.error?.message).toBe('"Port" must be a port number between 1 and 65535 [item 0]');
		expect(host.error?.message).toBe('"Host" must be a host name or IP address only (no scheme, path or user) [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Chatwoot → Set sends the seven keys the schema wants plus the inbox name; the token never comes back', async () => {
		const set = await run(sandbox.current, {
			resource: 'chatwoot',
			operation: 'set',
			url: 'https://chatwoot.example.com',
			accountId: '7',
			token: CHATWOOT_TOKEN,
			options: { nameInbox: 'Sales', ignoreJids: '@g.us, 5511977770000@s.whatsapp.net', daysLimitImportMessages: 5, importMessages: true },
		});
		const got = await run(sandbox.current, { resource: 'chatwoot', operation: 'get' });
		expect([set.error, got.error]).toEqual([undefined, undefined]);
		expect(sent(sandbox.current)).toEqual([
			{
				method: 'POST',
				path: '/chatwoot/set/demo',
				status: 201,
				body: {
					enabled: true,
					accountId: '7',
					token: CHATWOOT_TOKEN,
					url: 'https://chatwoot.example.com',
					signMsg: false,
					reopenConversation: false,
					conversationPending: false,
					nameInbox: 'Sales',
					daysLimitImportMessages: 5,
					ignoreJids: ['@g.us', '5511977770000@s.whatsapp.net'],
					importMessages: true,
				},
			},
			{ method: 'GET', path: '/chatwoot/find/demo', status: 200, body: undefined },
		]);
		for (const output of [...jsons(set), ...jsons(got)]) {
			expect(output).toMatchObject({ enabled: true, accountId: '7', token: '[redacted]', nameInbox: 'Sales', webhook_url: 'http://localhost:8080/chatwoot/webhook/demo' });
		}
	});

	test('Set with options never opened: Proxy sends HTTP and empty credentials, Chatwoot the seven keys and an empty inbox name', async () => {
		const fresh = await startSandbox({ dialect: 'v2' });
		try {
			const proxy = await run(fresh, { resource: 'proxy', operation: 'set', host: 'proxy.example.com', port: 8080 });
			const chatwoot = await run(fresh, { resource: 'chatwoot', operation: 'set', url: 'https://chatwoot.example.com', accountId: 1, token: CHATWOOT_TOKEN });
			expect([proxy.error, chatwoot.error]).toEqual([undefined, undefined]);
			expect(sent(fresh)).toEqual([
				{ method: 'POST', path: '/proxy/set/demo', status: 201, body: { enabled: true, host: 'proxy.example.com', port: '8080', protocol: 'http', username: '', password: '' } },
				{
					method: 'POST',
					path: '/chatwoot/set/demo',
					status: 201,
					body: { enabled: true, accountId: '1', token: CHATWOOT_TOKEN, url: 'https://chatwoot.example.com', signMsg: false, reopenConversation: false, conversationPending: false, nameInbox: '' },
				},
			]);
			expect(chatwoot.items[0].json).toMatchObject({ nameInbox: 'demo', token: '[redacted]' });
		} finally {
			await fresh.close();
		}
	});

	test('Chatwoot → Set refuses a blank token and an address without http(s), naming the field', async () => {
		const token = await run(sandbox.current, { resource: 'chatwoot', operation: 'set', url: 'https://chatwoot.example.com', accountId: '7', token: ' ' });
		const url = await run(sandbox.current, { resource: 'chatwoot', operation: 'set', url: 'chatwoot.example.com', accountId: '7', token: CHATWOOT_TOKEN });
		expect(token.error?.message).toBe('"API Access Token" is required [item 0]');
		expect(url.error?.message).toBe('"Chatwoot URL" must be an http:// or https:// address [item 0]');
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('Business catalogs', () => {
	const sandbox = useSandbox('v2');

	test('Get Catalog: Limit goes as the page size and cuts the products; one item each', async () => {
		const result = await run(sandbox.current, { resource: 'business', operation: 'getCatalog', limit: 3 });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/business/getCatalog/demo', status: 200, body: { limit: 3 } }]);
		expect(jsons(result).map((product) => product.name)).toEqual(['Product 1', 'Product 2', 'Product 3']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	test('Get Catalog with Return All sends no limit and outputs what the server read', async () => {
		const result = await run(sandbox.current, { resource: 'business', operation: 'getCatalog', returnAll: true });
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/business/getCatalog/demo', status: 200, body: undefined }]);
		expect(result.items).toHaveLength(12);
	});

	test('Get Collections: at most 20 asked; a number that is no business account is an error naming Number', async () => {
		const fresh = await run(sandbox.current, { resource: 'business', operation: 'getCollections', limit: 50 });
		const other = await run(sandbox.current, { resource: 'business', operation: 'getCollections', number: '5511988880000' });
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/business/getCollections/demo', status: 200, body: { limit: 20 } },
			{ method: 'POST', path: '/business/getCollections/demo', status: 200, body: { number: '5511988880000', limit: 20 } },
		]);
		expect(jsons(fresh).map((collection) => collection.name)).toEqual(['Summer', 'Winter', 'Sale']);
		expect(other.error?.message).toBe('"Number" has no collections the server could read (not a WhatsApp Business account, or its catalog is empty or hidden) [item 0]');
	});
});

/** A v2 sandbox of this release with a Baileys instance `demo` and a Cloud API instance `meta`. */
function useCloudSandbox(version: ServerVersion): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeAll(async () => {
		holder.current = await startSandbox({ dialect: 'v2', version, instances: [{ name: 'demo' }, { name: 'meta', integration: 'WHATSAPP-BUSINESS' }] });
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => holder.current.clearRequests());
	return holder;
}

const LOOKUP = (instance: string) => ({ method: 'GET', path: '/instance/fetchInstances', query: { instanceName: instance } });
const requestLines = (sandbox: Sandbox) => sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, ...(body !== undefined ? { body } : {}) }));

describe('Templates (Cloud API instances)', () => {
	const sandbox = useCloudSandbox('2.3.7');
	const components = [{ type: 'BODY', text: 'Order {{1}} shipped', example: { body_text: [['#1']] } }];

	test('Create, Get Many, Update and Delete a template of a Cloud API instance', async () => {
		const created = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'create', name: 'order_shipped', category: 'UTILITY', language: 'pt_BR', components: JSON.stringify(components) });
		expect(created.error).toBeUndefined();
		expect(created.items[0].json).toMatchObject({ name: 'order_shipped', templateId: expect.any(String), template: { status: 'PENDING', category: 'UTILITY' } });
		const id = created.items[0].json.templateId as string;
		const listed = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'getMany', limit: 1 });
		const all = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'getMany', returnAll: true });
		const updated = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'update', templateId: picked(id), updateFields: { category: 'MARKETING', ttl: 600 } });
		const deleted = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'delete', templateName: picked('order_shipped'), options: { hsmId: id } });
		expect([listed.error, all.error, updated.error, deleted.error]).toEqual([undefined, undefined, undefined, undefined]);
		// the server's version (GET /) is asked once per credential, whichever run comes first
		expect(requestLines(sandbox.current).filter((request) => request.path !== '/')).toEqual([
			LOOKUP('meta'),
			{ method: 'POST', path: '/template/create/meta', query: {}, body: { name: 'order_shipped', category: 'UTILITY', language: 'pt_BR', components } },
			LOOKUP('meta'),
			{ method: 'GET', path: '/template/find/meta', query: {} },
			LOOKUP('meta'),
			{ method: 'GET', path: '/template/find/meta', query: {} },
			LOOKUP('meta'),
			{ method: 'POST', path: '/template/edit/meta', query: {}, body: { templateId: id, category: 'MARKETING', ttl: 600 } },
			LOOKUP('meta'),
			{ method: 'DELETE', path: '/template/delete/meta', query: {}, body: { name: 'order_shipped', hsmId: id } },
		]);
		expect(jsons(listed).map((template) => template.name)).toEqual(['hello_world']);
		expect(jsons(all).map((template) => template.name)).toEqual(['hello_world', 'order_shipped']);
		expect([...jsons(updated), ...jsons(deleted)]).toEqual([{ success: true }, { success: true }]);
	});

	test('Send Template sends name, language and components; Meta\'s refusal in a 2xx is an error naming the template', async () => {
		const ok = await run(sandbox.current, {
			instance: 'meta',
			resource: 'message',
			operation: 'sendTemplate',
			number: '5511988880000',
			templateName: picked('hello_world'),
			components: '[{"type":"body","parameters":[{"type":"text","text":"Ana"}]}]',
		});
		const refused = await run(sandbox.current, { instance: 'meta', resource: 'message', operation: 'sendTemplate', number: '5511988880000', templateName: picked('nope') });
		expect(ok.error).toBeUndefined();
		expect(sent(sandbox.current).filter((request) => request.path.startsWith('/message'))).toEqual([
			{ method: 'POST', path: '/message/sendTemplate/meta', status: 201, body: { number: '5511988880000', name: 'hello_world', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] } },
			{ method: 'POST', path: '/message/sendTemplate/meta', status: 201, body: { number: '5511988880000', name: 'nope', language: 'en_US' } },
		]);
		expect(ok.items[0].json).toMatchObject({ key: { remoteJid: CHAT, fromMe: true } });
		expect(refused.error?.message).toBe('"Template" was refused by Meta: (#132001) Template name does not exist in the translation (template name (nope) does not exist in en_US) [item 0]');
	});

	test('with a Baileys instance every template operation says it needs a Cloud API instance, before sending', async () => {
		const parameters: INodeParameters[] = [
			{ resource: 'template', operation: 'getMany' },
			{ resource: 'template', operation: 'create', name: 'x', language: 'en' },
			{ resource: 'template', operation: 'update', templateId: picked('1'), updateFields: { ttl: 60 } },
			{ resource: 'template', operation: 'delete', templateName: picked('x') },
			{ resource: 'message', operation: 'sendTemplate', number: '5511988880000', templateName: picked('hello_world') },
		];
		for (const parameter of parameters) {
			sandbox.current.clearRequests();
			const result = await run(sandbox.current, parameter);
			expect(result.error?.message).toMatch(/^"Instance" .+ works only with WhatsApp Cloud API instances; "demo" is a Baileys instance \(WHATSAPP-BAILEYS\) \[item 0\]$/);
			expect(requestLines(sandbox.current).filter((request) => request.path !== '/')).toEqual([LOOKUP('demo')]);
		}
	});

	test('Create refuses components that are not a JSON list, naming the field', async () => {
		const result = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'create', name: 'bad_one', language: 'en', components: '{"type":"BODY"}' });
		expect(result.error?.message).toBe('"Components" must be a JSON list of components ([{ "type": "BODY", … }]) [item 0]');
		expect(requestLines(sandbox.current)).toEqual([LOOKUP('meta')]);
	});
});

describe('Template pickers', () => {
	const sandbox = useCloudSandbox('2.3.7');
	const node = new MessagingInstance();
	const context = (instanceName: string, parameter: string) =>
		loadOptionsContext({
			type: ACTION_TYPE,
			typeVersion: 2,
			name: 'Messaging Instance',
			credentials: credentialsFor(sandbox.current) as never,
			parameters: { resource: 'template', operation: 'delete', instance: { __rl: true, mode: 'list', value: instanceName } },
			parameter,
		});

	test('a Cloud API instance\'s templates by name (Send Template, Delete) and by Meta ID (Update), with language and status', async () => {
		const byName = await node.methods.listSearch.searchTemplates.call(context('meta', 'templateName'), 'hello');
		const byId = await node.methods.listSearch.searchTemplateIds.call(context('meta', 'templateId'));
		expect(byName.results).toEqual([{ name: 'hello_world (en_US, APPROVED)', value: 'hello_world' }]);
		expect(byId.results).toEqual([{ name: 'hello_world (en_US, APPROVED)', value: '1000000000000001' }]);
		expect(sent(sandbox.current).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /template/find/meta', 'GET /template/find/meta']);
	});

	test('a Baileys instance offers none (its server answers an empty body)', async () => {
		const none = await node.methods.listSearch.searchTemplates.call(context('demo', 'templateName'));
		expect(none.results).toEqual([]);
		expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: '/template/find/demo', status: 200, body: undefined }]);
	});
});

describe('Templates on 2.3.6: Update and Delete name the version they need', () => {
	const sandbox = useCloudSandbox('2.3.6');

	test('Update fails before sending on a 2.3.6 server', async () => {
		const result = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'update', templateId: picked('1000000000000001'), updateFields: { ttl: 60 } });
		expect(result.error?.message).toBe('"Operation" Update needs Evolution API 2.3.7 or newer; the server runs 2.3.6 [item 0]');
		// nothing but the server's version (GET /, unless known from a run before) was asked
		expect(sandbox.current.requests.map((request) => request.path).filter((path) => path !== '/')).toEqual([]);
	});
});

describe('Storage (S3)', () => {
	const sandbox = useSandbox('v2');

	test('Get Media lists stored files with filters; Get Media URL links one of them', async () => {
		await run(sandbox.current, { resource: 'message', operation: 'sendMedia', number: '5511988880000', mediaSource: 'url', mediaUrl: 'https://files.example.com/a.jpg', mediaType: 'image' });
		sandbox.current.clearRequests();
		const media = await run(sandbox.current, { resource: 'storage', operation: 'getMedia', filters: { type: 'imageMessage' } });
		expect(media.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/s3/getMedia/demo', status: 201, body: { type: 'imageMessage' } }]);
		expect(media.items.length).toBeGreaterThan(0);
		const id = media.items[0].json.id as string;
		sandbox.current.clearRequests();
		const url = await run(sandbox.current, { resource: 'storage', operation: 'getMediaUrl', mediaId: id, options: { expiry: 600 } });
		expect(url.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/s3/getMediaUrl/demo', status: 200, body: { id, expiry: '600' } }]);
		expect(url.items[0].json).toMatchObject({ id, mediaUrl: expect.stringContaining('X-Amz-Expires=600'), type: 'imageMessage' });
	});

	test('Get Media from a fresh node sends no filter; Get Media URL refuses an ID without digits', async () => {
		await run(sandbox.current, { resource: 'storage', operation: 'getMedia' });
		const url = await run(sandbox.current, { resource: 'storage', operation: 'getMediaUrl', mediaId: 'abc' });
		expect(sent(sandbox.current).map(({ path, body }) => ({ path, body }))).toEqual([{ path: '/s3/getMedia/demo', body: undefined }]);
		expect(url.error?.message).toBe('"Media ID" must be a media ID as Get Media lists it (it has digits) [item 0]');
	});
});
