/**
 * (u) The other routes a workflow can use, in a real n8n: one workflow runs every operation of
 * the Profile, Proxy, Business, Template, Storage and Chatwoot resources and Chat → Get,
 * Message → Get Receipts and Send Template, Group → Get Invite Info and Accept Invite, one node
 * each, against a sandbox playing 2.3.7 with a Baileys instance and a Cloud API instance. Each
 * node's request reached its route and was answered 2xx; the proxy password and the Chatwoot
 * token typed into the workflow never show in the run's output.
 *
 *   tsx e2e/otherRoutes.ts [version]   runs (u) alone: packs, installs into a temp user
 *                                      folder, starts n8n (~40 s)
 */
import * as assert from 'node:assert/strict';

import { executeWorkflow, nodeOutputs, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, credentialRef } from '../scripts/demo-workflow';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const CONTACT = '5511944440077';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
const GROUP = '120363000000000099@g.us';
const PROXY_PASSWORD = 'e2e-proxy-pass-91c3';
const CHATWOOT_TOKEN = 'e2e-chatwoot-token-5d7a';

const instance = (name: string) => ({ __rl: true, mode: 'name', value: name });
const byName = (value: string) => ({ __rl: true, mode: 'name', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** One node per operation, run in a chain, each once whatever its input (a list answers many items). */
function steps(inviteCode: string): Array<{ name: string; path: string; parameters: Record<string, unknown> }> {
	const demo = instance('demo');
	const meta = instance('meta');
	return [
		{ name: 'Update Name', path: 'POST /chat/updateProfileName/demo', parameters: { resource: 'profile', operation: 'updateName', instance: demo, name: 'E2E Shop' } },
		{ name: 'Update Status', path: 'POST /chat/updateProfileStatus/demo', parameters: { resource: 'profile', operation: 'updateStatus', instance: demo, status: 'Open 9–18' } },
		{ name: 'Update Picture', path: 'POST /chat/updateProfilePicture/demo', parameters: { resource: 'profile', operation: 'updatePicture', instance: demo, mediaSource: 'url', mediaUrl: 'https://files.example.com/logo.jpg' } },
		{ name: 'Remove Picture', path: 'DELETE /chat/removeProfilePicture/demo', parameters: { resource: 'profile', operation: 'removePicture', instance: demo } },
		{ name: 'Update Privacy', path: 'POST /chat/updatePrivacySettings/demo', parameters: { resource: 'profile', operation: 'updatePrivacy', instance: demo, lastSeen: 'contacts' } },
		{ name: 'Get Privacy', path: 'GET /chat/fetchPrivacySettings/demo', parameters: { resource: 'profile', operation: 'getPrivacy', instance: demo } },
		{ name: 'Get Business Profile', path: 'POST /chat/fetchBusinessProfile/demo', parameters: { resource: 'profile', operation: 'getBusinessProfile', instance: demo } },
		{ name: 'Get Chat', path: 'GET /chat/findChatByRemoteJid/demo', parameters: { resource: 'chat', operation: 'get', instance: demo, remoteJid: CONTACT } },
		{ name: 'Get Receipts', path: 'POST /chat/findStatusMessage/demo', parameters: { resource: 'message', operation: 'getReceipts', instance: demo, limit: 5 } },
		{ name: 'Get Invite Info', path: 'GET /group/inviteInfo/demo', parameters: { resource: 'group', operation: 'getInviteInfo', instance: demo, inviteCode: `https://chat.whatsapp.com/${inviteCode}` } },
		{ name: 'Accept Invite', path: 'GET /group/acceptInviteCode/demo', parameters: { resource: 'group', operation: 'acceptInvite', instance: demo, inviteCode } },
		{ name: 'Set Proxy', path: 'POST /proxy/set/demo', parameters: { resource: 'proxy', operation: 'set', instance: demo, host: 'proxy.example.com', port: '3128', protocol: 'http', username: 'shop', password: PROXY_PASSWORD } },
		{ name: 'Get Proxy', path: 'GET /proxy/find/demo', parameters: { resource: 'proxy', operation: 'get', instance: demo } },
		{ name: 'Get Catalog', path: 'POST /business/getCatalog/demo', parameters: { resource: 'business', operation: 'getCatalog', instance: demo, limit: 3 } },
		{ name: 'Get Collections', path: 'POST /business/getCollections/demo', parameters: { resource: 'business', operation: 'getCollections', instance: demo, returnAll: true } },
		{ name: 'Set Chatwoot', path: 'POST /chatwoot/set/demo', parameters: { resource: 'chatwoot', operation: 'set', instance: demo, url: 'https://chatwoot.example.com', accountId: '3', token: CHATWOOT_TOKEN, options: {} } },
		{ name: 'Get Chatwoot', path: 'GET /chatwoot/find/demo', parameters: { resource: 'chatwoot', operation: 'get', instance: demo } },
		{ name: 'Get Media', path: 'POST /s3/getMedia/demo', parameters: { resource: 'storage', operation: 'getMedia', instance: demo, returnAll: true } },
		{ name: 'Get Media URL', path: 'POST /s3/getMediaUrl/demo', parameters: { resource: 'storage', operation: 'getMediaUrl', instance: demo, mediaId: "={{ $('Get Media').first().json.id }}" } },
		{
			name: 'Create Template',
			path: 'POST /template/create/meta',
			parameters: { resource: 'template', operation: 'create', instance: meta, name: 'e2e_order', category: 'UTILITY', language: 'en_US', components: '[{"type":"BODY","text":"Order {{1}} shipped","example":{"body_text":[["#1"]]}}]' },
		},
		{ name: 'Get Templates', path: 'GET /template/find/meta', parameters: { resource: 'template', operation: 'getMany', instance: meta, returnAll: true } },
		{
			name: 'Update Template',
			path: 'POST /template/edit/meta',
			parameters: { resource: 'template', operation: 'update', instance: meta, templateId: byId("={{ $('Create Template').first().json.templateId }}"), updateFields: { category: 'MARKETING' } },
		},
		{
			name: 'Send Template',
			path: 'POST /message/sendTemplate/meta',
			parameters: { resource: 'message', operation: 'sendTemplate', instance: meta, number: CONTACT, templateName: byName('hello_world'), language: 'en_US', components: '[{"type":"body","parameters":[{"type":"text","text":"Ana"}]}]' },
		},
		{ name: 'Delete Template', path: 'DELETE /template/delete/meta', parameters: { resource: 'template', operation: 'delete', instance: meta, templateName: byName('e2e_order'), options: {} } },
	];
}

function chainWorkflow(credId: string, credName: string, chain: ReturnType<typeof steps>): WorkflowSpec {
	const nodes: unknown[] = [{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }];
	const connections: Record<string, unknown> = {};
	let previous = 'Start';
	chain.forEach((step, index) => {
		nodes.push({
			id: `step-${index}`,
			name: step.name,
			type: ACTION_TYPE,
			typeVersion: 2,
			position: [200 * (index + 1), 0],
			executeOnce: true,
			credentials: credentialRef(credId, credName),
			parameters: step.parameters,
		});
		connections[previous] = { main: [[{ node: step.name, type: 'main', index: 0 }]] };
		previous = step.name;
	});
	return { name: 'e2e (u): every other route', nodes, connections };
}

/** A request to the sandbox as a client would make it, with the global key. */
async function call(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<any> {
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	assert.ok(response.ok, `${method} ${path} answered ${response.status} ${text.slice(0, 300)}`);
	return text === '' ? undefined : JSON.parse(text);
}

export async function otherRoutesChecks(tools: E2eTools, rest: RestClient): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }, { name: 'meta', integration: 'WHATSAPP-BUSINESS' }, { name: 'owner' }] });
	try {
		// What the routes read: a chat, a sent message (its receipt and stored media), another account's group.
		await sandbox.injectMessage('demo', { from: CONTACT, text: 'hello shop' });
		await call(sandbox, 'POST', '/message/sendMedia/demo', { number: CONTACT, mediatype: 'image', mimetype: 'image/jpeg', media: 'https://files.example.com/photo.jpg', fileName: 'photo.jpg' });
		sandbox.addGroup('owner', { id: GROUP, subject: 'Partners', participants: [CONTACT] });
		const { inviteCode } = await call(sandbox, 'GET', `/group/inviteCode/owner?groupJid=${encodeURIComponent(GROUP)}`);
		const credName = 'Sandbox 2.3.7 (e2e s)';
		const made = await rest.call('POST', '/credentials', { name: credName, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const chain = steps(inviteCode);
		const workflow = await rest.call('POST', '/workflows', { ...chainWorkflow(String(made.id), credName, chain), active: false, settings: { executionOrder: 'v1' } });
		sandbox.clearRequests();
		const result = await executeWorkflow(tools.userFolder, String(workflow.id), tools.version);

		await tools.check(`(u) one workflow runs all ${chain.length} operations of Profile, Proxy, Business, Template, Storage, Chatwoot, Chat → Get, Message → Get Receipts / Send Template, Group → Get Invite Info / Accept Invite: each reached its route and was answered 2xx`, async () => {
			assert.equal(result.ok, true, `the run failed: ${result.stdout.slice(-2000)}${result.stderr.slice(-1000)}`);
			const outputs = nodeOutputs(result.data);
			const answered = (sandbox.requests as any[]).map((request) => ({ line: `${request.method} ${request.path}`, status: request.status as number }));
			for (const step of chain) {
				assert.ok((outputs[step.name] ?? []).length > 0, `${step.name} output no item`);
				const request = answered.find((entry) => entry.line === step.path);
				assert.ok(request, `${step.name}: no request ${step.path}; the sandbox saw ${answered.map((entry) => entry.line).join(', ')}`);
				assert.ok(request.status < 300, `${step.name}: ${step.path} answered ${request.status}`);
			}
		});
		await tools.check('(u) the answers read as the README says: privacy, the chat, the joined group, three products, the template sent to the contact', async () => {
			const outputs = nodeOutputs(result.data);
			const first = (name: string) => outputs[name]?.[0]?.json;
			assert.equal(first('Get Privacy')?.last, 'contacts');
			assert.equal(first('Get Chat')?.remoteJid, CONTACT_JID);
			assert.deepEqual(first('Accept Invite'), { accepted: true, groupJid: GROUP });
			assert.equal(outputs['Get Catalog']?.length, 3);
			assert.equal(first('Send Template')?.key?.remoteJid, CONTACT_JID);
			assert.match(String(first('Get Media URL')?.mediaUrl), /^https:\/\//);
		});
		await tools.check('(u) the proxy password and the Chatwoot token were sent to the server but are in no output of the run', async () => {
			const sentBodies = JSON.stringify((sandbox.requests as any[]).map((request) => request.body));
			assert.ok(sentBodies.includes(PROXY_PASSWORD) && sentBodies.includes(CHATWOOT_TOKEN), 'the secrets were not sent');
			const outputs = nodeOutputs(result.data);
			assert.equal(outputs['Get Proxy']?.[0]?.json?.password, '[redacted]');
			assert.equal(outputs['Get Chatwoot']?.[0]?.json?.token, '[redacted]');
			// the run's data without the workflow itself (whose parameters hold what the user typed)
			const runData = result.data?.resultData ?? result.data?.data?.resultData ?? {};
			const runText = JSON.stringify(runData);
			assert.ok(runText.includes('Get Proxy'), 'no run data to look into');
			for (const secret of [PROXY_PASSWORD, CHATWOOT_TOKEN, sandbox.apiKey]) assert.ok(!runText.includes(secret), 'a secret is in the run data');
		});
	} finally {
		await sandbox.close();
	}
}

if (require.main === module) void runAlone('other-routes', (tools, rest) => otherRoutesChecks(tools, rest));
