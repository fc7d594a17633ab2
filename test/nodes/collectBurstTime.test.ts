import { arrives, collect, CONTACT, idsOf, instanceWrites, output, pause, useBurstSandbox } from './collectBurstSetup';

/**
 * Time never decides what gets lost: the runs of a burst agree from the server's history
 * alone, however late n8n starts them and however far the server's clock is from n8n's. A
 * first delivery is never dropped; a second delivery is the trigger's to drop, by its key.
 */
const sandbox = useBurstSandbox();
/** Two messages 1 s apart stay one burst even when a loaded machine stretches the pause. */
const RULES = { quietSeconds: 3, maxWaitSeconds: 60 };

describe('Collect Burst: when n8n starts a run, and what time the server keeps, change nothing', () => {
	test.each([
		['n8n starts the last message\'s run 3 s late', 0, 3_000],
		['the server\'s clock 5 s behind n8n\'s, runs started at once', -5_000, 0],
		['the server\'s clock 5 s behind n8n\'s, the last run 3 s late', -5_000, 3_000],
		['the server\'s clock 5 s ahead of n8n\'s, the last run 3 s late', 5_000, 3_000],
	])('%s: two messages, then the phone\'s owner writes; the burst is answered once, by the run of its last message', async (_name, clockSkewMs, lateMs) => {
		sandbox.current.historyQuirks({ clockSkewMs });
		const first = collect(sandbox.current, await arrives(sandbox.current, { from: CONTACT, id: 'P1', text: 'hi' }), RULES);
		await pause(1_000);
		const second = await arrives(sandbox.current, { from: CONTACT, id: 'P2', text: 'is the shop open today?' });
		const prompt = lateMs === 0 ? collect(sandbox.current, second, RULES) : undefined;
		await pause(1_000);
		// The phone's owner writes in the chat: the contact's burst ends here for every run.
		await instanceWrites(sandbox.current, CONTACT, 'Hi! One moment please.');
		await pause(lateMs);
		const last = prompt ?? collect(sandbox.current, second, RULES);

		const runs = await Promise.all([first, last]);
		expect(runs.map((run) => output(run))).toEqual([undefined, expect.objectContaining({ text: 'hi\nis the shop open today?', count: 2, firstMessageId: 'P1', lastMessageId: 'P2' })]);

		// What the contact writes after the owner's message is a burst of its own.
		const next = await collect(sandbox.current, await arrives(sandbox.current, { from: CONTACT, id: 'P3', text: 'thanks' }), RULES);
		expect(idsOf(output(next))).toEqual(['P3']);
	}, 40_000);

	test('a run started after the reply to its burst still answers: a redelivery is told by its key (the trigger), not by the time', async () => {
		const item = await arrives(sandbox.current, { from: CONTACT, id: 'R1', text: 'price of the blue one?' });
		expect(idsOf(output(await collect(sandbox.current, item, { quietSeconds: 1, maxWaitSeconds: 60 })))).toEqual(['R1']);
		await instanceWrites(sandbox.current, CONTACT, 'It is 20 EUR.');
		await pause(2_100);
		// The same message's run again (a run n8n started late, or a copy the trigger did not see):
		// answering twice is the cost; dropping a first delivery is never.
		expect(idsOf(output(await collect(sandbox.current, item, { quietSeconds: 1, maxWaitSeconds: 60 })))).toEqual(['R1']);
	}, 20_000);
});
