/**
 * (p) The README's echo recipe (`npm start`'s example: trigger → Send Text to
 * `{{ $json.chatId }}`) in a real n8n against a sandbox playing each Evolution API release,
 * 2.3.6, 2.3.7 and 2.4.0, side by side: a contact known by LID gets the reply on its phone JID
 * whichever field the release put it in; a contact known only by its LID gets it on the LID;
 * a group message whose author is a LID pair (on 2.3.6) is answered in the group.
 * (q) The credential test in n8n on each release; an unactivated 2.4 server: a Send Text run by
 * `n8n execute` and the credential test fail with the licence error (what is missing, the
 * address where the server is activated, the licensing key).
 *
 *   tsx e2e/serverVersions.ts [version]   runs (p) and (q) alone: packs, installs into a temp
 *                                         user folder, starts n8n (~40 s)
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import { executeWorkflow, request, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, credentialRef, replyWorkflow, REPLY_PREFIX, TRIGGER_NODE } from '../scripts/demo-workflow';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const RELEASES = ['2.3.6', '2.3.7', '2.4.0'] as const;
type Release = (typeof RELEASES)[number];

/** A contact WhatsApp knows by LID: its phone number and its LID. */
const PHONE = '5511944440001';
const PHONE_JID = `${PHONE}@s.whatsapp.net`;
const LID = '123456789012345@lid';
/** A contact known only by its LID (no phone JID in the key). */
const LID_ONLY = '987654321098765@lid';
const GROUP = '120363000000000091@g.us';

/** Where each release puts the contact's LID and phone JID in `key.remoteJid` (sandbox/lid.ts, from the real source). */
const REMOTE_JID_DELIVERED: Record<Release, string> = { '2.3.6': LID, '2.3.7': PHONE_JID, '2.4.0': PHONE_JID };
/** 2.3.7 overwrites `remoteJid` with `remoteJidAlt`: its key carries the phone JID twice and no LID. */
const SENDER_LID_DELIVERED: Record<Release, string | null> = { '2.3.6': LID, '2.3.7': null, '2.4.0': LID };

/** One sandbox playing one release, its credential and the published echo workflow. */
interface Played {
	release: Release;
	sandbox: Sandbox;
	credId: string;
	workflowId: string;
}

/** A small flatted parser: n8n stores run data as a `flatted` string (strings and objects by index). */
export function unflatten(text: string): any {
	const table = JSON.parse(text) as unknown[];
	const made = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		const value = table[index];
		if (typeof value !== 'object' || value === null) return value;
		if (made.has(index)) return made.get(index);
		const out: any = Array.isArray(value) ? [] : {};
		made.set(index, out);
		for (const [key, inner] of Object.entries(value)) out[key] = typeof inner === 'string' ? revive(Number(inner)) : inner;
		return out;
	};
	return revive(0);
}

const SEND_TEXT_PATHS = new Set(['/message/sendText/demo', '/message/sendText/team']);
const sendTexts = (sandbox: Sandbox): any[] => (sandbox.requests as any[]).filter((r) => r.method === 'POST' && SEND_TEXT_PATHS.has(r.path));

async function createCredential(rest: RestClient, name: string, sandbox: Sandbox): Promise<string> {
	const made = await rest.call('POST', '/credentials', { name, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
	return String(made.id);
}

async function createWorkflow(rest: RestClient, spec: WorkflowSpec): Promise<string> {
	const made = await rest.call('POST', '/workflows', { ...spec, active: false, settings: { executionOrder: 'v1' } });
	return String(made.id);
}

/** Publishes the workflow and waits until the sandbox has its webhook and n8n serves it (a bare POST gets 401, not 404). */
export async function publish(tools: E2eTools, rest: RestClient, n8nUrl: string, sandbox: Sandbox, instance: string, workflowId: string): Promise<void> {
	await rest.activate(workflowId);
	const hook = await tools.waitFor(`${instance}'s webhook on this n8n`, () => {
		const h = sandbox.webhookOf(instance);
		return h?.enabled && String(h.url).startsWith(`${n8nUrl}/webhook/`) ? h : undefined;
	}, 15000);
	const url = new URL(String(hook.url));
	await tools.waitFor('the production webhook to serve', async () => {
		const res = await request('POST', `${url.origin}${url.pathname}`, {});
		return res.status !== 404 ? res : undefined;
	}, 30000);
}

/** Unpublishes the workflow and waits until its trigger has switched the sandbox's webhook off (n8n does it in the background). */
async function unpublish(tools: E2eTools, rest: RestClient, sandbox: Sandbox, instance: string, workflowId: string): Promise<void> {
	await rest.deactivate(workflowId);
	await tools.waitFor(`${instance}'s webhook switched off`, () => sandbox.webhookOf(instance)?.enabled === false, 15000);
}

/** The trigger's item for the message `messageId`, read from the workflow's saved executions. */
async function triggerItemOf(tools: E2eTools, rest: RestClient, workflowId: string, messageId: string): Promise<any> {
	return tools.waitFor(`the execution of message ${messageId}`, async () => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = (await rest.call('GET', `/executions?filter=${filter}&limit=20`)) as { results: Array<{ id: string; status: string }> };
		for (const execution of page.results) {
			if (execution.status !== 'success') continue;
			const full = await rest.call('GET', `/executions/${execution.id}`);
			const data = typeof full.data === 'string' ? unflatten(full.data) : full.data;
			const item = data?.resultData?.runData?.[TRIGGER_NODE]?.[0]?.data?.main?.[0]?.[0]?.json;
			if (item?.messageId === messageId) return item;
		}
		return undefined;
	}, 20000);
}

/** Injects a message, waits for the reply; then, a moment later, that it is the only one. */
async function replyTo(tools: E2eTools, sandbox: Sandbox, instance: string, message: Record<string, unknown>): Promise<{ delivery: any; reply: any; replies: any[] }> {
	const text = String(message.text);
	const before = sendTexts(sandbox).length;
	const delivery = await sandbox.injectMessage(instance, { pushName: 'Lia', ...message });
	const status = delivery?.attempts?.at(-1)?.status;
	assert.ok(status >= 200 && status < 300, `the delivery was answered ${JSON.stringify(delivery?.attempts?.at(-1) ?? 'not made')}`);
	const mine = () => sendTexts(sandbox).slice(before).filter((r) => r.body?.text === `${REPLY_PREFIX}${text}`);
	const reply = await tools.waitFor(`the reply to "${text}"`, () => mine()[0], 30000);
	// A second reply (a second run, a retried send) would come within the same moment.
	await new Promise((resolve) => setTimeout(resolve, 1500));
	await sandbox.settled();
	return { delivery, reply, replies: mine() };
}

/** The echo recipe against each release: a contact known by LID, a LID-only contact. */
async function echoOnRelease(tools: E2eTools, rest: RestClient, played: Played): Promise<void> {
	const { release, sandbox, workflowId } = played;
	const tag = `(p) ${release}`;
	await tools.check(`${tag}: a contact known by LID writes; the trigger's item has chatId and sender = the phone JID, senderLid = ${SENDER_LID_DELIVERED[release] ? 'the LID' : 'null (no LID in the key)'}, remoteJid = ${REMOTE_JID_DELIVERED[release] === LID ? 'the LID' : 'the phone JID'} as ${release} delivers it; one reply, to the phone JID`, async () => {
		const text = `lid contact on ${release} ${randomBytes(3).toString('hex')}`;
		const { delivery, reply, replies } = await replyTo(tools, sandbox, 'demo', { from: PHONE, lid: LID, text });
		const key = delivery.body.data.key;
		assert.equal(key.remoteJid, REMOTE_JID_DELIVERED[release], `the sandbox delivered ${JSON.stringify(key)}`);
		assert.equal([key.remoteJid, key.remoteJidAlt].includes(LID), SENDER_LID_DELIVERED[release] !== null, `the sandbox delivered ${JSON.stringify(key)}`);
		const item = await triggerItemOf(tools, rest, workflowId, key.id);
		assert.deepEqual(
			{ chatId: item.chatId, sender: item.sender, senderLid: item.senderLid, remoteJid: item.remoteJid, isGroup: item.isGroup, text: item.text },
			{ chatId: PHONE_JID, sender: PHONE_JID, senderLid: SENDER_LID_DELIVERED[release], remoteJid: key.remoteJid, isGroup: false, text },
		);
		assert.equal(reply.body.number, PHONE_JID, 'the reply is not addressed to the phone JID');
		assert.ok(reply.status < 300, `the sandbox answered the reply ${reply.status} ${JSON.stringify(reply.response).slice(0, 300)}`);
		assert.equal(replies.length, 1, `${replies.length} replies`);
	});
	await tools.check(`${tag}: a contact known only by its LID writes; chatId, sender and senderLid are the LID; one reply, to the LID, accepted`, async () => {
		const text = `lid-only contact on ${release} ${randomBytes(3).toString('hex')}`;
		const { delivery, reply, replies } = await replyTo(tools, sandbox, 'demo', { from: LID_ONLY, text });
		const key = delivery.body.data.key;
		assert.deepEqual([key.remoteJid, key.remoteJidAlt], [LID_ONLY, undefined], `the sandbox delivered ${JSON.stringify(key)}`);
		const item = await triggerItemOf(tools, rest, workflowId, key.id);
		assert.deepEqual(
			{ chatId: item.chatId, sender: item.sender, senderLid: item.senderLid, remoteJid: item.remoteJid },
			{ chatId: LID_ONLY, sender: LID_ONLY, senderLid: LID_ONLY, remoteJid: LID_ONLY },
		);
		assert.equal(reply.body.number, LID_ONLY);
		assert.ok(reply.status < 300, `the sandbox answered the reply ${reply.status} ${JSON.stringify(reply.response).slice(0, 300)}`);
		assert.equal(replies.length, 1, `${replies.length} replies`);
	});
}

/** The recipe with Ignore Group Chats off, on its own instance: a group message from a LID author. */
async function groupOnRelease(tools: E2eTools, rest: RestClient, n8nUrl: string, played: Played): Promise<void> {
	const { release, sandbox, credId } = played;
	sandbox.addInstance('team');
	sandbox.addGroup('team', { id: GROUP, subject: 'LID team', participants: [PHONE] });
	const spec = replyWorkflow(credId, { instance: 'team', name: `e2e (p): echo in groups on ${release}`, credentialName: `Evolution API ${release}` });
	(spec.nodes[0] as any).parameters.options = { ignoreGroups: false };
	const workflowId = await createWorkflow(rest, spec);
	await publish(tools, rest, n8nUrl, sandbox, 'team', workflowId);
	for (const addressing of ['lid', 'pn'] as const) {
		await tools.check(`(p) ${release}, group in ${addressing} addressing, author known by LID: chatId = the group, sender = the phone JID, senderLid = the LID; one reply, to the group`, async () => {
			const text = `group ${addressing} on ${release} ${randomBytes(3).toString('hex')}`;
			const { delivery, reply, replies } = await replyTo(tools, sandbox, 'team', { from: PHONE, lid: LID, group: GROUP, groupAddressing: addressing, text });
			const key = delivery.body.data.key;
			assert.deepEqual(
				[key.participant, key.participantAlt],
				addressing === 'lid' ? [LID, PHONE_JID] : [PHONE_JID, LID],
				`the sandbox delivered ${JSON.stringify(key)}`,
			);
			const item = await triggerItemOf(tools, rest, workflowId, key.id);
			assert.deepEqual(
				{ chatId: item.chatId, sender: item.sender, senderLid: item.senderLid, remoteJid: item.remoteJid, isGroup: item.isGroup },
				{ chatId: GROUP, sender: PHONE_JID, senderLid: LID, remoteJid: GROUP, isGroup: true },
			);
			assert.equal(reply.path, '/message/sendText/team');
			assert.equal(reply.body.number, GROUP);
			assert.ok(reply.status < 300, `the sandbox answered the reply ${reply.status}`);
			assert.equal(replies.length, 1, `${replies.length} replies`);
		});
	}
	await unpublish(tools, rest, sandbox, 'team', workflowId);
}

/** Manual Trigger → Send Text, for `n8n execute`. */
function sendTextWorkflow(credId: string, credName: string): WorkflowSpec {
	return {
		name: 'e2e (q): Send Text to an unactivated 2.4 server',
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'send',
				name: 'Send Text',
				type: ACTION_TYPE,
				typeVersion: 2,
				position: [200, 0],
				credentials: credentialRef(credId, credName),
				parameters: { resource: 'message', operation: 'sendText', instance: { __rl: true, mode: 'name', value: 'demo' }, number: PHONE, text: 'anyone there?', options: {} },
			},
		],
		connections: { Start: { main: [[{ node: 'Send Text', type: 'main', index: 0 }]] } },
	};
}

/** What n8n's credential test (the editor's Test button: `POST /rest/credentials/test`) answers for this sandbox. */
async function credentialTest(rest: RestClient, credId: string, name: string, sandbox: Sandbox): Promise<{ status: string; message: string }> {
	return rest.call('POST', '/credentials/test', {
		credentials: { id: credId, name, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } },
	});
}

const LICENCE_ERROR = 'The server is not activated: Evolution API 2.4 needs a licence before it serves any request (HTTP 503 LICENSE_REQUIRED)';
const licenceHint = (registerUrl: string) =>
	`To activate the server, open ${registerUrl} and activate it there, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Nothing was sent.`;
const LICENCE_TEST_MESSAGE =
	"The server answered 503 (unavailable). An Evolution API 2.4 server answers so until it is activated (LICENSE_REQUIRED): open the server's /manager/login page (the Base URL followed by /manager/login) to activate it, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Otherwise the server is down or overloaded: try again later.";

/** (q) The credential test on an activated server of each release: the key is checked with one harmless request. */
async function credentialTestOnRelease(tools: E2eTools, rest: RestClient, played: Played): Promise<void> {
	const { release, sandbox, credId } = played;
	await tools.check(`(q) ${release}: the credential test in n8n (POST /rest/credentials/test) succeeds with one GET /instance/fetchInstances carrying the key`, async () => {
		const since = sandbox.requests.length;
		const result = await credentialTest(rest, credId, `Evolution API ${release}`, sandbox);
		assert.deepEqual(result, { status: 'OK', message: 'Connection successful!' });
		const asked = (sandbox.requests as any[]).slice(since);
		assert.deepEqual(asked.map((r) => `${r.method} ${r.path} ${r.status}`), ['GET /instance/fetchInstances 200']);
		assert.equal(asked[0].headers.apikey, sandbox.apiKey);
	});
}

/** (q) An action node and the credential test against an unactivated 2.4 server. */
async function unlicensedChecks(tools: E2eTools, rest: RestClient, sandbox: Sandbox): Promise<void> {
	const credName = 'Evolution API 2.4 (not activated)';
	const credId = await createCredential(rest, credName, sandbox);
	const workflowId = await createWorkflow(rest, sendTextWorkflow(credId, credName));
	const registerUrl = `${sandbox.url}/manager/login`;
	await tools.check('(q) 2.4 not activated: Send Text run by n8n execute fails with the licence error: not activated, LICENSE_REQUIRED, the register address the server gave, the licensing key; nothing is sent', async () => {
		const result = await executeWorkflow(tools.userFolder, workflowId, tools.version);
		assert.equal(result.ok, false, 'the run succeeded');
		const error = result.data?.data?.resultData?.error ?? result.data?.resultData?.error;
		assert.ok(error, `no error in the run's data: ${result.stdout.slice(-1500)}`);
		assert.equal(error.node?.name, 'Send Text');
		assert.deepEqual({ message: error.message, description: error.description, httpCode: String(error.httpCode) }, { message: LICENCE_ERROR, description: licenceHint(registerUrl), httpCode: '503' });
		assert.ok(!JSON.stringify(error).includes(sandbox.apiKey), 'the API key is in the error');
		const sends = (sandbox.requests as any[]).filter((r) => r.path === '/message/sendText/demo');
		assert.deepEqual(sends.map((r) => [r.status, r.response?.code, r.response?.register_url]), [[503, 'LICENSE_REQUIRED', registerUrl]], 'what the server answered');
		assert.equal((sandbox.chat as any[]).filter((entry) => entry.direction === 'out').length, 0, 'a message was sent');
	});
	await tools.check('(q) 2.4 not activated: the credential test in n8n fails with what is missing and both ways to activate (the /manager/login page, a licensing key)', async () => {
		const since = sandbox.requests.length;
		const result = await credentialTest(rest, credId, credName, sandbox);
		assert.deepEqual(result, { status: 'Error', message: LICENCE_TEST_MESSAGE });
		assert.ok(!result.message.includes(sandbox.apiKey), 'the API key is in the message');
		assert.deepEqual((sandbox.requests as any[]).slice(since).map((r) => `${r.method} ${r.path} ${r.status}`), ['GET /instance/fetchInstances 503']);
	});
}

/** (p) and (q): a sandbox per release side by side, one n8n. */
export async function serverVersionChecks(tools: E2eTools, rest: RestClient, n8nUrl: string): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const delivery = { attempts: 3, backoffMs: 200, timeoutMs: 30000 };
	const sandboxes: Sandbox[] = [];
	try {
		const played: Played[] = [];
		for (const release of RELEASES) {
			const sandbox = await startSandbox({ dialect: 'v2', version: release, licensed: true, instances: [{ name: 'demo' }], delivery });
			sandboxes.push(sandbox);
			const credName = `Evolution API ${release}`;
			const credId = await createCredential(rest, credName, sandbox);
			const workflowId = await createWorkflow(rest, replyWorkflow(credId, { name: `e2e (p): echo on ${release}`, credentialName: credName }));
			played.push({ release, sandbox, credId, workflowId });
		}
		for (const p of played) {
			const published = await tools.check(`(p) ${p.release}: the echo recipe publishes and registers its webhook with the sandbox playing ${p.release}`, async () => {
				await publish(tools, rest, n8nUrl, p.sandbox, 'demo', p.workflowId);
				const root = JSON.parse((await request('GET', `${p.sandbox.url}/`)).body);
				assert.equal(root.version, p.release, 'the sandbox plays another release');
			});
			if (published) await echoOnRelease(tools, rest, p);
		}
		await groupOnRelease(tools, rest, n8nUrl, played[0]);
		for (const p of played) await credentialTestOnRelease(tools, rest, p);
		for (const p of played) await unpublish(tools, rest, p.sandbox, 'demo', p.workflowId);

		const unlicensed = await startSandbox({ dialect: 'v2', version: '2.4.0', licensed: false, instances: [{ name: 'demo' }], delivery });
		sandboxes.push(unlicensed);
		await unlicensedChecks(tools, rest, unlicensed);
	} finally {
		await Promise.allSettled(sandboxes.map((s) => s.close()));
	}
}

if (require.main === module) void runAlone('server-versions', serverVersionChecks);
