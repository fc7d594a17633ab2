/**
 * Hand over to a person in queue mode: the hand-over workflow (e2e/handOver.ts) on its own
 * instance, deliveries alternating between the two webhook processes, runs on the two
 * workers. The run that must stay silent shares nothing with the others but the messaging
 * server's history, and still stays silent.
 */
import * as assert from 'node:assert/strict';

import type { NamedCheck } from '../report';
import { waitFor } from '../report';
import { REPLY_PREFIX } from '../../scripts/demo-workflow';
import { handOverWorkflow } from '../handOver';
import { sendTexts, settledExecutions, workerOf } from './cluster';
import { describeAttempts, figure, running, type Tier } from './tier';

const INSTANCE = 'handover';
const CONTACT = '5511944441111';

async function silentWhileAPersonAnswersAcrossProcesses(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, cluster: cl, rest } = running(t);
	sb.addInstance(INSTANCE);
	const cred = (await rest.call('POST', '/credentials', { name: 'Sandbox v2 (hand over)', type: 'messagingInstanceApi', data: { baseUrl: sb.url, apiKey: sb.apiKey, dialect: 'v2' } })) as { id: string };
	const made = (await rest.call('POST', '/workflows', { ...handOverWorkflow(cred.id, 'Sandbox v2 (hand over)', INSTANCE), active: false, settings: { executionOrder: 'v1' } })) as { id: string };
	await rest.activate(made.id);
	try {
		await waitFor('the hand-over webhook', () => (sb.webhookOf(INSTANCE)?.url.startsWith(`${lb.url}/webhook/`) ? true : undefined), 30000);
		lb.route = 'alternate';
		const write = async (message: Record<string, unknown>) => {
			const delivery = await sb.injectMessage(INSTANCE, { from: CONTACT, ...message });
			assert.equal(delivery?.attempts.at(-1)?.status, 200, describeAttempts(delivery));
		};
		const texts = () => sendTexts(sb, INSTANCE).map((request) => (request.body as { text?: string }).text);
		await write({ id: 'QH1', text: 'hi, is my order shipped?', pushName: 'Ana' });
		await settledExecutions(rest, made.id, 1, 60000, 3000);
		assert.deepEqual(texts(), [`${REPLY_PREFIX}hi, is my order shipped?`]);

		// The owner takes over on the phone (the trigger drops it: own message), then the contact writes again.
		await write({ text: 'Hi Ana, I am checking it for you', fromMe: true });
		await write({ id: 'QH2', text: 'thank you!', pushName: 'Ana' });
		const runs = await settledExecutions(rest, made.id, 2, 60000, 3000);
		assert.deepEqual(runs.map((run) => run.status), ['success', 'success']);
		assert.deepEqual(texts(), [`${REPLY_PREFIX}hi, is my order shipped?`], 'the bot talked over the person');
		const workers = new Set(runs.map((run) => workerOf(cl, run.id)));
		assert.ok(!workers.has(-1), "a run is in no worker's log");
		figure(`hand over: 2 runs on worker(s) ${[...workers].map((w) => w + 1).join(', ')}: the first answered, the one after the owner wrote silent`);
	} finally {
		await rest.deactivate(made.id).catch(() => undefined);
	}
}

export const handOverStaysSilentAcrossProcesses: NamedCheck<Tier> = {
	name: 'Hand over to a person: the contact is answered; after the owner writes from the phone, the next message, run on a worker, gets no answer',
	run: silentWhileAPersonAnswersAcrossProcesses,
};
