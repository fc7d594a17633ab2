import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CATCH_UP_LIMITS } from '../../nodes/MessagingInstanceTrigger/catchUp';
import { LIVE_CURSOR_EVERY_MS } from '../../nodes/MessagingInstanceTrigger/cursor';
import { serverClock } from '../../sandbox/messages';
import type { ExecutionStaticData } from '../harness/deliveryExecution';
import type { Received } from '../harness/webhooks';
import { INSTANCE, setup, type Setup } from './helpers';

/**
 * Catch Up's cursor as n8n keeps it: a live delivery's webhook() emits, n8n runs the
 * execution (the trigger's execute() on the delivered items, through n8n-core, mode
 * `webhook`) and saves the static data the execution changed when it ends; the webhook()'s
 * own change is not saved once an execution starts (n8n 2.40.7). The execution starts from
 * the stored static data, or shares the object webhook() changed: both are played. The
 * catch-up writes the cursor once every 50 messages it emitted. n8n's clock is moved with
 * jest's Date only: no test waits. Between two writes a crash
 * costs duplicates only: live messages come again as caught up with the dedupeKey of their
 * live delivery (Remove Duplicates drops them); caught-up ones are refused by n8n.
 */

const FROM = '5511999990000';
let s: Setup;
let counter = 0;
/** Message ids unique across the file (the live path's memory of keys is the process's). */
const idOf = (name: string): string => `CC${++counter}-${name}`;

/** A version 3 trigger (Catch Up on where nothing was chosen), as the editor saves a new one, whose deliveries' executions run. */
async function start(executions: ExecutionStaticData = 'stored'): Promise<void> {
	const parameters: INodeParameters = { instance: { __rl: true, mode: 'name', value: INSTANCE } };
	s = await setup('v2', parameters, 3, {}, { deliveryExecutions: executions });
}

/** n8n starts the workflow (publish: 'activate'; a start of n8n: 'init') and the catch-up ends. */
async function startWorkflow(activation: 'activate' | 'init'): Promise<void> {
	if (activation === 'init') await s.harness.restart();
	else await s.harness.activate();
	await (await s.harness.startTrigger(activation)).settled;
}

/** A message delivered live: what the server sent, what n8n answered, and the delivery as n8n served it. */
async function deliverLive(name: string): Promise<{ id: string; seconds: number; served: Received }> {
	const id = idOf(name);
	const delivery = await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: name, pushName: 'Ana', id });
	const sent = delivery?.body as { data: { key: { id: string }; messageTimestamp: number } };
	expect(sent.data.key.id).toBe(id);
	expect(delivery?.attempts.map((attempt) => [attempt.status, JSON.parse(attempt.responseBody ?? 'null')])).toEqual([[200, { received: true }]]);
	const served = s.harness.received.at(-1) as Received;
	expect(served.items?.map((item) => [item.json.messageId, item.json.caughtUp])).toEqual([[id, false]]);
	// The execution ran the trigger's step on the delivered items and passed them on as they came.
	expect(served.execution?.items.map((item) => item.json)).toEqual(served.items?.map((item) => item.json));
	return { id, seconds: sent.data.messageTimestamp, served };
}

/** n8n's clock moves on (only Date: timers stay real, no test waits). */
function later(ms: number): void {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
	jest.setSystemTime(Date.now() + ms);
}

const cursor = (): IDataObject | undefined => s.harness.nodeStaticData.catchUp as IDataObject | undefined;
const caughtUp = () => s.harness.executions.map((execution) => execution.items[0]?.json);

afterEach(async () => {
	jest.useRealTimers();
	serverClock.offsetMs = 0;
	await s.close();
});

describe('the cursor a live delivery writes, in its execution', () => {
	it.each<[string, ExecutionStaticData]>([
		['from the stored static data', 'stored'],
		['sharing the static data webhook() changed', 'shared'],
	])('an execution %s saves the cursor at the delivered message; within LIVE_CURSOR_EVERY_MS no execution saves static data; the first after it does', async (_how, executions) => {
		await start(executions);
		await startWorkflow('activate');
		// The publish noted where the server is, never written by a delivery yet.
		expect(cursor()).toMatchObject({ savedAt: 0 });

		const before = Date.now();
		const first = await deliverLive('first');
		expect(first.served.execution?.savedStaticData).toBe(true);
		expect(cursor()).toEqual({ seconds: first.seconds, ids: [first.id], savedAt: expect.any(Number) });
		expect(cursor()?.savedAt).toBeGreaterThanOrEqual(before);
		const written = cursor();

		const second = await deliverLive('second');
		expect(second.served.execution?.savedStaticData).toBe(false);
		expect(cursor()).toEqual(written);

		later(LIVE_CURSOR_EVERY_MS);
		const third = await deliverLive('third');
		expect(third.served.execution?.savedStaticData).toBe(true);
		expect(cursor()).toMatchObject({ seconds: third.seconds, ids: [third.id] });
	});

	it('a crash between two writes: the live messages after the last write come again as caught up, each with its live dedupeKey; the rest once', async () => {
		await start();
		await startWorkflow('activate');
		const written = await deliverLive('written');
		const unwritten = [await deliverLive('after the write'), await deliverLive('also after')];
		expect(unwritten.map((message) => message.served.execution?.savedStaticData)).toEqual([false, false]);
		expect(cursor()).toMatchObject({ ids: [written.id] });

		// n8n crashes; a new process starts (the live path's memory of ten minutes is gone).
		s.harness.active = false;
		later(11 * 60 * 1000);
		const missedId = idOf('while away');
		const missed = await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: 'while away', id: missedId });
		expect(missed?.attempts.at(-1)?.status).toBe(404);
		await startWorkflow('init');

		expect(caughtUp().map((json) => [json.messageId, json.caughtUp])).toEqual([...unwritten.map((message) => [message.id, true]), [missedId, true]]);
		// The duplicates are exactly the live messages after the last write, and carry their live dedupeKey.
		const liveKeys = s.harness.emitted.map((item) => item.json.dedupeKey);
		expect(caughtUp().slice(0, 2).map((json) => json.dedupeKey)).toEqual(unwritten.map((message) => message.served.items?.[0].json.dedupeKey));
		// Remove Duplicates on dedupeKey lets through exactly the message that was missed.
		expect(caughtUp().filter((json) => !liveKeys.includes(json.dedupeKey)).map((json) => json.messageId)).toEqual([missedId]);
		expect(s.harness.failedExecutions).toEqual([]);
	});
});

describe('the cursor the catch-up writes', () => {
	it('once every 50 messages: stopped after the 75th, the next start emits from the 50th on and n8n refuses the 26 it ran', async () => {
		await start();
		await startWorkflow('activate');
		s.harness.active = false;
		const ids: string[] = [];
		for (let index = 0; index < 120; index++) {
			// A second apart on the server's clock, so that the order is the server's.
			serverClock.offsetMs += 1000;
			ids.push(idOf(`m${index}`));
			await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: `m${index}`, id: ids[index] });
		}
		await s.harness.restart();
		const response = await s.harness.startTrigger('init');
		// n8n goes away right after the 75th execution was recorded.
		const recorded = s.harness.executions;
		const push = recorded.push.bind(recorded);
		recorded.push = (...executions) => {
			const length = push(...executions);
			if (length === 75) void response.closeFunction?.();
			return length;
		};
		await response.settled;
		recorded.push = push;
		expect(caughtUp().map((json) => json.messageId)).toEqual(ids.slice(0, 75));
		expect(CATCH_UP_LIMITS.pageSize).toBe(50);
		// Written before the 50th was emitted: the 49 before it are passed.
		expect(cursor()).toMatchObject({ ids: [ids[48]] });

		later(11 * 60 * 1000);
		await startWorkflow('init');
		expect(s.harness.refusedExecutions).toHaveLength(26);
		expect(caughtUp().map((json) => json.messageId)).toEqual(ids);
		// This start's 50th emit (ids[98], refused ones counted) wrote the 49 before it.
		expect(cursor()).toMatchObject({ ids: [ids[97]] });
	});
});
