/**
 * Collect Burst in queue mode: the recipe's workflow (e2e/collectBurst.ts) on its own
 * instance, deliveries alternating between the two webhook processes, runs on the two
 * workers. The runs of one burst share nothing but the messaging server's history, and
 * still answer the burst once.
 */
import * as assert from 'node:assert/strict';

import type { NamedCheck } from '../report';
import { sleep, waitFor } from '../report';
import { REPLY_PREFIX } from '../../scripts/demo-workflow';
import { burstWorkflow } from '../collectBurst';
import { sendTexts, settledExecutions, workerOf } from './cluster';
import { describeAttempts, figure, running, type Tier } from './tier';

const INSTANCE = 'burst';
const CONTACT = '5511933331111';

async function oneReplyPerBurstAcrossProcesses(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, cluster: cl, rest } = running(t);
	sb.addInstance(INSTANCE);
	const cred = (await rest.call('POST', '/credentials', { name: 'Sandbox v2 (burst)', type: 'messagingInstanceApi', data: { baseUrl: sb.url, apiKey: sb.apiKey, dialect: 'v2' } })) as { id: string };
	const made = (await rest.call('POST', '/workflows', { ...burstWorkflow(cred.id, 'Sandbox v2 (burst)', INSTANCE), active: false, settings: { executionOrder: 'v1' } })) as { id: string };
	await rest.activate(made.id);
	try {
		await waitFor('the burst webhook', () => (sb.webhookOf(INSTANCE)?.url.startsWith(`${lb.url}/webhook/`) ? true : undefined), 30000);
		lb.route = 'alternate';
		const write = async (id: string, text: string) => {
			const delivery = await sb.injectMessage(INSTANCE, { from: CONTACT, id, text, pushName: 'Ana' });
			assert.equal(delivery?.attempts.at(-1)?.status, 200, describeAttempts(delivery));
		};
		for (const [index, text] of ['hi', 'I need help', 'with my order 4411'].entries()) {
			if (index > 0) await sleep(1000);
			await write(`QB${index + 1}`, text);
		}
		const first = await settledExecutions(rest, made.id, 3, 60000, 3000);
		assert.equal(first.length, 3, `${first.length} runs`);
		assert.deepEqual(first.map((run) => run.status), ['success', 'success', 'success']);
		const workers = new Set(first.map((run) => workerOf(cl, run.id)));
		assert.ok(!workers.has(-1), 'a run is in no worker\'s log');
		const texts = () => sendTexts(sb, INSTANCE).map((request) => (request.body as { text?: string }).text);
		assert.deepEqual(texts(), [`${REPLY_PREFIX}hi\nI need help\nwith my order 4411`]);

		await write('QB4', 'thanks!');
		await settledExecutions(rest, made.id, 4, 60000, 3000);
		assert.deepEqual(texts(), [`${REPLY_PREFIX}hi\nI need help\nwith my order 4411`, `${REPLY_PREFIX}thanks!`]);
		figure(`3 runs of one burst on worker(s) ${[...workers].map((w) => w + 1).join(', ')}: one reply; a 4th message: one more`);
	} finally {
		await rest.deactivate(made.id).catch(() => undefined);
	}
}

export const collectBurstAnswersOncePerBurst: NamedCheck<Tier> = {
	name: 'Collect Burst: three messages 1 s apart, delivered through both webhook processes and run on the workers, get one reply; a fourth after it gets its own',
	run: oneReplyPerBurstAcrossProcesses,
};
