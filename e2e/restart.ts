/**
 * Checks (e) of e2e/run.ts: `npm start`'s own code path (startPlayground in scripts/start.ts)
 * three times on one user folder. A restart keeps the user's draft and published version, and
 * a start on other ports follows them; then the stop checks (e2e/startStop.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, majorOf, request } from '../scripts/n8n-runtime';
import { REPLY_NODE, REPLY_PREFIX } from '../scripts/demo-workflow';
import { DEV_API_KEY, startPlayground, type Playground } from '../scripts/start';
import { type Report, waitFor } from './report';
import { assertNewestVersions, onboardingRecipeChecks, stopChecks } from './startStop';
import { requestsTo } from './expect';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** What the contact wrote so far: after a restart, Catch Up may bring the last seconds before the stop again. */
const written: string[] = [];

/**
 * The Send Text request the example sent in reply to a message injected now, or a readable
 * failure: the contact writes `text`; the example's reply to it comes. Any other reply in the meantime
 * may only answer an earlier message (Catch Up after a restart, docs/operations.md "The cursor").
 */
async function replyTo(pg: Playground, from: string, text: string): Promise<any> {
	const before = requestsTo(pg.sandbox, '/message/sendText/demo').length;
	const delivery = await pg.sandbox.injectMessage('demo', { from, text, pushName: 'Ana' });
	assert.ok(delivery, `the sandbox made no delivery (webhook: ${JSON.stringify(pg.sandbox.webhookOf('demo'))})`);
	const replies = () => requestsTo(pg.sandbox, '/message/sendText/demo').slice(before);
	const reply = await waitFor('a sendText reply', () => replies().find((r: any) => String(r.body?.text).endsWith(text)), 30000);
	const strangers = replies().filter((r: any) => r !== reply && !written.some((earlier) => String(r.body?.text).endsWith(earlier)));
	assert.deepEqual(strangers.map((r: any) => r.body?.text), [], 'replies to messages nobody wrote');
	written.push(text);
	return reply;
}

/**
 * (e) `npm start`'s own code path (startPlayground) on one user folder, three times: a
 * restart leaves the user's draft and published version as they were, and a start on other
 * ports (DEV_N8N_PORT, DEV_SANDBOX_PORT) follows them.
 */
export async function restartChecks(report: Report, version: string, tarball: string): Promise<void> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-start-'));
	let pg: Playground | undefined;
	const start = async (n8nPort: number, sandboxPort: number) => {
		pg = await startPlayground({ userFolder, n8nPort, sandboxPort, version, tarball });
		return pg;
	};
	try {
		const [n8nPort, sandboxPort] = [await freePort(), await freePort()];
		let first = await start(n8nPort, sandboxPort);
		const id = first.state.workflowId!;
		let published = '';
		let draft = '';
		const EDITED = '=Edited, not published: {{ $json.text }}';
		const created = await report.check('(e) npm start, first run: creates the example, publishes it, and its reply works', async () => {
			assert.match(first.webhookStatus, /^registered/, first.webhookStatus);
			const wf = await first.rest.getWorkflow(id);
			assert.ok(wf.activeVersionId, 'the example is not published');
			assert.equal(wf.activeVersionId, wf.versionId, 'published and draft differ after the first run');
			published = wf.activeVersionId;
			const reply = await replyTo(first, '5511966660000', 'first run');
			assert.equal(reply.body.text, `${REPLY_PREFIX}first run`);
			assert.equal(reply.body.number, '5511966660000@s.whatsapp.net', 'Number {{ $json.chatId }} replies to the chat');
		});
		await report.check("(e) npm start's example uses the newest version of each node (as a node added in the editor)", () => assertNewestVersions(first.rest, id));
		let keptGroup = '';
		const made = await report.check('(e) the sandbox of npm start: an instance and a group made now (the onboarding recipe\'s Create, a group)', async () => {
			const headers = { apikey: DEV_API_KEY };
			const inst = await request('POST', `${first.sandbox.url}/instance/create`, { instanceName: 'kept', integration: 'WHATSAPP-BAILEYS' }, headers);
			assert.equal(inst.status, 201, inst.body);
			const group = await request('POST', `${first.sandbox.url}/group/create/kept`, { subject: 'Kept', participants: ['5511912345678'] }, headers);
			assert.equal(group.status, 201, group.body);
			keptGroup = JSON.parse(group.body).id;
		});
		await onboardingRecipeChecks(report, first.n8n, first.rest, first.state.credentialId!);
		// Drafts and publishing are n8n 2.x: in 1.x saving an active workflow changes it live.
		// `npm start` runs the pinned 2.x; on a 1.x run only the start-up checks apply.
		const hasDrafts = majorOf(version) >= 2;
		if (!hasDrafts) report.skip("(e) an edit goes to the draft only; a restart keeps draft and published version", `n8n ${version} has no drafts (a 2.x feature)`);
		const edited = created && hasDrafts && (await report.check("(e) an edit through n8n's REST API (as the editor saves) goes to the draft only", async () => {
			const wf = await first.rest.getWorkflow(id);
			const nodes = structuredClone(wf.nodes) as Array<{ name: string; parameters: Record<string, unknown> }>;
			nodes.find((n) => n.name === REPLY_NODE)!.parameters.text = EDITED;
			const saved = await first.rest.call('PATCH', `/workflows/${id}`, {
				name: wf.name,
				nodes,
				connections: wf.connections,
				settings: wf.settings,
				versionId: wf.versionId,
			});
			draft = saved.versionId;
			assert.notEqual(draft, published, 'the edit made no new draft version');
			const after = await first.rest.getWorkflow(id);
			assert.equal(after.activeVersionId, published, 'saving the draft published it');
			const reply = await replyTo(first, '5511966660000', 'before restart');
			assert.equal(reply.body.text, `${REPLY_PREFIX}before restart`, 'the published version answers');
		}));
		await first.stop();

		if (edited) {
			const again = await start(n8nPort, sandboxPort);
			await report.check('(e) npm start again: the draft is kept, the published version is unchanged and still answers with the old text', async () => {
				const wf = await again.rest.getWorkflow(id);
				assert.equal(wf.activeVersionId, published, 'the restart changed the published version');
				assert.equal(wf.versionId, draft, 'the restart changed the draft version');
				const text = (wf.nodes as Array<{ name: string; parameters: { text?: string } }>).find((n) => n.name === REPLY_NODE)?.parameters.text;
				assert.equal(text, EDITED, 'the draft lost the edit');
				assert.match(again.webhookStatus, /^registered/, again.webhookStatus);
				const reply = await replyTo(again, '5511966660000', 'after restart');
				assert.equal(reply.body.text, `${REPLY_PREFIX}after restart`);
			});
			await report.check("(e) a restart on the same ports does not publish again: the sandbox kept the example's webhook (no Set Webhook request), and it answers", () => {
				assert.deepEqual(requestsTo(again.sandbox, '/webhook/set/demo').map((r: any) => r.path), []);
				assert.equal(again.sandbox.webhookOf('demo')?.enabled, true);
			});
			await report.check('(e) a later start does not set up the owner again ("owner already setup" is not in n8n\'s log)', () => {
				const log = fs.readFileSync(again.logFile, 'utf8');
				assert.ok(!/owner already setup/i.test(log), 'n8n logged an owner setup attempt');
			});
			await again.stop();
		}

		const [n8nPort2, sandboxPort2] = [await freePort(), await freePort()];
		const moved = await start(n8nPort2, sandboxPort2);
		await report.check('(e) npm start on other ports (DEV_N8N_PORT, DEV_SANDBOX_PORT): the credential and the webhook follow, the example replies', async () => {
			assert.ok(
				moved.notes.some((n) => n.includes(`now points to ${moved.sandbox.url}`)),
				`no note about the new sandbox address: ${JSON.stringify(moved.notes)}`,
			);
			const cred = await moved.rest.call('GET', `/credentials/${moved.state.credentialId}?includeData=true`);
			assert.equal(cred.data.baseUrl, moved.sandbox.url, 'credential Base URL');
			assert.match(moved.webhookStatus, /^registered/, moved.webhookStatus);
			assert.ok(String(moved.sandbox.webhookOf('demo')?.url).startsWith(`${moved.n8n.url}/webhook/`), 'webhook URL is not on the new n8n port');
			const reply = await replyTo(moved, '5511966660000', 'new ports');
			assert.equal(reply.body.text, `${REPLY_PREFIX}new ports`);
			assert.ok(
				!moved.notes.some((n) => /could not be read/.test(n)),
				`the sandbox's saved state was not readable: ${JSON.stringify(moved.notes)}`,
			);
			const wf = await moved.rest.getWorkflow(id);
			if (edited) assert.equal(wf.versionId, draft, 'the draft changed');
			assert.equal(wf.activeVersionId, published, 'the published version changed');
		});
		if (made) {
			await report.check('(e) the sandbox kept its data across the restarts (sandbox-state.json): the instance and its group', async () => {
				assert.ok(moved.sandbox.instanceNames().includes('kept'), `instances: ${moved.sandbox.instanceNames().join(', ')}`);
				const groups = await request('GET', `${moved.sandbox.url}/group/fetchAllGroups/kept?getParticipants=false`, undefined, { apikey: DEV_API_KEY });
				assert.equal(groups.status, 200, groups.body);
				assert.deepEqual(JSON.parse(groups.body).map((g: { id: string }) => g.id), [keptGroup]);
			});
		}
		await moved.stop();
		pg = undefined;
		await stopChecks(report, userFolder);
	} catch (e) {
		report.record('(e) npm start restart checks aborted', false, e instanceof Error ? e.stack ?? e.message : String(e));
		if (pg) console.log(`--- last n8n output ---\n${pg.n8n.logs().slice(-3000)}`);
	} finally {
		await pg?.stop();
		if (process.env.E2E_KEEP === '1') console.log(`e2e: npm start user folder kept at ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
	}
}
