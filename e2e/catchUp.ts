/**
 * Group `catchup` (E2E_GROUPS=catchup): the trigger's Catch Up in a real n8n, with the `kill`
 * group's machinery (an n8n of its own on a copy of the user folder, stopped and started
 * again on the same folder and port). Two workflows, each a trigger on its own instance of a
 * v2 sandbox (2.3.6): one with Catch Up on (a new node: version 3, options never opened), one
 * with it switched off. Then:
 *
 * - one message each reaches n8n live (its cursor is written by that delivery);
 * - n8n is stopped; 10 messages each are stored while it is down, every delivery failing
 *   (the server tries each twice, 50 ms apart: its retries end long before n8n is back);
 * - n8n is started; the moment it first answers 404 (it listens before it serves its webhook
 *   routes) one more message is stored for the Catch Up workflow: the server runs Evolution
 *   API's default retry list (no retry after 400, 401, 403, 404, 422), so that delivery ends
 *   with the 404, given up;
 * - the 10 and the one that met the 404 reach the Catch Up workflow, each in one execution, in
 *   the order they were stored, with `caughtUp: true`, at this start (n8n serves the routes
 *   before it starts the triggers: what met the 404 is stored before the catch-up reads); the
 *   live message is not emitted again; the other workflow gets none;
 * - n8n is started once more, with no live message in between (the cursor did not move): the
 *   catch-up reads the 11 again and n8n refuses each execution by its deduplication key, so
 *   still none runs twice; the message that meets this start's 404 is caught up after them.
 *   (n8n listened about 5 s before it served its routes in most runs here; a start whose 404
 *   the watch did not see sends no such message, and the check needs one of the two.)
 *
 * `tsx e2e/catchUp.ts [version]` runs it alone (e2e/standalone.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, PACKAGE_NAME, setupOwnerAndLogin, startN8n, type N8nHandle, type RestClient } from '../scripts/n8n-runtime';
import type { RecordedDelivery, Sandbox } from '../sandbox/server';
import { watchRestart } from './killDuringDeliveries';
import { executionsOf, folderWithPackage } from './queue/cluster';
import { sleep, waitFor } from './report';
import { unflatten } from './serverVersions';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */

const ON = 'demo';
const OFF = 'off';
/** The sandbox instances publishAndReceiveLive uses: Catch Up on, Catch Up off. */
export const CATCH_UP_INSTANCES = [{ name: ON }, { name: OFF }];
/**
 * The sandbox's delivery here: Evolution API's default retry list (no retry after 400, 401,
 * 403, 404, 422: the sandbox's default), two tries 50 ms apart. A delivery that fails while
 * n8n is away is given up at once, and a 404 is not tried again (a second try would show).
 */
export const SERVER_GIVES_UP = { attempts: 2, backoffMs: 50, timeoutMs: 10000 };
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

/** The trigger's cursor as n8n stores it (the workflow's static data). */
export async function cursorOf(rest: RestClient, workflowId: string): Promise<{ seconds: number; ids: string[] } | undefined> {
	return ((await rest.getWorkflow(workflowId)).staticData as any)?.[`node:${TRIGGER}`]?.catchUp;
}

/** The two workflows, published, each with one message received live. */
export interface Receiving {
	on: string;
	off: string;
	liveOn: string;
	liveOff: string;
	/** the cursor after the live message (its write saved by the execution) */
	liveCursor?: { seconds: number; ids: string[] };
	/** tells this run's messages apart */
	stamp: string;
}

/**
 * A trigger with Catch Up on (a new node: version 3, options never opened) and one with it
 * off, each on its own instance of `sandbox` (its instances `demo` and `off`), created and
 * published over `rest`; then one message each received live.
 */
export async function publishAndReceiveLive(rest: RestClient, sandbox: Sandbox): Promise<Receiving> {
	const credential = (await rest.call('POST', '/credentials', { name: 'Sandbox (catch up)', type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } })) as { id: string };
	const on = String(((await rest.call('POST', '/workflows', { ...workflow('e2e: catch up on', ON, credential.id, {}, '01'), active: false })) as { id: string }).id);
	const off = String(((await rest.call('POST', '/workflows', { ...workflow('e2e: catch up off', OFF, credential.id, { catchUp: false }, '02'), active: false })) as { id: string }).id);
	await rest.activate(on);
	await rest.activate(off);
	for (const instance of [ON, OFF]) await waitFor(`the trigger of ${instance} registered`, () => (sandbox.webhookOf(instance)?.enabled ? true : undefined), 30000);
	// Publishing ends with n8n saving the static data trigger() set (where the server is):
	// a live write before that is overwritten by it (docs: "Catch Up", the cursor).
	await waitFor('the publish to save where the server is', async () => ((await cursorOf(rest, on)) ? true : undefined), 30000);
	assert.equal(await cursorOf(rest, off), undefined, 'Catch Up off keeps no cursor');
	const stamp = Date.now().toString(36);
	const live = async (instance: string) => {
		const text = `catch-up live ${instance} ${stamp}`;
		// n8n may serve the route a moment after the registration: the sandbox gives up at once, so try again here.
		for (let attempt = 0; attempt < 40; attempt++) {
			const delivery = await sandbox.injectMessage(instance, { from: '5511977770000', text, id: `3EBLIVE${instance.toUpperCase()}${stamp}`.slice(0, 24) });
			if ((delivery?.attempts.at(-1)?.status ?? 0) === 200) return text;
			await sleep(500);
		}
		throw new Error(`the live message to ${instance} was never answered 200`);
	};
	const liveOn = await live(ON);
	const liveOff = await live(OFF);
	await waitFor('the live executions', async () => ((await executionsOf(rest, on)).length >= 1 && (await executionsOf(rest, off)).length >= 1 ? true : undefined), 30000);
	// The live delivery moves the cursor (the first since the publish); n8n saves it after the execution.
	const liveCursor = await waitFor('the live delivery to write the cursor', async () => {
		const cursor = await cursorOf(rest, on);
		return cursor && cursor.ids.length > 0 ? cursor : undefined;
	}, 10000).catch(async () => await cursorOf(rest, on));
	return { on, off, liveOn, liveOff, liveCursor, stamp };
}

/** Stores `count` messages for each instance while n8n does not receive: every delivery fails (and the server gives up). */
export async function storeWhileAway(sandbox: Sandbox, count: number, stamp: string): Promise<string[]> {
	const texts = Array.from({ length: count }, (_, i) => `catch-up missed ${i} ${stamp}`);
	for (const [i, text] of texts.entries()) {
		for (const instance of [ON, OFF]) {
			const delivery = await sandbox.injectMessage(instance, { from: `55119${String(60000000 + i)}`, text, id: `3EBCU${instance.toUpperCase()}${String(i).padStart(4, '0')}${stamp}`.slice(0, 24) });
			assert.ok(!(delivery?.attempts.some((attempt) => attempt.status === 200)), `a delivery while n8n was down succeeded: ${JSON.stringify(delivery?.attempts)}`);
		}
		// A second apart on the server's clock is not needed; order within a second is the server's row order.
	}
	return texts;
}

/**
 * After the catch-up: `caughtUp` (texts) each in one execution of the Catch Up workflow, in
 * that order, `caughtUp: true`, with the fields of a live item; the live message live and not
 * again; the other workflow only its live message and no Find Messages read. Answers the
 * Catch Up workflow's executions.
 */
export async function assertCaughtUpOnce(rest: RestClient, sandbox: Sandbox, r: Receiving, caughtUp: readonly string[]): Promise<Awaited<ReturnType<typeof triggerItems>>> {
	const onRuns = await triggerItems(rest, r.on);
	assert.deepEqual(onRuns.filter((run) => run.status !== 'success').map((run) => `${run.id} ${run.status}`), [], 'executions that did not succeed');
	assert.ok(onRuns.every((run) => run.items.length === 1), `one message per execution: ${JSON.stringify(onRuns.map((run) => run.items.length))}`);
	const caught = onRuns.filter((run) => run.items[0].caughtUp === true);
	const liveAgain = caught.filter((run) => run.items[0].text === r.liveOn).length;
	assert.deepEqual(caught.map((run) => run.items[0].text).filter((text) => text !== r.liveOn), caughtUp, 'the messages the server did not deliver, each once, in order, caughtUp true');
	assert.deepEqual(onRuns.filter((run) => run.items[0].caughtUp === false).map((run) => run.items[0].text), [r.liveOn], 'the live message, live');
	// The same item shape as a live delivery (the envelope fields of a delivery aside).
	assert.deepEqual(Object.keys(caught[0].items[0]).sort(), Object.keys(onRuns[0].items[0]).sort(), 'a caught-up item has the fields of a live one');
	const offRuns = await triggerItems(rest, r.off);
	assert.deepEqual(offRuns.map((run) => run.items[0]?.text), [r.liveOff], 'Catch Up off: only the live message');
	assert.equal(sandbox.requests.filter((request) => request.path === `/chat/findMessages/${OFF}`).length, 0, 'Catch Up off reads nothing');
	// The message received live before the stop is not emitted again (its cursor write must have been saved).
	assert.equal(liveAgain, 0, `the live message was caught up again ${liveAgain} time(s): the live delivery's cursor write was not kept (${JSON.stringify(r.liveCursor)})`);
	return onRuns;
}

/** Find Messages requests the Catch Up workflow made. */
export function catchUpReads(sandbox: Sandbox): number {
	return sandbox.requests.filter((request) => request.path === `/chat/findMessages/${ON}`).length;
}

export async function catchUpChecks(tools: E2eTools): Promise<void> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-catchup-'));
	const folder = folderWithPackage(root, 'n8n', tools.userFolder);
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.6', instances: CATCH_UP_INSTANCES, delivery: SERVER_GIVES_UP });
	const port = await freePort();
	const echo = process.env.E2E_VERBOSE === '1';
	let n8n: N8nHandle | undefined;
	try {
		await tools.check('(catchup) n8n stopped, 10 messages stored while every delivery failed, n8n started (one more message meets its start-up 404, which the default retry list gives up on): all 11 reach the Catch Up workflow once, at that start, in order, caughtUp true; the message received before is not emitted again; with Catch Up off none; a second start runs none again but the one that met its own 404', async () => {
			n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
			let rest = await setupOwnerAndLogin(n8n.url);
			const receiving = await publishAndReceiveLive(rest, sandbox);

			await n8n.stop();
			const texts = await storeWhileAway(sandbox, MISSED, receiving.stamp);

			// n8n is started; the moment it first answers 404 (it listens, its webhook routes are not
			// served yet) one more message is stored for the Catch Up workflow. The default retry
			// list gives it up after that try; it must be caught up at this start.
			const hook = new URL(String(sandbox.webhookOf(ON)?.url));
			const start = async (nth: number) => {
				const text = `catch-up start-up 404 ${nth} ${receiving.stamp}`;
				let sent: Promise<RecordedDelivery | undefined> | undefined;
				const startedAt = Date.now();
				const watched = watchRestart(`${hook.origin}${hook.pathname}`, startedAt, 120000, () => {
					sent = sandbox.injectMessage(ON, { from: '5511950000000', text, id: `3EBCU404${nth}${receiving.stamp}`.slice(0, 24) });
				});
				n8n = await startN8n({ version: tools.version, userFolder: folder, port, echo });
				rest = await setupOwnerAndLogin(n8n.url);
				const restart = await watched;
				const delivery = await sent;
				const seen = `what n8n answered while it started, ms after the start began: ${restart.answers.join('; ')}`;
				if (delivery) assert.deepEqual(delivery.attempts.map((attempt) => attempt.status ?? attempt.error), [404], `the message sent into n8n's start-up: one try, answered 404 and not tried again (${seen})`);
				return { startedAt, seen, met404: delivery ? [text] : [] };
			};
			const first = await start(1);
			const caughtUp = [...texts, ...first.met404];
			await waitFor('the caught-up executions', async () => ((await executionsOf(rest, receiving.on)).filter((e) => e.status === 'success').length >= caughtUp.length + 1 ? true : undefined), 60000);
			// The workflow without Catch Up had the same time to get anything.
			await sleep(3000);
			const caughtUpAfterMs = Date.now() - first.startedAt;
			const onRuns = await assertCaughtUpOnce(rest, sandbox, receiving, caughtUp);

			// Started again with no live message since: the catch-up reads the same messages again
			// and n8n refuses each, none runs twice; the one that meets this start's 404 runs, after
			// them (oldest first), so its execution says the catch-up is through.
			await n8n.stop();
			const second = await start(2);
			const expected = [...onRuns.map((run) => run.items[0]?.text), ...second.met404];
			if (second.met404.length > 0) await waitFor('the second start\'s catch-up', async () => ((await executionsOf(rest, receiving.on)).length >= expected.length ? true : undefined), 60000);
			await sleep(second.met404.length > 0 ? 3000 : 8000);
			const again = await triggerItems(rest, receiving.on);
			assert.deepEqual(again.map((run) => run.items[0]?.text), expected, 'after a second start, no execution more than the message that met its 404');
			assert.ok(again.slice(onRuns.length).every((run) => run.status === 'success' && run.items[0]?.caughtUp === true), 'the message that met the second start\'s 404, caught up');
			// n8n listens seconds before it serves its routes (about 5 s in most runs here); a start
			// whose 404 the watch never saw leaves its message unsent, the other start must show it.
			assert.ok(first.met404.length + second.met404.length > 0, `n8n answered no 404 while it started, twice (${first.seen}) (${second.seen})`);
			console.log(`     cursor after the live message: ${JSON.stringify(receiving.liveCursor)}; after the catch-up: ${JSON.stringify(await cursorOf(rest, receiving.on))}`);
			console.log(
				`     ${caughtUp.length} messages caught up at the first start in ${(caughtUpAfterMs / 1000).toFixed(1)} s after n8n was started, ${first.met404.length + second.met404.length} of them (over two starts) after n8n's start-up 404; ` +
					`${catchUpReads(sandbox)} Find Messages requests over three starts; none again after another start. First start: ${first.seen}. Second: ${second.seen}`,
			);
		});
	} finally {
		await n8n?.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		if (process.env.E2E_KEEP === '1') console.log(`e2e: catch-up check folder kept at ${root}`);
		else fs.rmSync(root, { recursive: true, force: true });
	}
}

if (require.main === module) void runAlone('catchup', (tools) => catchUpChecks(tools));
