/**
 * The queue tier's burst: many distinct messages over both webhook processes at once, while
 * CPU-bound processes compete with the cluster for the cores, delivered with the retry policy
 * of real servers. What users need from it is the end-to-end promise: every message runs past
 * the Redis dedupe step once and gets one reply, also when an attempt times out or fails and
 * the server sends it again (that copy runs too, finds its counter above 1 and stops).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import type { DeliveryAttempt, RecordedDelivery } from '../../sandbox/server';
import type { Forward } from '../balancer';
import { waitFor, type NamedCheck } from '../report';
import { cpuSeconds, dedupeCounters, deliveredOk, executionsOf, idsOf, newCounters, processes, repliesTo, sendTexts, settledExecutions, workerOf } from './cluster';
import { describeAttempts, figure, percentile, running, type Tier } from './tier';

const BURST = Math.max(1, Number(process.env.QUEUE_BURST ?? 300));
/** Deliveries in flight at once, as a server with many chats sends them. */
const IN_FLIGHT = 16;
/** CPU-bound processes started beside the cluster for the burst (QUEUE_CPU_LOAD, default 1; 0 for none). */
const CPU_LOAD = Math.max(0, Number(process.env.QUEUE_CPU_LOAD ?? 1));
/**
 * Deliveries whose answer the balancer loses on purpose after a webhook process took them
 * (QUEUE_LOST_ANSWERS, default 3): the sender retries each, so a second copy runs for sure and
 * must stop at the dedupe step.
 */
const LOST_ANSWERS = Math.max(0, Number(process.env.QUEUE_LOST_ANSWERS ?? 3));

function attemptOk(a: DeliveryAttempt): boolean {
	return a.status !== undefined && a.status >= 200 && a.status < 300;
}

/** A process that keeps one core busy until it is killed. */
function startCpuLoad(t: Tier): ChildProcess {
	const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
	t.extraProcesses.push(child);
	return child;
}

function stopChild(child: ChildProcess): void {
	if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

async function burst(t: Tier): Promise<void> {
	const { services, sandbox: sb, balancer: lb, cluster: cl, rest, ids } = running(t);
	lb.route = 'alternate';
	const before = idsOf(await executionsOf(rest, ids.demo));
	const countersBefore = await dedupeCounters(services);
	const receivedBefore = lb.received();
	const forwardsBefore = lb.forwards.length;
	const repliesBefore = sendTexts(sb, 'demo').length;
	const tag = randomBytes(3).toString('hex');
	const messages = Array.from({ length: BURST }, (_, n) => ({
		text: `burst ${tag} ${n}`,
		from: `55119${String(10000000 + n)}`,
		sentAt: 0,
		delivery: undefined as RecordedDelivery | undefined,
	}));
	lb.loseAnswers = LOST_ANSWERS;
	const load = Array.from({ length: CPU_LOAD }, () => startCpuLoad(t));
	const loadCpu: number[] = [];
	try {
		const cpuBefore = processes(cl).map(([, h]) => cpuSeconds(h.pid));
		const harnessBefore = process.cpuUsage();
		const burstStart = Date.now();
		let lastAnswer = burstStart;
		let nextIndex = 0;
		const sender = async () => {
			while (nextIndex < messages.length) {
				const m = messages[nextIndex++];
				m.sentAt = Date.now();
				m.delivery = await sb.injectMessage('demo', { from: m.from, text: m.text });
				lastAnswer = Math.max(lastAnswer, Date.now());
			}
		};
		await Promise.all(Array.from({ length: IN_FLIGHT }, sender));

		// Every attempt that did not get a 2xx, with what it got: the status and the start of the
		// answer (a 502 is the balancer's: the webhook process reset or timed out), or the error.
		const failedAttempts = messages.flatMap((m) =>
			(m.delivery?.attempts ?? []).flatMap((a, n) => (attemptOk(a) ? [] : [`"${m.text}" attempt ${n + 1}: ${describeAttempts({ ...m.delivery!, attempts: [a] }).replace(/^attempt 1: /, '')}`])),
		);
		for (const line of failedAttempts) figure(`failed attempt: ${line}`);
		const forwards = lb.forwards.slice(forwardsBefore);
		for (const f of forwards.filter((f) => f.answerLost || f.statuses.some((s) => typeof s !== 'number' || s >= 300))) {
			figure(
				`balancer: forward to webhook process ${f.to.map((i) => 'AB'[i]).join('+')} got ${f.statuses.join(', ')} after ${f.ms} ms${f.answerLost ? ', answer lost on purpose (the sender\'s connection reset)' : ''}`,
			);
		}
		const lost = forwards.filter((f) => f.answerLost);
		assert.equal(lost.length, LOST_ANSWERS, `${lost.length} answers lost, ${LOST_ANSWERS} meant`);
		const took = (f: Forward) => f.statuses.every((s) => typeof s === 'number' && s >= 200 && s < 300);
		// A retry that reaches the process which took the first copy is dropped by the trigger's
		// own in-process dedupe (no run); one that reaches the other process runs as a second copy.
		let copiesMeant = 0;
		for (const f of lost.filter(took)) {
			const retry = forwards.find((r) => r.at > f.at && r.messageId !== undefined && r.messageId === f.messageId && took(r));
			assert.ok(retry, `no answered retry of message ${f.messageId} after its answer was lost`);
			const same = retry.to[0] === f.to[0];
			if (!same) copiesMeant++;
			figure(
				`lost answer of message ${f.messageId} (webhook process ${'AB'[f.to[0]]}): retried to ${'AB'[retry.to[0]]}, ${same ? 'dropped there by the trigger\'s in-process dedupe' : 'a second copy that the Redis step must stop'}`,
			);
		}
		const takenButLost = lost.filter(took).length;
		const notDelivered = messages.filter((m) => !deliveredOk(m.delivery));
		assert.deepEqual(
			notDelivered.slice(0, 10).map((m) => `"${m.text}": ${describeAttempts(m.delivery)}`),
			[],
			`${notDelivered.length} of ${BURST} deliveries were not answered 2xx after the servers' retries`,
		);
		const attempts = messages.reduce((sum, m) => sum + (m.delivery?.attempts.length ?? 0), 0);
		const retried = messages.filter((m) => (m.delivery?.attempts.length ?? 0) > 1).length;

		const received = lb.received().map((n, i) => n - receivedBefore[i]);
		const answerMs = forwards.map((f) => f.ms).sort((a, b) => a - b);
		await waitFor(`${BURST} replies`, () => (sendTexts(sb, 'demo').length - repliesBefore >= BURST ? true : undefined), 240000).catch((e: Error) => {
			throw new Error(`${e.message}; have ${sendTexts(sb, 'demo').length - repliesBefore}`);
		});
		const lastReply = Math.max(...sendTexts(sb, 'demo').slice(repliesBefore).map((r) => r.at));
		const cpu = processes(cl).map(([name, h], i) => `${name} ${(cpuSeconds(h.pid) - cpuBefore[i]).toFixed(1)}`);
		const harness = process.cpuUsage(harnessBefore);
		cpu.push(`this test with the sandbox and balancer ${((harness.user + harness.system) / 1e6).toFixed(1)}`);
		loadCpu.push(...load.map((p) => cpuSeconds(p.pid)));

		// A retried attempt that n8n had taken before it failed (a timeout, a reset after the
		// answer) is a second copy: it runs, and the dedupe step stops it. No run comes from nowhere.
		const runs = (await settledExecutions(rest, ids.demo, before.size + BURST, 120000, 3000)).filter((e) => !before.has(e.id));
		const copies = runs.length - BURST;
		assert.ok(copies >= 0, `${runs.length} runs for ${BURST} messages`);
		assert.ok(copies <= attempts - BURST, `${copies} runs more than messages, but only ${attempts - BURST} attempts were retries`);
		assert.ok(copies >= copiesMeant, `${copies} second copies, but ${copiesMeant} deliveries whose answer was lost were retried to the other webhook process`);
		const notOk = runs.filter((e) => e.status !== 'success');
		assert.equal(notOk.length, 0, `runs not successful: ${JSON.stringify(notOk.slice(0, 5))}`);

		const latencies: number[] = [];
		const wrong: string[] = [];
		for (const m of messages) {
			const replies = repliesTo(sb, 'demo', m.text);
			if (replies.length !== 1) wrong.push(`${m.text}: ${replies.length} replies`);
			else latencies.push(replies[0].at - m.sentAt);
		}
		assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} messages without exactly one reply`);

		// One counter per message; every run (copies included) counted itself in one of them.
		const counters = newCounters(countersBefore, await dedupeCounters(services));
		assert.equal(counters.length, BURST, `${counters.length} new dedupe counters`);
		assert.ok(counters.every(([, v]) => v >= 1), 'a burst counter is below 1');
		const counted = counters.reduce((sum, [, v]) => sum + v, 0);
		assert.equal(counted, runs.length, `the counters add up to ${counted}, the runs are ${runs.length}`);

		const perWorker = cl.workers.map(() => 0);
		const orphans: string[] = [];
		for (const r of runs) {
			const w = workerOf(cl, r.id);
			if (w < 0) orphans.push(r.id);
			else perWorker[w]++;
		}
		assert.deepEqual(orphans.slice(0, 10), [], `${orphans.length} executions in no worker's log`);
		assert.ok(received.every((n) => n > 0), `deliveries per webhook process ${received.join('/')}`);

		latencies.sort((a, b) => a - b);
		const deliverySeconds = (lastAnswer - burstStart) / 1000;
		const allSeconds = (lastReply - burstStart) / 1000;
		figure(
			`burst: ${BURST} deliveries in ${deliverySeconds.toFixed(1)} s = ${(BURST / deliverySeconds).toFixed(0)} deliveries/s accepted (${IN_FLIGHT} at a time, ${CPU_LOAD} CPU-bound process${CPU_LOAD === 1 ? '' : 'es'} beside); ` +
				`all ${BURST} replies after ${allSeconds.toFixed(1)} s = ${(BURST / allSeconds).toFixed(0)} messages/s end to end; ` +
				`a webhook process answered a delivery in p50 ${percentile(answerMs, 0.5)} ms, p90 ${percentile(answerMs, 0.9)} ms`,
		);
		figure(
			`attempts: ${attempts} for ${BURST} messages (${retried} retried, ${failedAttempts.length} failed attempts, ${takenButLost} of them answers lost on purpose), ${runs.length} runs (${copies} second copies stopped by the dedupe step)`,
		);
		figure(
			`delivery-to-reply latency: p50 ${percentile(latencies, 0.5)} ms, p90 ${percentile(latencies, 0.9)} ms, max ${latencies.at(-1)} ms; ` +
				`webhook A/B took ${received.join('/')}, workers ran ${perWorker.join('/')}`,
		);
		figure(`CPU seconds used until the last reply: ${cpu.join(', ')}${loadCpu.length ? `; the CPU-bound load ${loadCpu.map((s) => s.toFixed(1)).join(', ')}` : ''}`);
	} finally {
		load.forEach(stopChild);
	}
}

export const burstUnderCpuLoadGetsOneReplyPerMessage: NamedCheck<Tier> = {
	name:
		`a burst of ${BURST} distinct deliveries over both webhook processes, ${CPU_LOAD} CPU-bound process${CPU_LOAD === 1 ? '' : 'es'} beside the cluster, ` +
		`delivered with the servers' retry policy, ${LOST_ANSWERS} answers lost after n8n took the delivery: every message runs past the dedupe step once and gets exactly one reply`,
	run: burst,
};
