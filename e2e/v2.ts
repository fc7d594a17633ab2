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
import { TRIGGER_TYPE, credentialRef } from '../scripts/demo-workflow';
import { V24_CREDENTIAL, everyV24Checks, everyV24Workflow, everyV2Checks, everyV2Workflow } from './everyOperation';
import { action, picked, ran, start, type Sandbox } from './v2Nodes';

/* eslint-disable @typescript-eslint/no-explicit-any */

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

