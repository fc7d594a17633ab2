/**
 * The queue tier's Redis outage: Redis goes away for a few seconds while deliveries arrive
 * (SHUTDOWN SAVE, so the queue's jobs and the dedupe counters survive it, as a Redis with
 * persistence restarts; then started again on the same port and folder). A webhook process
 * answers 2xx only once n8n queued the execution: during a short outage n8n holds the enqueue
 * (its Redis client queues commands while it reconnects) and answers once Redis is back; a
 * delivery n8n could not take is answered non-2xx (or not at all) and the server delivers it
 * again. Either way every message ends with one reply, none is lost. (n8n's processes exit
 * when Redis stays away longer than QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD, 10 s by default.)
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import { redisCommand } from '../../scripts/services';
import type { DeliveryAttempt, RecordedDelivery } from '../../sandbox/server';
import { sleep, waitFor, type NamedCheck } from '../report';
import { deliveredOk, executionsOf, idsOf, repliesTo } from './cluster';
import { describeAttempts, figure, running, type Tier } from './tier';

const MESSAGES = 24;
/** sent before Redis stops; the rest start while it is down (and just after) */
const BEFORE = 6;
const OUTAGE_MS = 3000;

const attemptOk = (a: DeliveryAttempt) => a.status !== undefined && a.status >= 200 && a.status < 300;

/** Stops Redis after saving its data, waits, and starts it again on the same port and folder (it loads the save). */
async function redisOutage(t: Tier): Promise<{ stopAt: number; downAt: number; spawnAt: number; upAt: number }> {
	const { services } = running(t);
	if (!t.bins.redisServer) throw new Error('no redis-server binary');
	const stopAt = Date.now();
	// SHUTDOWN answers nothing (Redis closes the connection): not awaited, Redis is down once PING fails.
	void redisCommand(services.redis.port, ['SHUTDOWN', 'SAVE']).catch(() => undefined);
	await waitFor('Redis gone', async () => ((await redisCommand(services.redis.port, ['PING']).catch(() => 'down')) === 'down' ? true : undefined), 10000);
	const downAt = Date.now();
	// Short of n8n's QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD (10 s), after which its processes exit.
	await sleep(OUTAGE_MS);
	const spawnAt = Date.now();
	const child = spawn(
		t.bins.redisServer,
		['--port', String(services.redis.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', services.dir, '--logfile', ''],
		{ cwd: services.dir, detached: true, stdio: 'ignore' },
	);
	// Stopped with the tier's other extra processes.
	t.extraProcesses.push(child);
	await waitFor('Redis answering PING again', async () => ((await redisCommand(services.redis.port, ['PING']).catch(() => undefined)) === 'PONG' ? true : undefined), 20000);
	return { stopAt, downAt, spawnAt, upAt: Date.now() };
}

async function deliveriesThroughARedisOutageAreRetriedAndNoneIsLost(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, rest, ids } = running(t);
	lb.route = 'alternate';
	const before = idsOf(await executionsOf(rest, ids.demo));
	const tag = randomBytes(3).toString('hex');
	const texts = Array.from({ length: MESSAGES }, (_, n) => `redis outage ${tag} ${n}`);
	const deliveries: Array<RecordedDelivery | undefined> = [];
	/** when each delivery was handed to the sandbox and when its last attempt ended */
	const spans: Array<[number, number]> = [];
	let answered = 0;
	const send = async (n: number) => {
		const startedAt = Date.now();
		deliveries[n] = await sb.injectMessage('demo', { from: `55119${String(30000000 + n)}`, text: texts[n] });
		spans[n] = [startedAt, Date.now()];
		if (deliveries[n]?.attempts[0] && attemptOk(deliveries[n]!.attempts[0])) answered++;
	};
	/** Starts deliveries `from`..`to`-1 `gapMs` apart, each without waiting for the one before. */
	const paced = async (from: number, to: number, gapMs: number, sending: Array<Promise<void>>) => {
		for (let n = from; n < to; n++) {
			sending.push(send(n));
			await sleep(gapMs);
		}
	};
	const sending: Array<Promise<void>> = [];
	await paced(0, BEFORE, 150, sending);
	await waitFor('a few deliveries answered before the outage', () => (answered >= 4 ? true : undefined), 60000);
	// The rest go out 200 ms apart from the moment Redis is told to stop, each on its own: n8n
	// holds a delivery for the whole outage, so senders that waited for their last answer would
	// all be stuck on ones sent just before it and none would be sent while Redis is down.
	const outaging = redisOutage(t);
	await paced(BEFORE, MESSAGES, 200, sending);
	const outage = await outaging;
	await Promise.all(sending);

	const lost = deliveries.map((d, n) => [n, d] as const).filter(([, d]) => !deliveredOk(d));
	assert.deepEqual(lost.map(([n, d]) => `${n}: ${describeAttempts(d)}`), [], 'deliveries that never got a 2xx');
	const refused = deliveries.filter((d) => d?.attempts.some((a) => !attemptOk(a)));
	// Held: sent after Redis was told to stop and before it was started again, answered (2xx, at the
	// first attempt) only once it was being started again. Measured against the start (spawnAt), not
	// against this test seeing PONG (upAt): n8n's clients reconnect as fast as the PING poll, so a
	// held delivery is often answered before upAt.
	const held = deliveries.filter((d, n) => !d?.attempts.some((a) => !attemptOk(a)) && spans[n][0] >= outage.stopAt && spans[n][0] < outage.spawnAt && spans[n][1] >= outage.spawnAt);
	const timeline = spans.map(([from, to], n) => `${n}: ${from - outage.stopAt}..${to - outage.stopAt}`).join(', ');
	assert.ok(
		refused.length + held.length > 0,
		`no delivery was sent during the ${OUTAGE_MS} ms outage and answered after it, nor refused (ms from SHUTDOWN: down ${outage.downAt - outage.stopAt}, started ${outage.spawnAt - outage.stopAt}, PONG ${outage.upAt - outage.stopAt}; deliveries ${timeline})`,
	);
	// A 2xx means queued: none sent while Redis was down may have been answered 2xx before it was started again.
	const early = deliveries.map((d, n) => [n, d] as const).filter(([n, d]) => spans[n][0] >= outage.downAt && spans[n][1] < outage.spawnAt && d?.attempts.some(attemptOk));
	assert.deepEqual(early.map(([n, d]) => `${n}: ${describeAttempts(d)}`), [], 'deliveries answered 2xx while Redis was down');
	try {
		for (const text of texts) await waitFor(`the reply to "${text}"`, () => repliesTo(sb, 'demo', text)[0], 60000);
	} catch (e) {
		// Say how the runs of this check ended: a 2xx-acknowledged message with no run is lost, one whose run failed is not.
		const runs = (await executionsOf(rest, ids.demo)).filter((x) => !before.has(x.id));
		const byStatus = runs.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x.status]: (acc[x.status] ?? 0) + 1 }), {});
		throw new Error(`${(e as Error).message}; ${runs.length} runs since the check began: ${JSON.stringify(byStatus)}`);
	}
	await sleep(1500);
	const notOnce = texts.filter((text) => repliesTo(sb, 'demo', text).length !== 1);
	assert.deepEqual(notOnce, [], 'messages without exactly one reply');
	const statuses = [...new Set(refused.flatMap((d) => d!.attempts.filter((a) => !attemptOk(a)).map((a) => (a.status !== undefined ? `HTTP ${a.status}` : (a.error ?? 'no answer')).slice(0, 60))))];
	figure(
		`Redis down ${((outage.upAt - outage.downAt) / 1000).toFixed(1)} s; ${held.length} of ${MESSAGES} deliveries sent meanwhile were answered 2xx only once it was back, ` +
			`${refused.length} were refused or failed first${statuses.length ? ` (${statuses.join(', ')})` : ''} and delivered again; one reply each`,
	);
}

export const redisOutageCheck: NamedCheck<Tier> = {
	name: 'Redis stopped for a few seconds while deliveries arrive: n8n answers them only once it queued them (held until Redis is back, or refused and delivered again), and every message gets one reply',
	run: deliveriesThroughARedisOutageAreRetriedAndNoneIsLost,
};
