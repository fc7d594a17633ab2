/**
 * The profile, chat, invite, proxy, business, template, S3 and Chatwoot routes as the 2.3.7 /
 * 2.4.0-rc2 source validates and answers them: the schema rules that refuse a body, the
 * surprises a client must know (200 null, 200 with an empty body, Meta's refusal in a 201,
 * a Baileys instance on a Cloud API route), and 404 for template edit/delete before 2.3.7.
 */
import { startSandbox, Sandbox } from '../../sandbox/server';
import { call, validation, withVersion } from './helpers';

describe('other routes on 2.3.7', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }, { name: 'meta', integration: 'WHATSAPP-BUSINESS' }] });
	});
	afterAll(async () => await sb.close());

	it('updateProfileName: "" is refused when it is the only key; a missing name is the service\'s 500', async () => {
		expect(await call(sb, '/chat/updateProfileName/demo', { name: '' })).toMatchObject({ status: 400, body: validation('The "name" cannot be empty') });
		expect((await call(sb, '/chat/updateProfileName/demo', {})).status).toBe(500);
		expect(await call(sb, '/chat/updateProfileName/demo', { name: 'Shop' })).toMatchObject({ status: 200, body: { update: 'success' } });
	});

	it('a profile change shows on the chat page beside the status posts, as the contacts see it', async () => {
		await call(sb, '/chat/updateProfileStatus/demo', { status: 'Back Monday' });
		await call(sb, '/chat/removeProfilePicture/demo', undefined, { method: 'DELETE' });
		const shown = sb.chat.filter((entry) => entry.kind === 'profile').slice(-2);
		expect(shown.map(({ instance, chat, direction, text }) => ({ instance, chat, direction, text }))).toEqual([
			{ instance: 'demo', chat: 'status@broadcast', direction: 'out', text: 'changed the About text to “Back Monday”' },
			{ instance: 'demo', chat: 'status@broadcast', direction: 'out', text: 'removed the profile picture' },
		]);
	});

	it('updatePrivacySettings wants all six keys from their lists; answers 201 with the data', async () => {
		const all = { readreceipts: 'all', profile: 'contacts', status: 'none', online: 'match_last_seen', last: 'contact_blacklist', groupadd: 'all' };
		expect((await call(sb, '/chat/updatePrivacySettings/demo', { ...all, groupadd: undefined })).status).toBe(400);
		expect((await call(sb, '/chat/updatePrivacySettings/demo', { ...all, online: 'contacts' })).status).toBe(400);
		expect(await call(sb, '/chat/updatePrivacySettings/demo', all)).toMatchObject({ status: 201, body: { update: 'success', data: all } });
		expect(await call(sb, '/chat/fetchPrivacySettings/demo', undefined, { method: 'GET' })).toMatchObject({ status: 200, body: all });
	});

	it('updateProfilePicture: neither URL nor base64 answers 500 [object Object]', async () => {
		expect(await call(sb, '/chat/updateProfilePicture/demo', { picture: 'not a picture!' })).toMatchObject({
			status: 500,
			body: { status: 500, error: 'Internal Server Error', response: { message: ['Error updating profile picture', '[object Object]'] } },
		});
		expect((await call(sb, '/chat/updateProfilePicture/demo', { picture: 'https://files.example.com/a.jpg' })).status).toBe(200);
	});

	it('findChatByRemoteJid: no query is a 400 of its own shape, an unknown chat 200 null', async () => {
		expect(await call(sb, '/chat/findChatByRemoteJid/demo', undefined, { method: 'GET' })).toMatchObject({ status: 400, body: { error: 'remoteJid is a required query parameter' } });
		expect(await call(sb, '/chat/findChatByRemoteJid/demo?remoteJid=5511900000000@s.whatsapp.net', undefined, { method: 'GET' })).toMatchObject({ status: 200, text: 'null' });
	});

	it('inviteInfo / acceptInviteCode: the code is required in the query and must be 22 letters and digits', async () => {
		const missing = await call(sb, '/group/inviteInfo/demo', undefined, { method: 'GET' });
		expect(missing.status).toBe(400);
		expect(missing.body.response.message[0]).toBe('The group invite code id needs to be informed in the query');
		expect((await call(sb, '/group/acceptInviteCode/demo?inviteCode=short', undefined, { method: 'GET' })).status).toBe(400);
		expect((await call(sb, '/group/inviteInfo/demo?inviteCode=AAAAAAAAAAAAAAAAAAAAAA', undefined, { method: 'GET' })).status).toBe(404);
	});

	it('proxy/set: host, port and protocol are required; an unknown protocol fails the proxy test; find of no proxy is 200 null', async () => {
		expect(await call(sb, '/proxy/find/meta', undefined, { method: 'GET' })).toMatchObject({ status: 200, text: 'null' });
		expect((await call(sb, '/proxy/set/demo', { enabled: true, host: 'p.example.com' })).status).toBe(400);
		expect(await call(sb, '/proxy/set/demo', { enabled: true, host: 'p.example.com', port: '80', protocol: 'ftp', username: '', password: '' })).toMatchObject({ status: 400, body: { response: { message: ['Invalid proxy'] } } });
		// without username and password nothing is saved, yet the answer is 201
		expect((await call(sb, '/proxy/set/demo', { enabled: true, host: 'p.example.com', port: '80', protocol: 'http' })).status).toBe(201);
		expect((await call(sb, '/proxy/find/demo', undefined, { method: 'GET' })).text).toBe('null');
	});

	it('templates: a Baileys instance gets Meta\'s refusal (400) on create and an empty 200 on find; sendTemplate is a plain 500', async () => {
		const create = await call(sb, '/template/create/demo', { name: 'x', category: 'UTILITY', language: 'en', components: [{ type: 'BODY', text: 'hi' }] });
		expect(create).toMatchObject({ status: 400, body: { status: 400, error: 'Bad Request', details: { whatsapp_code: 100, context: 'template_creation', type: 'whatsapp_api_error' } } });
		expect(await call(sb, '/template/find/demo', undefined, { method: 'GET' })).toMatchObject({ status: 200, text: '' });
		expect((await call(sb, '/message/sendTemplate/demo', { number: '5511999990000', name: 'hello_world', language: 'en_US' })).status).toBe(500);
	});

	it('templates of a Cloud API instance: create needs the four keys; an unknown template is Meta\'s error in a 201', async () => {
		expect((await call(sb, '/template/create/meta', { name: 'x', category: 'UTILITY', language: 'en' })).status).toBe(400);
		expect((await call(sb, '/template/create/meta', { name: 'x', category: 'OTHER', language: 'en', components: [] })).status).toBe(400);
		expect(await call(sb, '/template/find/meta', undefined, { method: 'GET' })).toMatchObject({ status: 200, body: [expect.objectContaining({ name: 'hello_world', status: 'APPROVED' })] });
		const refused = await call(sb, '/message/sendTemplate/meta', { number: '5511999990000', name: 'nope', language: 'en_US' });
		expect(refused).toMatchObject({ status: 201, body: { code: 132001, error_data: { details: 'template name (nope) does not exist in en_US' } } });
	});

	it('business: a number not on WhatsApp is the router\'s Meta-shaped 400; another account is 200 isBusiness false', async () => {
		expect(await call(sb, '/business/getCatalog/demo', { number: '0123' })).toMatchObject({ status: 400, body: { error: 'Bad Request', details: { context: 'business_catalog' } } });
		expect(await call(sb, '/business/getCollections/demo', { number: '5511999990000' })).toMatchObject({ status: 200, body: { isBusiness: false } });
	});

	it('s3: nothing stored answers 400 Media not found; getMediaUrl wants an id with digits', async () => {
		expect(await call(sb, '/s3/getMedia/demo', {})).toMatchObject({ status: 400, body: { response: { message: ['Media not found'] } } });
		expect((await call(sb, '/s3/getMediaUrl/demo', { id: 'abc' })).status).toBe(400);
	});

	it('chatwoot: the seven keys are required; enabled without a token is the controller\'s 400; find of none is the empty record', async () => {
		expect(await call(sb, '/chatwoot/find/meta', undefined, { method: 'GET' })).toMatchObject({ status: 200, body: { enabled: false, token: '', webhook_url: '' } });
		expect((await call(sb, '/chatwoot/set/demo', { enabled: true, url: 'https://c.example.com' })).status).toBe(400);
		const base = { enabled: true, accountId: '1', token: '', url: 'https://c.example.com', signMsg: false, reopenConversation: false, conversationPending: false, nameInbox: '' };
		expect(await call(sb, '/chatwoot/set/demo', base)).toMatchObject({ status: 400, body: { response: { message: ['token is required'] } } });
		expect(await call(sb, '/chatwoot/set/demo', { ...base, token: 't0k3n' })).toMatchObject({ status: 201, body: { nameInbox: 'demo', webhook_url: 'http://localhost:8080/chatwoot/webhook/demo' } });
	});
});

describe('template edit and delete do not exist before 2.3.7', () => {
	it('2.3.6 answers 404 for POST /template/edit and DELETE /template/delete', async () => {
		await withVersion('2.3.6', async (sb) => {
			expect((await call(sb, '/template/edit/demo', { templateId: '1' })).status).toBe(404);
			expect((await call(sb, '/template/delete/demo', { name: 'x' }, { method: 'DELETE' })).status).toBe(404);
		});
	});
});
