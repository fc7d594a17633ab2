/**
 * The v2.x operations in real n8n, against a v2 sandbox: media built as binary inside n8n
 * and sent with its exact bytes, name and type; trigger → Download Media → a hash of the
 * file; onboarding (create → connect → QR code as PNG → a simulated scan → state open);
 * groups; and the history of a chat read across the server's pages.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';

import {
	executeWorkflow,
	importCredential,
	importWorkflows,
	nodeOutputs,
	type RestClient,
	type WorkflowSpec,
} from '../scripts/n8n-runtime';
import { ACTION_TYPE, TRIGGER_TYPE, credentialRef } from '../scripts/demo-workflow';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

export interface E2eTools {
	version: string;
	userFolder: string;
	check(name: string, fn: () => unknown | Promise<unknown>): Promise<boolean>;
	waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs?: number): Promise<T>;
}

/** A small PDF, PNG and OGG as a report node, an image node and a text-to-speech node would make them. */
const FILES = [
	{ name: 'invoice-2026-11.pdf', mime: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'), mediatype: 'document' },
	{ name: 'chart.png', mime: 'image/png', bytes: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), mediatype: 'image' },
	{ name: 'greeting.ogg', mime: 'audio/ogg', bytes: Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200, 3)]), mediatype: 'audio' },
];

const start = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };

function action(credId: string, name: string, parameters: Record<string, unknown>, position: [number, number], credentialName = 'Sandbox v2') {
	return { id: name.replace(/\W/g, ''), name, type: ACTION_TYPE, typeVersion: 2, position, credentials: credentialRef(credId, credentialName), parameters };
}

const picked = (value: string) => ({ __rl: true, mode: 'list', value });

function chain(names: string[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	names.slice(0, -1).forEach((name, i) => (connections[name] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }));
	return connections;
}

/** Edit Fields → Split Out → Convert to File (base64 → binary, with name and type) → Send Media. */
function mediaWorkflow(credId: string): WorkflowSpec {
	const files = FILES.map(({ name, mime, bytes }) => ({ name, mime, b64: bytes.toString('base64') }));
	return {
		name: 'e2e v2: media from binary',
		nodes: [
			start,
			{ id: 'files', name: 'Files', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0], parameters: { mode: 'raw', jsonOutput: JSON.stringify({ files }), options: {} } },
			{ id: 'split', name: 'One Per File', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: 'files', options: {} } },
			{
				id: 'convert',
				name: 'To File',
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				position: [600, 0],
				parameters: { operation: 'toBinary', sourceProperty: 'b64', binaryPropertyName: 'data', options: { fileName: '={{ $json.name }}', mimeType: '={{ $json.mime }}' } },
			},
			action(credId, 'Send Media', { resource: 'message', operation: 'sendMedia', instance: picked('demo'), number: '5511999990000', caption: 'from n8n' }, [800, 0]),
		],
		connections: chain(['Start', 'Files', 'One Per File', 'To File', 'Send Media']),
	};
}

function onboardingWorkflow(credId: string): WorkflowSpec {
	return {
		name: 'e2e v2: onboarding',
		nodes: [
			start,
			action(credId, 'Create Instance', { resource: 'instance', operation: 'create', instanceName: 'shop', integration: 'WHATSAPP-BAILEYS', qrcode: true }, [200, 0]),
			action(credId, 'Connect', { resource: 'instance', operation: 'connect', instance: { __rl: true, mode: 'name', value: '={{ $json.instance.instanceName }}' } }, [400, 0]),
		],
		connections: chain(['Start', 'Create Instance', 'Connect']),
	};
}

function stateWorkflow(credId: string): WorkflowSpec {
	return {
		name: 'e2e v2: state',
		nodes: [start, action(credId, 'Get State', { resource: 'instance', operation: 'getState', instance: picked('shop') }, [200, 0])],
		connections: chain(['Start', 'Get State']),
	};
}

function groupWorkflow(credId: string): WorkflowSpec {
	const group = { __rl: true, mode: 'id', value: "={{ $('Create Group').item.json.id }}" };
	return {
		name: 'e2e v2: group',
		nodes: [
			start,
			action(credId, 'Create Group', { resource: 'group', operation: 'create', instance: picked('demo'), subject: 'Team', participants: '+55 11 98888-0000, 5511977770000' }, [200, 0]),
			action(credId, 'Rename', { resource: 'group', operation: 'updateSubject', instance: picked('demo'), groupJid: group, subject: 'Team 2026' }, [400, 0]),
			action(credId, 'Participants', { resource: 'group', operation: 'getParticipants', instance: picked('demo'), groupJid: group, returnAll: true }, [600, 0]),
		],
		connections: chain(['Start', 'Create Group', 'Rename', 'Participants']),
	};
}

function historyWorkflow(credId: string): WorkflowSpec {
	return {
		name: 'e2e v2: history',
		nodes: [
			start,
			action(credId, 'History', { resource: 'message', operation: 'getMany', instance: picked('demo'), returnAll: true, filters: { remoteJid: '5511966660000@s.whatsapp.net' } }, [200, 0]),
		],
		connections: chain(['Start', 'History']),
	};
}

/** Trigger → Download Media → Crypto (SHA-256 of the file) → Send Text with the hash. */
function downloadWorkflow(credId: string): WorkflowSpec {
	return {
		name: 'e2e v2: download media',
		nodes: [
			{
				id: 'trigger',
				name: 'On Media',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId: 'a7e2e2d0-0000-4000-8000-00000000d0c5',
				credentials: credentialRef(credId, 'Sandbox v2'),
				parameters: { instance: 'demo', events: ['MESSAGES_UPSERT'], options: { mediaAsBinary: false } },
			},
			action(credId, 'Download', { resource: 'message', operation: 'downloadMedia', instance: picked('demo'), messageId: '={{ $json.messageId }}' }, [200, 0]),
			{
				id: 'hash',
				name: 'Hash',
				type: 'n8n-nodes-base.crypto',
				typeVersion: 2,
				position: [400, 0],
				parameters: { action: 'hash', type: 'SHA256', binaryData: true, binaryPropertyName: 'data', dataPropertyName: 'hash', encoding: 'hex' },
			},
			action(credId, 'Reply', { resource: 'message', operation: 'sendText', instance: picked('demo'), number: "={{ $('On Media').item.json.chatId }}", text: '=sha256:{{ $json.hash }}' }, [600, 0]),
		],
		connections: chain(['On Media', 'Download', 'Hash', 'Reply']),
	};
}

export interface V2Run {
	sandbox: Sandbox;
	/** A second v2 sandbox playing Evolution API 2.4 (licensed), for the operations only 2.4 serves; closed by its checks. */
	sandbox24: Sandbox;
	ids: Record<'media' | 'onboarding' | 'state' | 'group' | 'history' | 'download' | 'every' | 'every24', string>;
}

/** Starts the v2 sandbox and imports the credential and workflows (before n8n serves). */
export async function setUpV2(tools: E2eTools): Promise<V2Run> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }] });
	const credId = await importCredential(tools.userFolder, {
		name: 'Sandbox v2',
		type: 'messagingInstanceApi',
		data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' },
	});
	const sandbox24 = await startSandbox({ dialect: 'v2', version: '2.4.0', instances: [{ name: 'demo' }] });
	// No Server Version in the credential: the node detects 2.4 from the server's GET /.
	const credId24 = await importCredential(tools.userFolder, {
		name: V24_CREDENTIAL,
		type: 'messagingInstanceApi',
		data: { baseUrl: sandbox24.url, apiKey: sandbox24.apiKey, dialect: 'v2' },
	});
	const [media, onboarding, state, group, history, download, every, every24] = await importWorkflows(tools.userFolder, [
		mediaWorkflow(credId),
		onboardingWorkflow(credId),
		stateWorkflow(credId),
		groupWorkflow(credId),
		historyWorkflow(credId),
		downloadWorkflow(credId),
		everyV2Workflow(credId),
		everyV24Workflow(credId24),
	]);
	return { sandbox, sandbox24, ids: { media, onboarding, state, group, history, download, every, every24 } };
}

function ran(result: { ok: boolean; code: number | null; stdout: string; data?: any }): void {
	if (!result.ok) {
		const error = result.data?.data?.resultData?.error ?? result.data?.resultData?.error;
		throw new Error(`exit ${result.code}: ${error ? `${error.node?.name ?? ''} ${error.message} ${error.description ?? ''}` : result.stdout.slice(-1500)}`);
	}
	if (!result.data) throw new Error(`n8n execute printed no run data it could read; its output ends: ${result.stdout.slice(-1500)}`);
}

const sent = (sandbox: Sandbox, path: string) => (sandbox.requests as any[]).filter((request) => request.path === path);

/** The checks that run workflows with `n8n execute`. */
export async function v2CliChecks(tools: E2eTools, run: V2Run): Promise<void> {
	const { sandbox } = run;
	await tools.check('(f) PDF, image and audio built as binary in n8n are sent with their exact bytes, names and types', async () => {
		const result = await executeWorkflow(tools.userFolder, run.ids.media, tools.version);
		ran(result);
		const requests = sent(sandbox, '/message/sendMedia/demo');
		assert.equal(requests.length, FILES.length, `expected ${FILES.length} sends, got ${requests.length}`);
		FILES.forEach((file, i) => {
			const body = requests[i].body;
			assert.deepEqual(
				{ mediatype: body.mediatype, mimetype: body.mimetype, fileName: body.fileName, caption: body.caption },
				{ mediatype: file.mediatype, mimetype: file.mime, fileName: file.name, caption: 'from n8n' },
			);
			assert.equal(createHash('sha256').update(Buffer.from(body.media, 'base64')).digest('hex'), createHash('sha256').update(file.bytes).digest('hex'), `${file.name}: bytes differ`);
		});
	});

	let qrOk = false;
	await tools.check('(g) onboarding: Create outputs the token, Connect gives the QR code as a PNG binary and the pairing code', async () => {
		const result = await executeWorkflow(tools.userFolder, run.ids.onboarding, tools.version);
		ran(result);
		const out = nodeOutputs(result.data);
		assert.equal(typeof out['Create Instance']?.[0]?.json?.hash, 'string', 'no token (hash) in the Create output');
		const connect = out['Connect']?.[0] as any;
		assert.ok(connect?.json?.code, `Connect output ${JSON.stringify(connect?.json).slice(0, 200)}`);
		assert.equal(connect.json.base64, undefined, 'the base64 stayed in the JSON');
		assert.equal(connect.binary?.data?.mimeType, 'image/png', `binary ${JSON.stringify(connect.binary?.data ?? null).slice(0, 200)}`);
		qrOk = true;
	});
	await tools.check('(g) onboarding: after a simulated scan, Get State says open', async () => {
		if (!qrOk) throw new Error('not run: no QR code');
		await sandbox.scan('shop');
		const result = await executeWorkflow(tools.userFolder, run.ids.state, tools.version);
		ran(result);
		assert.equal(nodeOutputs(result.data)['Get State']?.[0]?.json?.instance?.state, 'open');
	});

	await tools.check('(h) groups: create, rename and list the participants, one item each', async () => {
		const result = await executeWorkflow(tools.userFolder, run.ids.group, tools.version);
		ran(result);
		const out = nodeOutputs(result.data);
		const id = out['Create Group']?.[0]?.json?.id;
		assert.match(String(id), /@g\.us$/, `Create Group output: ${JSON.stringify(out['Create Group'] ?? Object.keys(out)).slice(0, 600)}`);
		const rename = sent(sandbox, '/group/updateGroupSubject/demo')[0];
		assert.deepEqual([rename?.query, rename?.body], [{ groupJid: id }, { subject: 'Team 2026' }]);
		assert.equal(out['Participants']?.length, 3, `participants ${JSON.stringify(out['Participants']).slice(0, 300)}`);
	});

	await everyV2Checks(tools, sandbox, run.ids.every);
	await everyV24Checks(tools, run.sandbox24, run.ids.every24);

	await tools.check('(i) history: Get Many with Return All reads every page of the chat (120 messages)', async () => {
		for (let n = 0; n < 120; n++) await sandbox.injectMessage('demo', { from: '5511966660000', text: `history ${n}` });
		const before = sent(sandbox, '/chat/findMessages/demo').length;
		const result = await executeWorkflow(tools.userFolder, run.ids.history, tools.version);
		ran(result);
		const items = nodeOutputs(result.data)['History'] ?? [];
		assert.equal(items.length, 120);
		assert.equal(sent(sandbox, '/chat/findMessages/demo').length - before, 3, 'pages asked for');
		assert.equal(items[0].json?.message?.conversation, 'history 119', 'newest first');
	});
}

/** The checks that need n8n serving: the trigger registers, the server delivers. */
export async function v2ServerChecks(tools: E2eTools, run: V2Run, rest: RestClient): Promise<void> {
	const { sandbox } = run;
	await tools.check('(j) trigger → Download Media → Crypto: the hash of the downloaded file is the hash of the file received', async () => {
		await rest.activate(run.ids.download);
		await tools.waitFor('the download workflow\'s webhook', () => sandbox.webhookOf('demo')?.enabled || undefined, 15000);
		const photo = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
		const expected = createHash('sha256').update(photo).digest('hex');
		for (let attempt = 0; attempt < 20; attempt++) {
			const delivery = await sandbox.injectMessage('demo', { from: '5511955550000', media: { kind: 'image', mimetype: 'image/jpeg', base64: photo.toString('base64') } });
			const status = delivery?.attempts?.at(-1)?.status;
			if (status && status < 300) break;
			await new Promise((r) => setTimeout(r, 500));
		}
		const reply = await tools.waitFor('the hash reply', () => sent(sandbox, '/message/sendText/demo').find((r: any) => String(r.body?.text).startsWith('sha256:')), 30000);
		assert.equal(reply.body.text, `sha256:${expected}`);
		await rest.deactivate(run.ids.download);
	});
}

/** Every other v2 operation, one node each, fanned out from one Manual Trigger (n8n runs them top to bottom). */
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

const V24_CREDENTIAL = 'Sandbox 2.4';

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
			assert.deepEqual(request.body, op.body);
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
