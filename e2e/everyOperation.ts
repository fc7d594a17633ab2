/**
 * Every other v2 operation in real n8n, one node each, fanned out from one Manual Trigger:
 * each node's one request as the real server reads it and its output (check k), and the
 * operations of Evolution API 2.4 against a sandbox playing 2.4 (check n).
 */
import * as assert from 'node:assert/strict';

import { executeWorkflow, nodeOutputs, type WorkflowSpec } from '../scripts/n8n-runtime';
import type { E2eTools } from './v2';
import { action, picked, ran, start, type Sandbox } from './v2Nodes';

/* eslint-disable @typescript-eslint/no-explicit-any */

interface V2Op {
	node: string;
	parameters: Record<string, unknown>;
	method: string;
	path: string;
	query?: Record<string, string>;
	body?: unknown;
}

const GROUP = '120363000000000077@g.us';
const LEFT_GROUP = '120363000000000078@g.us';
const inGroup = (value: string) => ({ __rl: true, mode: 'list', value });
const KEY = { remoteJid: '5511933330000@s.whatsapp.net', messageId: '3AE2EKEY0001', fromMe: false };
/** A poll sent before the workflow runs (2.4 takes the id a client chooses), for Get Poll Votes. */
const E2E_POLL_ID = '3AE2EPOLL001';

export const V2_OPERATIONS: V2Op[] = [
	{ node: 'Mark as Read', parameters: { resource: 'message', operation: 'markAsRead', ...KEY }, method: 'POST', path: '/chat/markMessageAsRead/demo', body: { readMessages: [{ remoteJid: KEY.remoteJid, fromMe: false, id: KEY.messageId }] } },
	{ node: 'Mark Unread', parameters: { resource: 'chat', operation: 'markUnread', chat: KEY.remoteJid, messageId: KEY.messageId, fromMe: false }, method: 'POST', path: '/chat/markChatUnread/demo', body: { lastMessage: { key: { remoteJid: KEY.remoteJid, fromMe: false, id: KEY.messageId } }, chat: KEY.remoteJid } },
	{ node: 'Chats', parameters: { resource: 'chat', operation: 'getMany', limit: 5 }, method: 'POST', path: '/chat/findChats/demo', body: { where: {}, take: 5, skip: 0 } },
	{ node: 'Contacts', parameters: { resource: 'contact', operation: 'getMany', returnAll: true }, method: 'POST', path: '/chat/findContacts/demo', body: { where: {}, page: 1, offset: 100 } },
	{ node: 'Profile', parameters: { resource: 'contact', operation: 'getProfile', number: '5511933330000' }, method: 'POST', path: '/chat/fetchProfile/demo', body: { number: '5511933330000' } },
	{ node: 'Picture', parameters: { resource: 'contact', operation: 'getProfilePicture', number: '5511933330000' }, method: 'POST', path: '/chat/fetchProfilePictureUrl/demo', body: { number: '5511933330000' } },
	{ node: 'Block', parameters: { resource: 'contact', operation: 'updateBlock', number: '5511933330000', status: 'block' }, method: 'POST', path: '/chat/updateBlockStatus/demo', body: { number: '5511933330000', status: 'block' } },
	{ node: 'Instances', parameters: { resource: 'instance', operation: 'getMany', returnAll: true }, method: 'GET', path: '/instance/fetchInstances' },
	{ node: 'Presence', parameters: { resource: 'instance', operation: 'setPresence', presence: 'available' }, method: 'POST', path: '/instance/setPresence/demo', body: { presence: 'available' } },
	{ node: 'Group', parameters: { resource: 'group', operation: 'get', groupJid: inGroup(GROUP) }, method: 'GET', path: '/group/findGroupInfos/demo', query: { groupJid: GROUP } },
	{ node: 'Groups', parameters: { resource: 'group', operation: 'getMany', returnAll: true, getParticipants: false }, method: 'GET', path: '/group/fetchAllGroups/demo', query: { getParticipants: 'false' } },
	{ node: 'Add Participant', parameters: { resource: 'group', operation: 'updateParticipants', groupJid: inGroup(GROUP), action: 'add', participants: '5511922220000' }, method: 'POST', path: '/group/updateParticipant/demo', query: { groupJid: GROUP }, body: { action: 'add', participants: ['5511922220000'] } },
	{ node: 'Description', parameters: { resource: 'group', operation: 'updateDescription', groupJid: inGroup(GROUP), description: 'About us' }, method: 'POST', path: '/group/updateGroupDescription/demo', query: { groupJid: GROUP }, body: { description: 'About us' } },
	{ node: 'Group Picture', parameters: { resource: 'group', operation: 'updatePicture', groupJid: inGroup(GROUP), mediaSource: 'url', mediaUrl: 'https://files.example.com/logo.png' }, method: 'POST', path: '/group/updateGroupPicture/demo', query: { groupJid: GROUP }, body: { image: 'https://files.example.com/logo.png' } },
	{ node: 'Admins Only', parameters: { resource: 'group', operation: 'updateSetting', groupJid: inGroup(GROUP), action: 'announcement' }, method: 'POST', path: '/group/updateSetting/demo', query: { groupJid: GROUP }, body: { action: 'announcement' } },
	{ node: 'Disappearing', parameters: { resource: 'group', operation: 'setEphemeral', groupJid: inGroup(GROUP), expiration: 86400 }, method: 'POST', path: '/group/toggleEphemeral/demo', query: { groupJid: GROUP }, body: { expiration: 86400 } },
	{ node: 'Invite Code', parameters: { resource: 'group', operation: 'getInviteCode', groupJid: inGroup(GROUP) }, method: 'GET', path: '/group/inviteCode/demo', query: { groupJid: GROUP } },
	{ node: 'Revoke Code', parameters: { resource: 'group', operation: 'revokeInviteCode', groupJid: inGroup(GROUP) }, method: 'POST', path: '/group/revokeInviteCode/demo', query: { groupJid: GROUP } },
	{ node: 'Invite', parameters: { resource: 'group', operation: 'sendInvite', groupJid: inGroup(GROUP), numbers: '5511922220000', description: 'Join us' }, method: 'POST', path: '/group/sendInvite/demo', body: { groupJid: GROUP, description: 'Join us', numbers: ['5511922220000'] } },
	{ node: 'Leave', parameters: { resource: 'group', operation: 'leave', groupJid: inGroup(LEFT_GROUP) }, method: 'DELETE', path: '/group/leaveGroup/demo', query: { groupJid: LEFT_GROUP } },
	{ node: 'Labels', parameters: { resource: 'label', operation: 'getMany', returnAll: true }, method: 'GET', path: '/label/findLabels/demo' },
	{ node: 'Label Chat', parameters: { resource: 'label', operation: 'addToChat', number: '5511933330000', labelId: inGroup('1') }, method: 'POST', path: '/label/handleLabel/demo', body: { number: '5511933330000', labelId: '1', action: 'add' } },
	{ node: 'Unlabel Chat', parameters: { resource: 'label', operation: 'removeFromChat', number: '5511933330000', labelId: inGroup('2') }, method: 'POST', path: '/label/handleLabel/demo', body: { number: '5511933330000', labelId: '2', action: 'remove' } },
	{ node: 'Settings', parameters: { resource: 'settings', operation: 'get' }, method: 'GET', path: '/settings/find/demo' },
	{ node: 'Webhook', parameters: { resource: 'webhook', operation: 'get' }, method: 'GET', path: '/webhook/find/demo' },
	{ node: 'Contact Card', parameters: { resource: 'message', operation: 'sendContact', number: '5511933330000', contacts: { contact: [{ fullName: 'Ana Lima', phoneNumber: '+55 11 98888-0000' }] } }, method: 'POST', path: '/message/sendContact/demo', body: { number: '5511933330000', contact: [{ fullName: 'Ana Lima', wuid: '5511988880000', phoneNumber: '+55 11 98888-0000' }] } },
	{ node: 'Poll', parameters: { resource: 'message', operation: 'sendPoll', number: '5511933330000', name: 'Which day?', pollOptions: { option: [{ text: 'Mon' }, { text: 'Fri' }] } }, method: 'POST', path: '/message/sendPoll/demo', body: { number: '5511933330000', name: 'Which day?', selectableCount: 1, values: ['Mon', 'Fri'] } },
	{ node: 'Voice Note', parameters: { resource: 'message', operation: 'sendAudio', number: '5511933330000', mediaSource: 'url', mediaUrl: 'https://files.example.com/hello.ogg' }, method: 'POST', path: '/message/sendWhatsAppAudio/demo', body: { number: '5511933330000', audio: 'https://files.example.com/hello.ogg' } },
	{ node: 'Sticker', parameters: { resource: 'message', operation: 'sendSticker', number: '5511933330000', mediaSource: 'url', mediaUrl: 'https://files.example.com/s.webp' }, method: 'POST', path: '/message/sendSticker/demo', body: { number: '5511933330000', sticker: 'https://files.example.com/s.webp' } },
	{ node: 'Video Note', parameters: { resource: 'message', operation: 'sendVideoNote', number: '5511933330000', mediaSource: 'url', mediaUrl: 'https://files.example.com/v.mp4' }, method: 'POST', path: '/message/sendPtv/demo', body: { number: '5511933330000', video: 'https://files.example.com/v.mp4' } },
	{ node: 'Delete', parameters: { resource: 'message', operation: 'delete', ...KEY, fromMe: true }, method: 'DELETE', path: '/chat/deleteMessageForEveryone/demo', body: { id: KEY.messageId, fromMe: true, remoteJid: KEY.remoteJid } },
	{ node: 'Restart', parameters: { resource: 'instance', operation: 'restart', instance: picked('spare1') }, method: 'POST', path: '/instance/restart/spare1' },
	{ node: 'Log Out', parameters: { resource: 'instance', operation: 'logout', instance: picked('spare2') }, method: 'DELETE', path: '/instance/logout/spare2' },
	{ node: 'Delete Instance', parameters: { resource: 'instance', operation: 'delete', instance: picked('spare3') }, method: 'DELETE', path: '/instance/delete/spare3' },
];

export const V24_CREDENTIAL = 'Sandbox 2.4';

/** The operations of Evolution API 2.4, run against a sandbox playing 2.4 (a 2.3.x one answers their routes 404). */
export const V24_OPERATIONS: V2Op[] = [
	{
		node: 'Carousel',
		parameters: { resource: 'message', operation: 'sendCarousel', number: '5511933330000', body: 'Menu', cards: { card: [{ body: 'Pizza', imageUrl: 'https://files.example.com/p.jpg', buttons: { button: [{ type: 'url', displayText: 'See', url: 'https://example.com/pizza' }] } }] } },
		method: 'POST',
		path: '/message/sendCarousel/demo',
		body: { number: '5511933330000', body: 'Menu', cards: [{ body: 'Pizza', imageUrl: 'https://files.example.com/p.jpg', buttons: [{ type: 'url', displayText: 'See', url: 'https://example.com/pizza' }] }] },
	},
	{ node: 'Played', parameters: { resource: 'message', operation: 'markAsPlayed', ...KEY }, method: 'POST', path: '/chat/markMessageAsPlayed/demo', body: { playedMessages: [{ remoteJid: KEY.remoteJid, fromMe: false, id: KEY.messageId }] } },
	{ node: 'Poll Votes', parameters: { resource: 'message', operation: 'getPollVotes', remoteJid: KEY.remoteJid, messageId: E2E_POLL_ID }, method: 'POST', path: '/chat/getPollVote/demo', body: { message: { key: { id: E2E_POLL_ID } }, remoteJid: KEY.remoteJid } },
	{ node: 'Channels', parameters: { resource: 'chat', operation: 'getManyChannels', limit: 5 }, method: 'POST', path: '/chat/findChannels/demo', body: { page: 1, limit: 5 } },
	{ node: 'Member Add Mode', parameters: { resource: 'group', operation: 'updateMemberAddMode', groupJid: inGroup(GROUP), mode: 'admin_add' }, method: 'POST', path: '/group/updateMemberAddMode/demo', query: { groupJid: GROUP }, body: { groupJid: GROUP, mode: 'admin_add' } },
];

export function everyV24Workflow(credId: string): WorkflowSpec {
	return {
		name: 'e2e v2: the operations of Evolution API 2.4',
		nodes: [start, ...V24_OPERATIONS.map((op, i) => action(credId, op.node, { instance: picked('demo'), ...op.parameters }, [300, i * 100], V24_CREDENTIAL))],
		connections: { Start: { main: [V24_OPERATIONS.map((op) => ({ node: op.node, type: 'main', index: 0 }))] } },
	};
}

export function everyV2Workflow(credId: string): WorkflowSpec {
	return {
		name: 'e2e v2: every other operation',
		nodes: [start, ...V2_OPERATIONS.map((op, i) => action(credId, op.node, { instance: picked('demo'), ...op.parameters }, [300, i * 100]))],
		connections: { Start: { main: [V2_OPERATIONS.map((op) => ({ node: op.node, type: 'main', index: 0 }))] } },
	};
}

/** Runs the fan-out workflow and checks each node's one request and its output. */
export async function everyV2Checks(tools: E2eTools, sandbox: Sandbox, id: string): Promise<void> {
	for (const spare of ['spare1', 'spare2', 'spare3']) sandbox.addInstance(spare);
	sandbox.addGroup('demo', { id: GROUP, subject: 'E2E', participants: ['5511988880000'] });
	sandbox.addGroup('demo', { id: LEFT_GROUP, subject: 'To leave', participants: ['5511988880000'] });
	await sandbox.injectMessage('demo', { from: '5511933330000', id: KEY.messageId, text: 'a message to act on', pushName: 'Bea' });
	sandbox.clearRequests();
	const result = await executeWorkflow(tools.userFolder, id, tools.version);
	const ok = await tools.check('(k) every other v2 operation runs in one workflow (exit 0)', () => ran(result));
	await checkRequests(tools, sandbox, V2_OPERATIONS, '(k)', ok, nodeOutputs(result.data));
}

/** Runs the 2.4 fan-out against the 2.4 sandbox (after a poll for Get Poll Votes), checks it, then closes that sandbox. */
export async function everyV24Checks(tools: E2eTools, sandbox: Sandbox, id: string): Promise<void> {
	try {
		sandbox.addGroup('demo', { id: GROUP, subject: 'E2E', participants: ['5511988880000'] });
		await sandbox.injectMessage('demo', { from: '5511933330000', id: KEY.messageId, text: 'a voice note to mark played', pushName: 'Bea' });
		// A channel post, so that Get Many Channels has one to list.
		await sandbox.injectMessage('demo', { from: '120363000000000099@newsletter', text: 'news of the day' });
		const poll = await fetch(`${sandbox.url}/message/sendPoll/demo`, {
			method: 'POST',
			headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ number: '5511933330000', name: 'Which day?', selectableCount: 1, values: ['Mon', 'Fri'], messageId: E2E_POLL_ID }),
		});
		assert.equal(poll.status, 201, 'the poll for Get Poll Votes was not sent');
		sandbox.clearRequests();
		const result = await executeWorkflow(tools.userFolder, id, tools.version);
		const ok = await tools.check('(n) the operations of Evolution API 2.4 run in one workflow against a 2.4 server (exit 0)', () => ran(result));
		await checkRequests(tools, sandbox, V24_OPERATIONS, '(n)', ok, nodeOutputs(result.data));
	} finally {
		await sandbox.close().catch(() => undefined);
	}
}

/** The sends that carry the node's own message id on v2 servers (a retry looks it up before sending again). */
const SENDS_WITH_MESSAGE_ID = /^\/message\/(sendText|sendMedia|sendPtv|sendSticker|sendPoll)\//;

/**
 * The body without `messageId`, after checking it: the five sends carry one in the node's form
 * (`3EB0` and 18 hex digits, made from the execution, node and item), every other route none.
 */
export function bodyWithoutMessageId(path: string, body: any): any {
	if (!body || typeof body !== 'object') return body;
	const { messageId, ...rest } = body;
	if (SENDS_WITH_MESSAGE_ID.test(path)) assert.match(String(messageId), /^3EB0[0-9A-F]{18}$/, `${path}: messageId ${JSON.stringify(messageId)}`);
	else assert.equal(messageId, undefined, `${path} carries a messageId`);
	return rest;
}

/** Each operation's one request as the real server reads it, and an output item; no secret in any output. */
async function checkRequests(tools: E2eTools, sandbox: Sandbox, operations: V2Op[], tag: string, ok: boolean, outputs: Record<string, any[]>): Promise<void> {
	for (const op of operations) {
		await tools.check(`${tag} ${op.node}: ${op.method} ${op.path} as the real server reads it`, () => {
			// Operations on one route (Label Chat, Unlabel Chat) each make one request, in node order.
			const onRoute = operations.filter((other) => other.path === op.path && other.method === op.method);
			const requests = (sandbox.requests as any[]).filter((request) => request.path === op.path && request.method === op.method);
			assert.equal(requests.length, onRoute.length, `${requests.length} requests`);
			const request = requests[onRoute.indexOf(op)];
			assert.deepEqual(request.query, op.query ?? {});
			assert.deepEqual(bodyWithoutMessageId(op.path, request.body), op.body);
			assert.ok(request.status < 300, `answered ${request.status}: ${JSON.stringify(request.response).slice(0, 200)}`);
			if (ok) assert.ok((outputs[op.node] ?? []).length >= 1, 'no output item');
		});
	}
	await tools.check(`${tag} outputs carry no token or API key`, () => {
		const text = JSON.stringify(outputs);
		assert.ok(!text.includes(sandbox.apiKey), 'API key in an output');
		assert.ok(!text.includes(sandbox.instanceToken('demo')), 'instance token in an output');
	});
}
