import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/server';
import { TINY_PNG_BASE64 } from '../../sandbox/messages';
import { runNode } from '../harness/engine';
import { declareSecrets } from '../harness/secrets';
import { credentialsFor, run, sent, useSandbox } from './helpers';
import { CHATWOOT_TOKEN, PROXY_PASSWORD } from './integrationSecrets';

/**
 * The profile, proxy, business, storage and Chatwoot resources (templates: templates.test.ts) and the routes added
 * to Chat, Message and Group, against a v2 sandbox: the exact request each sends (fresh-node
 * defaults unless a test opens options), what came back, and the checks that stop an item
 * before sending. Secrets these routes carry (proxy password, Chatwoot token) are declared to
 * the harness, which fails any test whose output or stored run shows them.
 */

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

	test('Update Privacy reads the six settings and sends them back with only those chosen changed; a fresh node changes none', async () => {
		const fresh = await run(sandbox.current, { resource: 'profile', operation: 'updatePrivacy' });
		expect(fresh.error?.message).toBe('"Operation" has no setting to change [item 0]');
		const changed = await run(sandbox.current, { resource: 'profile', operation: 'updatePrivacy', lastSeen: 'none', online: 'match_last_seen', readReceipts: 'none' });
		const read = await run(sandbox.current, { resource: 'profile', operation: 'getPrivacy' });
		expect([changed.error, read.error]).toEqual([undefined, undefined]);
		const before = { readreceipts: 'all', profile: 'all', status: 'contacts', online: 'all', last: 'all', groupadd: 'all' };
		const after = { ...before, readreceipts: 'none', online: 'match_last_seen', last: 'none' };
		expect(sent(sandbox.current)).toEqual([
			{ method: 'GET', path: '/chat/fetchPrivacySettings/demo', status: 200, body: undefined },
			{ method: 'POST', path: '/chat/updatePrivacySettings/demo', status: 201, body: after },
			{ method: 'GET', path: '/chat/fetchPrivacySettings/demo', status: 200, body: undefined },
		]);
		expect(jsons(changed)).toEqual([{ update: 'success', data: after }]);
		expect(jsons(read)).toEqual([after]);
	});

	test('Update Privacy refuses a value outside its list, naming the field', async () => {
		const result = await run(sandbox.current, { resource: 'profile', operation: 'updatePrivacy', groupAdd: '={{ "everybody" }}' });
		expect(result.error?.message).toBe('"Groups Add" must be one of "keep", "all", "contacts", "contact_blacklist", "none", not "everybody" [item 0]');
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
			expect(result.error?.message).toBe('Profile → Get Privacy needs an Evolution API v2.x server; the credential\'s Server Dialect is the documented interface [item 0]');
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
			// the stored connection first: what the item leaves out goes back as stored (updates.test.ts)
			{ method: 'GET', path: '/chatwoot/find/demo', status: 200, body: undefined },
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
				{ method: 'GET', path: '/chatwoot/find/demo', status: 200, body: undefined },
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
		const url = await run(sandbox.current, { resource: 'storage', operation: 'getMediaUrl', mediaId: id });
		expect(url.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: '/s3/getMediaUrl/demo', status: 200, body: { id } }]);
		expect(url.items[0].json).toMatchObject({ id, mediaUrl: expect.stringContaining('X-Amz-Expires=604800'), type: 'imageMessage' });
	});

	test('Get Media from a fresh node sends no filter; Get Media URL refuses an ID without digits', async () => {
		await run(sandbox.current, { resource: 'storage', operation: 'getMedia' });
		const url = await run(sandbox.current, { resource: 'storage', operation: 'getMediaUrl', mediaId: 'abc' });
		expect(sent(sandbox.current).map(({ path, body }) => ({ path, body }))).toEqual([{ path: '/s3/getMedia/demo', body: undefined }]);
		expect(url.error?.message).toBe('"Media ID" must be a media ID as Get Media lists it (it has digits) [item 0]');
	});
});
