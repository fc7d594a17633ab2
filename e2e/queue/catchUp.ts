/**
 * Catch Up in queue mode. The catch-up runs in the trigger's trigger(), which n8n starts on
 * the main process only (publish, start); webhook processes serve the live deliveries and
 * workers run every execution. The steps of the `catchup` group (e2e/catchUp.ts), on this
 * cluster:
 *
 * - a trigger with Catch Up on (a new node) and one with it off, each on its own instance,
 *   receive one message live (through a webhook process, run on a worker, whose execution
 *   saves the cursor);
 * - the main process is stopped and the webhook processes are cut off at the balancer (the
 *   server's deliveries fail, as with n8n stopped); 5 messages each are stored, every
 *   delivery failing (5, not the group's 10: order and "once" show with 5, and each is a
 *   queued execution more);
 * - the main process is started: the 5 reach the Catch Up workflow once each, in order,
 *   `caughtUp: true`, enqueued by the main process and run on a worker; the live message is
 *   not emitted again; the other workflow gets none.
 *
 * Its own sandbox: the tier's retries each delivery for about two minutes (10 tries from
 * 250 ms), so a message stored while n8n is away would come live once it is back; here the
 * server gives up after two tries 50 ms apart, with Evolution API's default retry list.
 * The webhook processes are not restarted: nothing of Catch Up runs there, and the checks
 * before restart them already; only the main process's start (about 20 s) is added.
 */
import * as assert from 'node:assert/strict';

import { freePort, setupOwnerAndLogin } from '../../scripts/n8n-runtime';
import { assertCaughtUpOnce, CATCH_UP_INSTANCES, publishAndReceiveLive, SERVER_GIVES_UP, storeWhileAway } from '../catchUp';
import { sleep, waitFor, type NamedCheck } from '../report';
import { executionsOf, startProcess, workerOf } from './cluster';
import { figure, running, type Tier } from './tier';

const MISSED = 5;

async function caughtUpThroughTheQueueAfterTheMainProcessStarts(t: Tier): Promise<void> {
	const began = Date.now();
	const { balancer: lb, cluster: cl } = running(t);
	const { startSandbox } = await import('../../sandbox/server');
	const sandbox = await startSandbox({ dialect: 'v2', instances: CATCH_UP_INSTANCES, delivery: SERVER_GIVES_UP });
	let rest = running(t).rest;
	let published: { on: string; off: string } | undefined;
	try {
		lb.route = 'alternate';
		const receiving = await publishAndReceiveLive(rest, sandbox);
		published = receiving;
		const webhookProcesses = [...lb.backends];

		cl.pastLogs.push(cl.main.logs());
		await cl.main.stop();
		// Nothing listens there: each delivery ends in the balancer's 502, as with n8n stopped.
		const away = `http://127.0.0.1:${await freePort()}`;
		lb.backends.fill(away);
		let texts: string[];
		try {
			texts = await storeWhileAway(sandbox, MISSED, receiving.stamp);
		} finally {
			lb.backends.splice(0, lb.backends.length, ...webhookProcesses);
		}

		const startedAt = Date.now();
		cl.main = await startProcess('start', cl.folders[0], cl.env);
		rest = t.rest = await setupOwnerAndLogin(cl.main.url);
		await waitFor('the caught-up executions', async () => ((await executionsOf(rest, receiving.on)).filter((e) => e.status === 'success').length >= MISSED + 1 ? true : undefined), 90000);
		const caughtUpAfterMs = Date.now() - startedAt;
		// The workflow without Catch Up had the same time to get anything.
		await sleep(2000);
		const runs = await assertCaughtUpOnce(rest, sandbox, receiving, texts);

		// Through the queue: the main process enqueued each caught-up execution, a worker ran it.
		const caught = runs.filter((run) => run.items[0].caughtUp === true).map((run) => String(run.id));
		assert.deepEqual(caught.filter((id) => !cl.main.logs().includes(`Enqueued execution ${id} (job`)), [], 'caught-up executions the main process did not enqueue');
		const workers = caught.map((id) => workerOf(cl, id));
		assert.deepEqual(caught.filter((_, i) => workers[i] < 0), [], "caught-up executions in no worker's log");
		figure(
			`${MISSED} messages caught up ${(caughtUpAfterMs / 1000).toFixed(1)} s after the main process was started (it took ${(cl.main.startupMs / 1000).toFixed(1)} s), ` +
				`enqueued there and run by worker(s) ${[...new Set(workers.map((w) => w + 1))].sort().join(', ')}; the check took ${((Date.now() - began) / 1000).toFixed(1)} s`,
		);
	} finally {
		if (published) for (const id of [published.on, published.off]) await rest.deactivate(id).catch(() => undefined);
		await sandbox.close().catch(() => undefined);
	}
}

export const catchUpAcrossTheQueue: NamedCheck<Tier> = {
	name: 'Catch Up: the main process stopped and the webhook processes unreachable while 5 messages are stored (every delivery failing), the main process started: all 5 reach the Catch Up workflow once, in order, caughtUp true, enqueued by main and run on workers; the live message before is not emitted again; with Catch Up off none',
	run: caughtUpThroughTheQueueAfterTheMainProcessStarts,
};
