import { expectNoSecrets, INSTANCE, secretOf, setup, type Setup } from './helpers';

/**
 * The settings a delivery keeps (deliverySettings.ts) for at most a minute: that minute is
 * measured on a monotonic clock, and what the workflow gets is always without the
 * credential's current API key, even while the kept secrets still let the old registration
 * in: the delivery's execution reads the credential (inside an execution that costs n8n a
 * database read, not the expression isolate a webhook's read costs) and hides it.
 */
describe('the trigger\'s kept delivery settings', () => {
	let s: Setup;
	beforeEach(async () => {
		// Only the wall clock and the monotonic clock are n8n's to step; sockets keep real timers.
		jest.useFakeTimers({ doNotFake: ['hrtime', 'nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
		// Each delivery's execution runs (the trigger's execute() through n8n-core), as in n8n.
		s = await setup('v2', {}, 1, {}, { deliveryExecutions: 'stored' });
	});
	afterEach(async () => {
		jest.useRealTimers();
		await s.close();
	});

	const output = () => s.harness.received.flatMap((delivery) => delivery.execution?.items ?? []);

	it('a new API key is hidden from the very next item the workflow gets; a wall clock stepped back an hour keeps the old secret no longer than the minute', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const oldSecret = secretOf(s);
		const first = await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'first' });
		expect(first?.attempts.at(-1)?.status).toBe(200);

		// The key is changed in n8n; the server still delivers to the registered URL (old secret).
		const newKey = 'NEW-API-KEY-3f9a8b7c6d5e4f3a2b1c';
		harness.setCredentials({ apiKey: newKey });
		const reads = harness.credentialsHelper.decryptions;
		const leaked = await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: `the key is ${newKey}` });
		expect(leaked?.attempts.at(-1)?.status).toBe(200);
		// The delivery was let in and cleaned with the settings it kept (no read: n8n would start
		// an isolate for it); its execution read the credential once and hid the new key.
		expect(harness.credentialsHelper.decryptions - reads).toBe(1);
		expect(harness.emitted.at(-1)?.json.text).toBe(`the key is ${newKey}`);
		expect(output().map((item) => item.json.text)).toEqual(['first', 'the key is [redacted]']);

		// This process learnt it: the next delivery hands n8n its items without it already.
		const again = await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: `again ${newKey}` });
		expect(again?.attempts.at(-1)?.status).toBe(200);
		expect(harness.emitted.at(-1)?.json.text).toBe('again [redacted]');
		expect(output().map((item) => item.json.text)).toEqual(['first', 'the key is [redacted]', 'again [redacted]']);
		expectNoSecrets(output(), [newKey, oldSecret]);

		// The wall clock steps back an hour, then a minute passes: the kept minute is over.
		jest.setSystemTime(Date.now() - 3_600_000);
		jest.advanceTimersByTime(61_000);
		const late = await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'with the old secret' });
		expect(late?.attempts.map((attempt) => attempt.status)).toEqual([401]);
		expect(output()).toHaveLength(3);
	});

	it('the execution hides the new key in every item of a batch, and takes a delivery nested as deep as the webhook lets in', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		expect((await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'first' }))?.attempts.at(-1)?.status).toBe(200);
		const newKey = 'NEW-API-KEY-9e8d7c6b5a4f3e2d1c0b';
		harness.setCredentials({ apiKey: newKey });
		const record = (id: string, extra: unknown = {}) => ({
			key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id },
			pushName: `named ${newKey}`,
			message: { conversation: `text ${id} ${newKey}`, extra },
			messageType: 'conversation',
			messageTimestamp: 1_790_000_000,
		});
		const batch = await sandbox.injectEvent(INSTANCE, 'messages.upsert', [record('B1'), record('B2'), record('B3')]);
		expect(batch?.attempts.at(-1)?.status).toBe(200);
		// 61 objects under `extra`: the delivery's deepest value at level 64, the webhook's bound;
		// in the item, under `raw`, one level deeper.
		const chain = JSON.parse(`${'{"a":'.repeat(61)}1${'}'.repeat(61)}`) as unknown;
		const deep = await sandbox.injectEvent(INSTANCE, 'messages.upsert', record('DEEP', chain));
		expect(deep?.attempts.at(-1)?.status).toBe(200);
		expect(output().map((item) => [item.json.messageId, item.json.text, item.json.pushName])).toEqual([
			[expect.any(String), 'first', expect.any(String)],
			['B1', 'text B1 [redacted]', 'named [redacted]'],
			['B2', 'text B2 [redacted]', 'named [redacted]'],
			['B3', 'text B3 [redacted]', 'named [redacted]'],
			['DEEP', 'text DEEP [redacted]', 'named [redacted]'],
		]);
		expectNoSecrets(output(), [newKey]);
	});
});
