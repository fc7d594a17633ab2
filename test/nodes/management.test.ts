import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { run, useSandbox } from './helpers';

/**
 * Instances, chats, contacts, groups and labels (v2.x servers): each operation sends the
 * real server's method, path, query string and body, and outputs what came back — one item
 * per record for lists, paired with its input item.
 */

interface Case {
	title: string;
	parameters: INodeParameters;
	method: string;
	path: string;
	query?: Record<string, string>;
	body?: IDataObject;
}

const GROUP = '120363000000000001@g.us';
const key = { remoteJid: '5511988880000@s.whatsapp.net', messageId: '3EB0ABC', fromMe: false };
const picked = (value: string) => ({ __rl: true, mode: 'list', value });

const cases: Case[] = [
	{ title: 'Message → Mark as Read', parameters: { resource: 'message', operation: 'markAsRead', ...key }, method: 'POST', path: '/chat/markMessageAsRead/demo', body: { readMessages: [{ remoteJid: key.remoteJid, fromMe: false, id: '3EB0ABC' }] } },
	{ title: 'Message → Delete (a DELETE with the key in its body)', parameters: { resource: 'message', operation: 'delete', ...key, fromMe: true }, method: 'DELETE', path: '/chat/deleteMessageForEveryone/demo', body: { id: '3EB0ABC', fromMe: true, remoteJid: key.remoteJid } },
	{ title: 'Chat → Mark as Unread', parameters: { resource: 'chat', operation: 'markUnread', chat: key.remoteJid, messageId: '3EB0ABC', fromMe: false }, method: 'POST', path: '/chat/markChatUnread/demo', body: { lastMessage: { key: { remoteJid: key.remoteJid, fromMe: false, id: '3EB0ABC' } }, chat: key.remoteJid } },
	{ title: 'Contact → Get Profile', parameters: { resource: 'contact', operation: 'getProfile', number: '+55 11 98888-0000' }, method: 'POST', path: '/chat/fetchProfile/demo', body: { number: '5511988880000' } },
	{ title: 'Contact → Get Profile Picture', parameters: { resource: 'contact', operation: 'getProfilePicture', number: '5511988880000' }, method: 'POST', path: '/chat/fetchProfilePictureUrl/demo', body: { number: '5511988880000' } },
	{ title: 'Contact → Block', parameters: { resource: 'contact', operation: 'updateBlock', number: '5511988880000', status: 'block' }, method: 'POST', path: '/chat/updateBlockStatus/demo', body: { number: '5511988880000', status: 'block' } },
	{ title: 'Instance → Get State (a GET without a body)', parameters: { resource: 'instance', operation: 'getState' }, method: 'GET', path: '/instance/connectionState/demo' },
	{ title: 'Instance → Set Presence', parameters: { resource: 'instance', operation: 'setPresence', presence: 'unavailable' }, method: 'POST', path: '/instance/setPresence/demo', body: { presence: 'unavailable' } },
	{ title: 'Group → Create', parameters: { resource: 'group', operation: 'create', subject: 'Team', participants: '+55 11 98888-0000, 5511977770000', options: { description: 'Our team' } }, method: 'POST', path: '/group/create/demo', body: { subject: 'Team', participants: ['5511988880000', '5511977770000'], description: 'Our team' } },
	{ title: 'Group → Get (the group in the query)', parameters: { resource: 'group', operation: 'get', groupJid: picked(GROUP) }, method: 'GET', path: '/group/findGroupInfos/demo', query: { groupJid: GROUP } },
	{ title: 'Group → Update Participants', parameters: { resource: 'group', operation: 'updateParticipants', groupJid: picked(GROUP), action: 'promote', participants: '5511988880000' }, method: 'POST', path: '/group/updateParticipant/demo', query: { groupJid: GROUP }, body: { action: 'promote', participants: ['5511988880000'] } },
	{ title: 'Group → Update Subject, with an ID typed without @g.us', parameters: { resource: 'group', operation: 'updateSubject', groupJid: { __rl: true, mode: 'id', value: '120363000000000001' }, subject: 'New' }, method: 'POST', path: '/group/updateGroupSubject/demo', query: { groupJid: '120363000000000001' }, body: { subject: 'New' } },
	{ title: 'Group → Update Description', parameters: { resource: 'group', operation: 'updateDescription', groupJid: picked(GROUP), description: 'About us' }, method: 'POST', path: '/group/updateGroupDescription/demo', query: { groupJid: GROUP }, body: { description: 'About us' } },
	{ title: 'Group → Update Setting "Only admins can send"', parameters: { resource: 'group', operation: 'updateSetting', groupJid: picked(GROUP), action: 'announcement' }, method: 'POST', path: '/group/updateSetting/demo', query: { groupJid: GROUP }, body: { action: 'announcement' } },
	{ title: 'Group → Set Disappearing Messages to 7 days', parameters: { resource: 'group', operation: 'setEphemeral', groupJid: picked(GROUP), expiration: 604800 }, method: 'POST', path: '/group/toggleEphemeral/demo', query: { groupJid: GROUP }, body: { expiration: 604800 } },
	{ title: 'Group → Get Invite Code', parameters: { resource: 'group', operation: 'getInviteCode', groupJid: picked(GROUP) }, method: 'GET', path: '/group/inviteCode/demo', query: { groupJid: GROUP } },
	{ title: 'Group → Revoke Invite Code', parameters: { resource: 'group', operation: 'revokeInviteCode', groupJid: picked(GROUP) }, method: 'POST', path: '/group/revokeInviteCode/demo', query: { groupJid: GROUP } },
	{ title: 'Group → Send Invite (the group in the body, with @g.us)', parameters: { resource: 'group', operation: 'sendInvite', groupJid: { __rl: true, mode: 'id', value: '120363000000000001' }, numbers: '5511988880000', description: 'Join us' }, method: 'POST', path: '/group/sendInvite/demo', body: { groupJid: GROUP, description: 'Join us', numbers: ['5511988880000'] } },
	{ title: 'Label → Add to Chat', parameters: { resource: 'label', operation: 'addToChat', number: '5511988880000', labelId: picked('1') }, method: 'POST', path: '/label/handleLabel/demo', body: { number: '5511988880000', labelId: '1', action: 'add' } },
	{ title: 'Label → Remove From Chat', parameters: { resource: 'label', operation: 'removeFromChat', number: '5511988880000', labelId: picked('1') }, method: 'POST', path: '/label/handleLabel/demo', body: { number: '5511988880000', labelId: '1', action: 'remove' } },
	{ title: 'Setting → Get', parameters: { resource: 'settings', operation: 'get' }, method: 'GET', path: '/settings/find/demo' },
	{ title: 'Webhook → Get', parameters: { resource: 'webhook', operation: 'get' }, method: 'GET', path: '/webhook/find/demo' },
];

describe('management operations send what the real server reads (v2)', () => {
	const sandbox = useSandbox('v2');
	beforeAll(() => sandbox.current.addGroup('demo', { id: GROUP, subject: 'Team', participants: ['5511988880000'] }));
	beforeEach(async () => {
		// a message to act on, then a clean request log
		await sandbox.current.injectMessage('demo', { from: '5511988880000', id: '3EB0ABC', text: 'hello' });
		sandbox.current.clearRequests();
	});

	test.each(cases)('$title', async ({ parameters, method, path, query, body }) => {
		const result = await run(sandbox.current, parameters);
		const requests = sandbox.current.requests;
		expect(requests.map((request) => ({ method: request.method, path: request.path, query: request.query, body: request.body }))).toEqual([
			{ method, path, query: query ?? {}, body },
		]);
		expect(result.error).toBeUndefined();
		expect(requests[0].status).toBeLessThan(300);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('lists: one item per record, Return All and Limit (v2)', () => {
	const sandbox = useSandbox('v2');

	test('Message → Get Many follows the server\'s pages until Limit', async () => {
		for (let n = 0; n < 120; n++) await sandbox.current.injectMessage('demo', { from: '5511988880000', text: `m${n}` });
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'message', operation: 'getMany', limit: 70, filters: { remoteJid: '5511988880000@s.whatsapp.net' } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(70);
		expect(sandbox.current.requests.map((request) => request.body)).toEqual([
			{ where: { key: { remoteJid: '5511988880000@s.whatsapp.net', remoteJidAlt: '5511988880000@s.whatsapp.net' } }, page: 1, offset: 50 },
			{ where: { key: { remoteJid: '5511988880000@s.whatsapp.net', remoteJidAlt: '5511988880000@s.whatsapp.net' } }, page: 2, offset: 50 },
		]);
		expect(result.items.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Message → Get Many with Return All reads every page', async () => {
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'message', operation: 'getMany', returnAll: true, filters: { remoteJid: '5511988880000@s.whatsapp.net' } });
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThanOrEqual(120);
		expect(sandbox.current.requests.length).toBe(Math.ceil(result.items.length / 50));
	});

	test('Instance → Get Many: one item per instance, without tokens', async () => {
		const result = await run(sandbox.current, { resource: 'instance', operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => [request.method, request.path])).toEqual([['GET', '/instance/fetchInstances']]);
		expect(result.items.map((item) => item.json.name)).toContain('demo');
		expect(JSON.stringify(result.items)).not.toContain('demo-token');
	});

	test('Chat → Get Many: one item per chat, most recent first, paged with take/skip', async () => {
		await sandbox.current.injectMessage('demo', { from: '5511944440000', text: 'newest chat' });
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'chat', operation: 'getMany', limit: 1 });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => request.body)).toEqual([{ where: {}, take: 1, skip: 0 }]);
		expect(result.items.map((item) => item.json.remoteJid)).toEqual(['5511944440000@s.whatsapp.net']);
	});

	test('Contact → Get Many with a filter: the contact the filter names', async () => {
		const result = await run(sandbox.current, { resource: 'contact', operation: 'getMany', returnAll: true, filters: { remoteJid: '5511944440000' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => request.body)).toEqual([{ where: { remoteJid: '5511944440000' }, page: 1, offset: 100 }]);
		expect(result.items.map((item) => item.json.remoteJid)).toEqual(['5511944440000@s.whatsapp.net']);
	});

	test('Label → Get Many: one item per label', async () => {
		const result = await run(sandbox.current, { resource: 'label', operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => [request.method, request.path])).toEqual([['GET', '/label/findLabels/demo']]);
		expect(result.items.map((item) => item.json.name)).toEqual(['New customer', 'Paid']);
	});

	test('Group → Get Participants, Update Picture from binary, Leave', async () => {
		sandbox.current.addGroup('demo', { id: '120363000000000009@g.us', subject: 'Old', participants: ['5511988880000', '5511977770000'] });
		const group = { __rl: true, mode: 'list', value: '120363000000000009@g.us' };
		const members = await run(sandbox.current, { resource: 'group', operation: 'getParticipants', groupJid: group, limit: 2 });
		expect(members.items).toHaveLength(2);
		expect(members.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		sandbox.current.clearRequests();
		const picture = await run(sandbox.current, { resource: 'group', operation: 'updatePicture', groupJid: group, mediaSource: 'base64', mediaBase64: 'iVBORw0KGgo=' });
		expect(picture.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => [request.path, request.query, request.body])).toEqual([
			['/group/updateGroupPicture/demo', { groupJid: '120363000000000009@g.us' }, { image: 'iVBORw0KGgo=' }],
		]);
		const left = await run(sandbox.current, { resource: 'group', operation: 'leave', groupJid: group });
		expect(left.items[0].json).toEqual({ groupJid: '120363000000000009@g.us', leave: true });
		expect(sandbox.current.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/group/leaveGroup/demo', query: { groupJid: '120363000000000009@g.us' } });
	});

	test('Group → Get Many asks with the participants flag as text', async () => {
		const result = await run(sandbox.current, { resource: 'group', operation: 'getMany', returnAll: true, getParticipants: true });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => [request.method, request.path, request.query])).toEqual([['GET', '/group/fetchAllGroups/demo', { getParticipants: 'true' }]]);
	});
});

describe('the instance lifecycle (v2)', () => {
	const sandbox = useSandbox('v2');

	test('Create outputs the new instance with its token; Connect gives the QR code as PNG; a scan opens it', async () => {
		const created = await run(sandbox.current, { resource: 'instance', operation: 'create', instanceName: 'shop', integration: 'WHATSAPP-BAILEYS', qrcode: true });
		expect(created.error).toBeUndefined();
		expect(sandbox.current.requests[0]).toMatchObject({ method: 'POST', path: '/instance/create', body: { instanceName: 'shop', integration: 'WHATSAPP-BAILEYS', qrcode: true } });
		expect(created.items[0].json).toMatchObject({ instance: { instanceName: 'shop' }, hash: expect.any(String) });

		sandbox.current.clearRequests();
		const connected = await run(sandbox.current, { resource: 'instance', operation: 'connect', instance: 'shop' });
		expect(connected.error).toBeUndefined();
		expect(sandbox.current.requests.map((request) => [request.method, request.path])).toEqual([['GET', '/instance/connect/shop']]);
		expect(connected.items[0].json).not.toHaveProperty('base64');
		expect(connected.items[0].json).toMatchObject({ pairingCode: null, code: expect.any(String) });
		expect(connected.items[0].binary?.data).toMatchObject({ mimeType: 'image/png', fileName: 'qrcode.png' });
		expect(Buffer.from(connected.items[0].binary!.data.data, 'base64').subarray(0, 8)).toEqual(Buffer.from('89504e470d0a1a0a', 'hex'));

		expect(await sandbox.current.scan('shop')).toBe(true);
		const state = await run(sandbox.current, { resource: 'instance', operation: 'getState', instance: 'shop' });
		expect(state.items[0].json).toEqual({ instance: { instanceName: 'shop', state: 'open' } });
		const again = await run(sandbox.current, { resource: 'instance', operation: 'connect', instance: 'shop' });
		expect(again.items[0].binary).toBeUndefined();
		expect(again.items[0].json).toEqual({ instance: { instanceName: 'shop', state: 'open' } });
	});

	test('Connect with a pairing number gives a pairing code too', async () => {
		await run(sandbox.current, { resource: 'instance', operation: 'create', instanceName: 'pairing', integration: 'WHATSAPP-BAILEYS', qrcode: false });
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'instance', operation: 'connect', instance: 'pairing', number: '+55 11 98888-0000' });
		expect(sandbox.current.requests.map((request) => [request.path, request.query])).toEqual([['/instance/connect/pairing', { number: '5511988880000' }]]);
		expect(result.items[0].json.pairingCode).toMatch(/^[0-9A-F]{8}$/);
	});

	test('Restart of an instance that is not connected is an error, though the server answers 200', async () => {
		await run(sandbox.current, { resource: 'instance', operation: 'create', instanceName: 'idle', integration: 'WHATSAPP-BAILEYS', qrcode: false });
		const result = await run(sandbox.current, { resource: 'instance', operation: 'restart', instance: 'idle' });
		expect(sandbox.current.requests.at(-1)?.status).toBe(200);
		expect(result.error?.message).toMatch(/^"Operation" failed on the server: .*instance is not connected \[item 0\]$/);
	});

	test('Log Out and Delete', async () => {
		const out = await run(sandbox.current, { resource: 'instance', operation: 'logout', instance: 'shop' });
		expect(out.items[0].json).toEqual({ status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } });
		const gone = await run(sandbox.current, { resource: 'instance', operation: 'delete', instance: 'shop' });
		expect(gone.error).toBeUndefined();
		const after = await run(sandbox.current, { resource: 'instance', operation: 'getState', instance: 'shop' });
		expect(after.error?.message).toMatch(/The "shop" instance does not exist \(HTTP 404\)/);
	});

	test('a token the user chose for a new instance never shows in an error', async () => {
		const create = { resource: 'instance', operation: 'create', instanceName: 'taken', integration: 'WHATSAPP-BAILEYS', qrcode: false };
		await run(sandbox.current, create);
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { ...create, options: { token: 'MY-OWN-TOKEN-123' } });
		expect(result.error?.message).toMatch(/already in use\. \(HTTP 403\)$/);
		expect(sandbox.current.requests[0].body).toMatchObject({ token: 'MY-OWN-TOKEN-123' });
		// The token stays where the user typed it (the workflow's node parameters) and nowhere else.
		const { node: _node, ...error } = result.error as unknown as Record<string, unknown>;
		expect(JSON.stringify({ ...error, message: result.error?.message, stack: result.error?.stack })).not.toContain('MY-OWN-TOKEN-123');
	});

	test('an instance name of "." is refused before sending', async () => {
		const result = await run(sandbox.current, { resource: 'instance', operation: 'create', instanceName: '.', integration: 'WHATSAPP-BAILEYS', qrcode: true });
		expect(result.error?.message).toMatch(/^"Instance Name" cannot be "\." \[item 0\]$/);
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('input errors of management operations (v2)', () => {
	const sandbox = useSandbox('v2');

	test.each<[string, INodeParameters, RegExp]>([
		['a group ID that is not one', { resource: 'group', operation: 'get', groupJid: { __rl: true, mode: 'id', value: 'family' } }, /^"Group" must be a group ID such as/],
		['a participant of fewer than 10 digits', { resource: 'group', operation: 'create', subject: 'T', participants: '12345' }, /^"Participants \(entry 1\)" must be a phone number with country code \(at least 10 digits\) \[item 0\]$/],
		['a time range with one end', { resource: 'message', operation: 'getMany', filters: { after: '2026-01-01T00:00:00Z' } }, /^"Filters: Sent Before" is required when the other end of the time range is set \[item 0\]$/],
		['a limit of 0', { resource: 'message', operation: 'getMany', limit: 0 }, /^"Limit" must be between 1 and 100000 \[item 0\]$/],
	])('%s', async (_title, parameters, message) => {
		const result = await run(sandbox.current, parameters);
		expect(result.error?.message).toMatch(message);
		expect(sandbox.current.requests).toEqual([]);
	});
});
