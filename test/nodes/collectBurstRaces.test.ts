import { startSandbox } from '../../sandbox/server';
import { SERVER_VERSIONS } from '../../sandbox/versions';
import { declareSecrets } from '../harness/secrets';
import {
	arrives,
	chatPage,
	collect,
	CONTACT,
	CONTACT_JID,
	CONTACT_LID,
	findRequests,
	findRequestsReach,
	GROUP,
	idsOf,
	instanceWrites,
	output,
	pause,
	useBurstSandbox,
} from './collectBurstSetup';

/**
 * Exactly one output per burst, with no store but the server's history: every race in which
 * two runs could both answer, or none could.
 */
const sandbox = useBurstSandbox();

describe('Collect Burst: races', () => {
	test("the run's own message not stored yet when it asks: it asks again until it is", async () => {
		const running = collect(sandbox.current, { chatId: CONTACT_JID, messageId: 'LATE1' });
		// The run read the chat and looked the message up by id: both missed it. Now it is stored.
		await findRequestsReach(sandbox.current, 2);
		await sandbox.current.injectMessage('demo', { from: CONTACT, id: 'LATE1', text: 'on my way' });
		const run = await running;
		expect(idsOf(output(run))).toEqual(['LATE1']);
		expect(findRequests(sandbox.current)).toEqual([chatPage(CONTACT_JID), { where: { key: { id: 'LATE1' } }, page: 1, offset: 10 }, chatPage(CONTACT_JID)]);
	}, 20_000);

	test('a message the server never stores: the run fails naming Message ID, after a bounded number of tries', async () => {
		const run = await collect(sandbox.current, { chatId: CONTACT_JID, messageId: 'NEVER' });
		expect(run.error?.message).toBe('"Message ID" is not among the messages the server stored for 5511988887777@s.whatsapp.net (asked 4 times, 3 s apart) [item 0]');
		expect((run.error as { description?: string }).description).toContain('DATABASE_SAVE_DATA_NEW_MESSAGE');
		expect(findRequests(sandbox.current)).toHaveLength(8);
	}, 20_000);

	test('a message that reaches the server after the earlier run read the chat starts a new burst, even before the reply', async () => {
		const first = await collect(sandbox.current, await arrives(sandbox.current, { from: CONTACT, id: 'G1', text: 'hi' }));
		expect(idsOf(output(first))).toEqual(['G1']);
		// The workflow is still answering G1 (no reply stored yet) when the contact writes again.
		const second = await collect(sandbox.current, await arrives(sandbox.current, { from: CONTACT, id: 'G2', text: 'hello?' }));
		expect(idsOf(output(second))).toEqual(['G2']);
	}, 20_000);

	test('a message stored twice (the server emitted it twice) is one message of the burst', async () => {
		await arrives(sandbox.current, { from: CONTACT, id: 'T1', text: 'one' });
		const twice = await arrives(sandbox.current, { from: CONTACT, id: 'T2', text: 'two' });
		await arrives(sandbox.current, { from: CONTACT, id: 'T2', text: 'two' });
		const run = await collect(sandbox.current, twice);
		expect(output(run)).toMatchObject({ text: 'one\ntwo', count: 2, lastMessageId: 'T2' });
	}, 20_000);

	test('a contact who keeps writing past maxWaitSeconds gets an answer anyway, each message once', async () => {
		const runs = [];
		for (const id of ['K1', 'K2', 'K3', 'K4']) {
			runs.push(collect(sandbox.current, await arrives(sandbox.current, { from: CONTACT, id, text: id }), { quietSeconds: 1, maxWaitSeconds: 2 }));
			// 0.9 s apart: never a pause longer than the quiet time, but longer than maxWait in all.
			await pause(900);
		}
		const bursts = (await Promise.all(runs)).map((run) => idsOf(output(run))).filter((ids) => ids !== undefined);
		expect(bursts).toHaveLength(2);
		expect(bursts.flat()).toEqual(['K1', 'K2', 'K3', 'K4']);
	}, 20_000);

	test('in a group a burst is one sender\'s: each sender gets one answer, the instance\'s message ends bursts', async () => {
		const ana = '5511911110000';
		const bia = '5511922220000';
		const items = [
			await arrives(sandbox.current, { from: ana, group: GROUP, id: 'GA1', text: 'who is buying?' }),
			await arrives(sandbox.current, { from: bia, group: GROUP, id: 'GB1', text: 'me' }),
			await arrives(sandbox.current, { from: ana, group: GROUP, id: 'GA2', text: 'great' }),
		];
		const runs = await Promise.all(items.map((item) => collect(sandbox.current, item)));
		expect(runs.map((run) => output(run))).toEqual([
			undefined,
			expect.objectContaining({ chatId: GROUP, sender: `${bia}@s.whatsapp.net`, text: 'me', count: 1 }),
			expect.objectContaining({ chatId: GROUP, sender: `${ana}@s.whatsapp.net`, text: 'who is buying?\ngreat', count: 2 }),
		]);
		expect(findRequests(sandbox.current)).toEqual([chatPage(GROUP), chatPage(GROUP), chatPage(GROUP)]);

		await instanceWrites(sandbox.current, GROUP, 'Orders close at 6.');
		const next = await collect(sandbox.current, await arrives(sandbox.current, { from: ana, group: GROUP, id: 'GA3', text: 'ok' }));
		expect(idsOf(output(next))).toEqual(['GA3']);
	}, 30_000);
});

describe.each(SERVER_VERSIONS)('Collect Burst with a contact known by LID, on %s', (version) => {
	test('the burst is found by the phone JID the trigger gives, and the reply to it ends it', async () => {
		const sb = await startSandbox({ dialect: 'v2', version, instances: [{ name: 'demo', token: 'demo-token' }] });
		declareSecrets('demo-token');
		try {
			const lidMessage = { from: CONTACT, lid: CONTACT_LID };
			const items = [await arrives(sb, { ...lidMessage, id: 'L1', text: 'hi' }), await arrives(sb, { ...lidMessage, id: 'L2', text: 'order 4411' })];
			const runs = await Promise.all(items.map((item) => collect(sb, item)));
			expect(runs.map((run) => output(run))).toEqual([undefined, expect.objectContaining({ chatId: CONTACT_JID, sender: CONTACT_JID, text: 'hi\norder 4411' })]);
			// 2.3.6 matches remoteJid alone: the messages stored under the LID are read by the LID too.
			const reads = (id: string) =>
				version === '2.3.6' ? [chatPage(CONTACT_JID), { where: { key: { id } }, page: 1, offset: 10 }, chatPage(CONTACT_LID)] : [chatPage(CONTACT_JID)];
			// The two runs ask at the same time: their requests interleave.
			const sorted = (bodies: unknown[]) => bodies.map((body) => JSON.stringify(body)).sort();
			expect(sorted(findRequests(sb))).toEqual(sorted([...reads('L1'), ...reads('L2')]));

			await instanceWrites(sb, CONTACT, 'Your order ships today.');
			const next = await collect(sb, await arrives(sb, { ...lidMessage, id: 'L3', text: 'thanks' }));
			expect(idsOf(output(next))).toEqual(['L3']);
		} finally {
			await sb.close();
		}
	}, 30_000);
});
