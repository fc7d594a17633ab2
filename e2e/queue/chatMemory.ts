/**
 * The chat memory in queue mode: the recipe's workflow (e2e/chatMemory.ts: Trigger → Collect
 * Burst → AI Agent with the scripted model and the Messaging Instance Chat Memory → Send Text)
 * on its own instance, deliveries through the balancer, runs on the two workers. The memory
 * keeps nothing in any n8n process: a turn run on one worker is in the history the model gets
 * on the other.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import type { NamedCheck } from '../report';
import { waitFor } from '../report';
import { freePort } from '../../scripts/n8n-runtime';
import { answerOf, lastConversation, memoryWorkflow, script } from '../chatMemory';
import { startModelServer } from '../modelServer';
import { sendTexts, settledExecutions, VERSION, workerOf } from './cluster';
import { describeAttempts, figure, running, type Tier } from './tier';

const INSTANCE = 'memory';
const CONTACT = '5511933332222';
/** Turns until two in a row ran on different workers (the queue hands each run to either). */
const MOST_TURNS = 6;

async function aTurnOnOneWorkerIsInTheHistoryOnTheOther(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, cluster: cl, rest } = running(t);
	sb.addInstance(INSTANCE);
	const model = await startModelServer(script, await freePort());
	const messaging = (await rest.call('POST', '/credentials', { name: 'Sandbox v2 (memory)', type: 'messagingInstanceApi', data: { baseUrl: sb.url, apiKey: sb.apiKey, dialect: 'v2' } })) as { id: string };
	const openAi = (await rest.call('POST', '/credentials', { name: 'Scripted model (memory)', type: 'openAiApi', data: { apiKey: `sk-e2e-${randomBytes(12).toString('hex')}`, url: model.url, header: false } })) as { id: string };
	const ids = { messaging: messaging.id, messagingName: 'Sandbox v2 (memory)', openAi: openAi.id, openAiName: 'Scripted model (memory)' };
	const made = (await rest.call('POST', '/workflows', { ...memoryWorkflow(VERSION, ids, INSTANCE), active: false, settings: { executionOrder: 'v1' } })) as { id: string };
	await rest.activate(made.id);
	try {
		await waitFor('the memory webhook', () => (sb.webhookOf(INSTANCE)?.url.startsWith(`${lb.url}/webhook/`) ? true : undefined), 30000);
		lb.route = 'alternate';
		const said: string[] = [];
		const workers: number[] = [];
		for (let turn = 1; turn <= MOST_TURNS; turn++) {
			const text = `question ${turn}`;
			const delivery = await sb.injectMessage(INSTANCE, { from: CONTACT, id: `QM${turn}`, text, pushName: 'Ana' });
			assert.equal(delivery?.attempts.at(-1)?.status, 200, describeAttempts(delivery));
			const runs = await settledExecutions(rest, made.id, turn, 60000, 1500);
			assert.deepEqual(runs.map((run) => run.status), Array(turn).fill('success'));
			const newest = runs.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
			workers.push(workerOf(cl, newest.id));
			// The window is one interaction: the previous turn, whichever worker ran it.
			const previous = said.length > 0 ? [{ role: 'user', text: said[said.length - 1] }, { role: 'assistant', text: answerOf(said[said.length - 1]) }] : [];
			assert.deepEqual(lastConversation(model), [...previous, { role: 'user', text }], `turn ${turn}`);
			said.push(text);
			if (turn >= 2 && workers[turn - 1] !== workers[turn - 2]) break;
		}
		assert.ok(!workers.includes(-1), 'a run is in no worker\'s log');
		assert.ok(workers.some((worker, i) => i > 0 && worker !== workers[i - 1]), `every turn ran on worker ${workers[0] + 1}`);
		assert.deepEqual(sendTexts(sb, INSTANCE).map((request) => (request.body as { text?: string }).text), said.map(answerOf));
		figure(`${said.length} turns on workers ${workers.map((w) => w + 1).join(', ')}: each model request held the previous turn`);
	} finally {
		await rest.deactivate(made.id).catch(() => undefined);
		await model.close();
	}
}

export const chatMemoryAcrossWorkers: NamedCheck<Tier> = {
	name: 'the chat memory: a turn run on one worker is in the history the model gets on the other (the memory is the server\'s chat, no process keeps it)',
	run: aTurnOnOneWorkerIsInTheHistoryOnTheOther,
};
