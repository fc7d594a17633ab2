/**
 * Group `catchup` (E2E_GROUPS=catchup): the trigger's Catch Up in a real n8n, with the `kill`
 * group's machinery (an n8n of its own on a copy of the user folder, stopped and started
 * again on the same folder and port). Two workflows, each a trigger on its own instance of a
 * v2 sandbox (2.3.6): one with Catch Up on (a new node: version 3, options never opened), one
 * with it switched off. Then:
 *
 * - one message each reaches n8n live (its cursor is written by that delivery);
 * - n8n is stopped; 10 messages each are stored while it is down, every delivery failing
 *   (the server delivers once: a failed delivery is not retried);
 * - n8n is started: the 10 reach the Catch Up workflow, each in one execution, in the order
 *   they were stored, with `caughtUp: true`; the live message is not emitted again; the
 *   other workflow gets none;
 * - n8n is started once more, with no live message in between (the cursor did not move): the
 *   catch-up reads the 10 again and n8n refuses each execution by its deduplication key, so
 *   still none runs twice.
 *
 * `tsx e2e/catchUp.ts [version]` runs it alone (e2e/standalone.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, PACKAGE_NAME, setupOwnerAndLogin, startN8n, type N8nHandle, type RestClient } from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import { executionsOf, folderWithPackage } from './queue/cluster';
import { sleep } from './report';
import { unflatten } from './serverVersions';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */

const ON = 'demo';
const OFF = 'off';
const TRIGGER = 'On Message';
const MISSED = 10;

function workflow(name: string, instance: string, credentialId: string, options: Record<string, unknown>, suffix: string): Record<string, unknown> {
	return {
		name,
		nodes: [
			{
				id: `c47c0000-0000-4000-a000-0000000000${suffix}`,
				name: TRIGGER,
				type: `${PACKAGE_NAME}.messagingInstanceTrigger`,
				typeVersion: 3,
				position: [0, 0],
				webhookId: `c47c0000-0000-4000-a000-0000000001${suffix}`,
				credentials: { messagingInstanceApi: { id: credentialId, name: 'Sandbox (catch up)' } },
				parameters: { instance: { __rl: true, mode: 'name', value: instance }, events: ['MESSAGES_UPSERT'], options },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The trigger's items of every execution of a workflow, oldest execution first. */
async function triggerItems(rest: RestClient, workflowId: string): Promise<Array<{ id: number; status: string; items: any[] }>> {
	const list = await executionsOf(rest, workflowId);
	const out = [];
	for (const execution of list) {
		const res = await rest.raw('GET', `/executions/${execution.id}`);
		assert.equal(res.status, 200, `GET /rest/executions/${execution.id} -> ${res.status}`);
		const data = JSON.parse(res.body).data;
		const run = typeof data.data === 'string' ? unflatten(data.data) : data.data;
		const items = ((run?.resultData?.runData?.[TRIGGER] ?? [])[0]?.data?.main?.[0] ?? []).map((item: any) => item.json);
		out.push({ id: Number(execution.id), status: execution.status, items });
	}
	return out.sort((a, b) => a.id - b.id);
}

export async function catchUpChecks(tools: E2eTools): Promise<void> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-catchup-'));
	const folder = folderWithPackage(root, 'n8n', tools.userFolder);
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	// Every delivery tried once: one that fails (n8n down) is the server's lost delivery.
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.6', instances: [{ name: ON }, { name: OFF }], delivery: { attempts: 1, backoffMs: 100, timeoutMs: 10000 } });
	const port = await freePort();
	const echo = process.env.E2E_VERBOSE === '1';
	let n8n: N8nHandle | undefined;
	try {
		await tools.check('(catchup) n8n stopped, 10 messages stored while every delivery failed, n8n started: all 10 reach the Catch Up workflow once, in order, caughtUp true; the message received before is not emitted again; with Catch Up off none; a second start runs none again', async () => {
			n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
			let rest = await setupOwnerAndLogin(n8n.url);
			const credential = (await rest.call('POST', '/credentials', { name: 'Sandbox (catch up)', type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } })) as { id: string };
			const on = String(((await rest.call('POST', '/workflows', { ...workflow('e2e: catch up on', ON, credential.id, {}, '01'), active: false })) as { id: string }).id);
			const off = String(((await rest.call('POST', '/workflows', { ...workflow('e2e: catch up off', OFF, credential.id, { catchUp: false }, '02'), active: false })) as { id: string }).id);
			await rest.activate(on);
			await rest.activate(off);
			for (const instance of [ON, OFF]) await tools.waitFor(`the trigger of ${instance} registered`, () => (sandbox.webhookOf(instance)?.enabled ? true : undefined), 30000);

			// The trigger's cursor as n8n stores it (the workflow's static data).
			const cursorOf = async (id: string) => ((await rest.getWorkflow(id)).staticData as any)?.[`node:${TRIGGER}`]?.catchUp as { seconds: number; ids: string[] } | undefined;
			// Publishing ends with n8n saving the static data trigger() set (where the server is):
			// a live write before that is overwritten by it (docs: "Catch Up", the cursor).
			await tools.waitFor('the publish to save where the server is', async () => ((await cursorOf(on)) ? true : undefined), 30000);
			assert.equal(await cursorOf(off), undefined, 'Catch Up off keeps no cursor');
			const stamp = Date.now().toString(36);
			const live = async (instance: string) => {
				const text = `catch-up live ${instance} ${stamp}`;
				// n8n may serve the route a moment after the registration: the sandbox tries once, so try again here.
				for (let attempt = 0; attempt < 40; attempt++) {
					const delivery = await sandbox.injectMessage(instance, { from: '5511977770000', text, id: `3EBLIVE${instance.toUpperCase()}${stamp}`.slice(0, 24) });
					if ((delivery?.attempts.at(-1)?.status ?? 0) === 200) return text;
					await sleep(500);
				}
				throw new Error(`the live message to ${instance} was never answered 200`);
			};
			const liveOn = await live(ON);
			const liveOff = await live(OFF);
			await tools.waitFor('the live executions', async () => ((await executionsOf(rest, on)).length >= 1 && (await executionsOf(rest, off)).length >= 1 ? true : undefined), 30000);
			// The live delivery moves the cursor (the first since the publish); n8n saves it after the execution.
			const liveCursor = await tools
				.waitFor('the live delivery to write the cursor', async () => {
					const cursor = await cursorOf(on);
					return cursor && cursor.ids.length > 0 ? cursor : undefined;
				}, 10000)
				.catch(async () => await cursorOf(on));

			await n8n.stop();
			const texts = Array.from({ length: MISSED }, (_, i) => `catch-up missed ${i} ${stamp}`);
			for (const [i, text] of texts.entries()) {
				for (const instance of [ON, OFF]) {
					const delivery = await sandbox.injectMessage(instance, { from: `55119${String(60000000 + i)}`, text, id: `3EBCU${instance.toUpperCase()}${String(i).padStart(4, '0')}${stamp}`.slice(0, 24) });
					assert.ok(!(delivery?.attempts.some((attempt) => attempt.status === 200)), `a delivery while n8n was down succeeded: ${JSON.stringify(delivery?.attempts)}`);
				}
				// A second apart on the server's clock is not needed; order within a second is the server's row order.
			}

			const startedAt = Date.now();
			n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
			rest = await setupOwnerAndLogin(n8n.url);
			await tools.waitFor('the caught-up executions', async () => ((await executionsOf(rest, on)).filter((e: any) => e.status === 'success').length >= MISSED + 1 ? true : undefined), 60000);
			// The workflow without Catch Up had the same time to get anything.
			await sleep(3000);
			const caughtUpAfterMs = Date.now() - startedAt;

			const onRuns = await triggerItems(rest, on);
			assert.deepEqual(onRuns.filter((run) => run.status !== 'success').map((run) => `${run.id} ${run.status}`), [], 'executions that did not succeed');
			assert.ok(onRuns.every((run) => run.items.length === 1), `one message per execution: ${JSON.stringify(onRuns.map((run) => run.items.length))}`);
			const caught = onRuns.filter((run) => run.items[0].caughtUp === true);
			assert.deepEqual(caught.map((run) => run.items[0].text).filter((text) => text !== liveOn), texts, 'the 10 stored while n8n was down, each once, in order, caughtUp true');
			assert.deepEqual(onRuns.filter((run) => run.items[0].caughtUp === false).map((run) => run.items[0].text), [liveOn], 'the live message, live');
			// The same item shape as a live delivery (the envelope fields of a delivery aside).
			assert.deepEqual(Object.keys(caught[0].items[0]).sort(), Object.keys(onRuns[0].items[0]).sort(), 'a caught-up item has the fields of a live one');
			const offRuns = await triggerItems(rest, off);
			assert.deepEqual(offRuns.map((run) => run.items[0]?.text), [liveOff], 'Catch Up off: only the live message');
			const liveAgain = caught.filter((run) => run.items[0].text === liveOn).length;

			// Started again with no live message since: read again, refused by n8n, none run twice.
			await n8n.stop();
			n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
			rest = await setupOwnerAndLogin(n8n.url);
			await sleep(8000);
			const again = await triggerItems(rest, on);
			assert.deepEqual(again.map((run) => run.items[0]?.text), onRuns.map((run) => run.items[0]?.text), 'after a second start, no execution more');
			const reads = sandbox.requests.filter((request) => request.path === `/chat/findMessages/${ON}`).length;
			assert.equal(sandbox.requests.filter((request) => request.path === `/chat/findMessages/${OFF}`).length, 0, 'Catch Up off reads nothing');
			console.log(`     cursor after the live message: ${JSON.stringify(liveCursor)}; after the catch-up: ${JSON.stringify(await cursorOf(on))}`);
			// Last: the message received live before the stop is not emitted again (its cursor write must have been saved).
			assert.equal(liveAgain, 0, `the live message was caught up again ${liveAgain} time(s): the live delivery's cursor write was not kept (${JSON.stringify(liveCursor)})`);
			console.log(`     ${MISSED} messages caught up in ${(caughtUpAfterMs / 1000).toFixed(1)} s after n8n was started (${reads} Find Messages requests over three starts); none again after another start`);
		});
	} finally {
		await n8n?.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		if (process.env.E2E_KEEP === '1') console.log(`e2e: catch-up check folder kept at ${root}`);
		else fs.rmSync(root, { recursive: true, force: true });
	}
}

if (require.main === module) void runAlone('catchup', (tools) => catchUpChecks(tools));
