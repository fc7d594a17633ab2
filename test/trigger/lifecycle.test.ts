import type { Dialect } from '../../sandbox/server';
import { expectNoSecrets, findCalls, INSTANCE, registeredUrl, secretOf, setup, setWebhookBodies, type Setup } from './helpers';

const HEADER = 'x-messaging-instance-secret';

/** The Set Webhook body each dialect should carry for this registration. */
function expectedBody(
	dialect: Dialect,
	url: string,
	secret: string,
	enabled: boolean,
	events = ['MESSAGES_UPSERT'],
	// Media as Binary is on for a new node: the server sends files inside the events.
	base64 = true,
): unknown {
	const withSecret = registeredUrl(url, secret);
	return dialect === 'v2'
		? { webhook: { enabled, url: withSecret, byEvents: false, base64, events, headers: { [HEADER]: secret } } }
		: { enabled, url: withSecret, webhookByEvents: false, webhookBase64: base64, events };
}

describe.each<Dialect>(['documented', 'v2'])('trigger lifecycle (%s)', (dialect) => {
	let s: Setup;
	beforeEach(async () => {
		s = await setup(dialect);
	});
	afterEach(async () => {
		await s.close();
	});

	it('activation registers the production URL with a secret, deactivation switches it off with the same URL and events', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const secret = secretOf(s);
		expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(setWebhookBodies(sandbox)).toEqual([expectedBody(dialect, harness.productionUrl(), secret, true)]);
		expect(sandbox.webhookOf(INSTANCE)).toMatchObject({
			enabled: true,
			url: registeredUrl(harness.productionUrl(), secret),
			events: ['MESSAGES_UPSERT'],
			byEvents: false,
		});

		await harness.deactivate();
		expect(setWebhookBodies(sandbox)).toEqual([
			expectedBody(dialect, harness.productionUrl(), secret, true),
			expectedBody(dialect, harness.productionUrl(), secret, false),
		]);
		expect(sandbox.webhookOf(INSTANCE)?.enabled).toBe(false);
		expect(harness.nodeStaticData.production).toBeUndefined();
	});

	it('re-activation and an n8n restart keep the same secret and are idempotent', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const secret = secretOf(s);
		const body = expectedBody(dialect, harness.productionUrl(), secret, true);

		const again = await harness.activate();
		const restarted = await harness.restart();
		expect(secretOf(s)).toBe(secret);
		if (dialect === 'v2') {
			// The server says the registration is in place: nothing to send.
			expect(again.created).toBe(false);
			expect(restarted.created).toBe(false);
			// Publishing asks first whose webhook the instance has (1); re-activation and restart
			// ask whether the registration is in place (1 each).
			expect(findCalls(sandbox)).toBe(3);
			expect(setWebhookBodies(sandbox)).toEqual([body]);
		} else {
			// No find route: registering again is the idempotent way (Set Webhook replaces).
			expect(again.created).toBe(true);
			expect(restarted.created).toBe(true);
			expect(findCalls(sandbox)).toBe(0);
			expect(setWebhookBodies(sandbox)).toEqual([body, body, body]);
		}

		// Deactivate, activate again: same secret, same URL.
		await harness.deactivate();
		await harness.activate();
		expect(setWebhookBodies(sandbox).at(-1)).toEqual(body);

		// Deliveries still pass after the restart (the secret comes from the stored static data).
		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'after restart' });
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['after restart']);
	});

	it('a changed event list is registered again on restart', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const secret = secretOf(s);
		harness.setParameters({ instance: INSTANCE, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'], options: { mediaAsBinary: true } });
		const restarted = await harness.restart();
		expect(restarted.created).toBe(true);
		expect(setWebhookBodies(sandbox).at(-1)).toEqual(
			expectedBody(dialect, harness.productionUrl(), secret, true, ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'], true),
		);
	});

	it('listening for a test event on an inactive workflow registers the test URL and disables it afterwards', async () => {
		const { sandbox, harness } = s;
		await harness.listenForTest();
		// A test session's static data is n8n's cached copy, never saved: read the secret off the server.
		const secret = testSecret(sandbox.webhookOf(INSTANCE)?.url);
		expect(harness.nodeStaticData.secret).toBeUndefined();
		expect(setWebhookBodies(sandbox)).toEqual([expectedBody(dialect, harness.testUrl(), secret, true)]);

		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'test event' });
		await harness.idle();
		expect(harness.received.map((r) => [r.kind, r.status])).toEqual([['test', 200]]);
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['test event']);

		// The test ended with its event: the instance's webhook is switched off again.
		expect(harness.testListening).toBe(false);
		expect(setWebhookBodies(sandbox)).toEqual([
			expectedBody(dialect, harness.testUrl(), secret, true),
			expectedBody(dialect, harness.testUrl(), secret, false),
		]);
		expect(sandbox.webhookOf(INSTANCE)?.enabled).toBe(false);
	});

	it('listening for a test event on an active workflow puts the production registration back afterwards', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const secret = secretOf(s);
		const production = expectedBody(dialect, harness.productionUrl(), secret, true);

		await harness.listenForTest();
		expect(setWebhookBodies(sandbox).at(-1)).toEqual(expectedBody(dialect, harness.testUrl(), secret, true));
		expect(sandbox.webhookOf(INSTANCE)?.url).toBe(registeredUrl(harness.testUrl(), secret));

		await harness.stopTest();
		expect(setWebhookBodies(sandbox).at(-1)).toEqual(production);
		expect(sandbox.webhookOf(INSTANCE)).toMatchObject({ enabled: true, url: registeredUrl(harness.productionUrl(), secret) });

		// And again, this time ended by a test event: production is back and receives the next one.
		await harness.listenForTest();
		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'to the editor' });
		await harness.idle();
		expect(setWebhookBodies(sandbox).at(-1)).toEqual(production);
		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'to production' });
		expect(harness.received.map((r) => [r.kind, r.items?.[0]?.json.text])).toEqual([
			['test', 'to the editor'],
			['production', 'to production'],
		]);
		// The production static data never saw the test session.
		expect(harness.nodeStaticData.test).toBeUndefined();
	});

	it('an event the dialect does not know stops activation with a clear error and sends nothing', async () => {
		const { sandbox, harness } = s;
		const foreign = dialect === 'v2' ? 'NEW_JWT_TOKEN' : 'LABELS_EDIT';
		harness.setParameters({ instance: INSTANCE, events: ['MESSAGES_UPSERT', foreign], options: {} });
		await expect(harness.activate()).rejects.toThrow(`dialect has no event ${foreign}`);
		expect(setWebhookBodies(sandbox)).toEqual([]);
	});

	it('an unknown instance fails activation with the server message and sends nothing', async () => {
		const { sandbox, harness } = s;
		harness.setParameters({ instance: 'nobody', events: ['MESSAGES_UPSERT'], options: {} });
		let caught: unknown;
		try {
			await harness.activate();
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(Error);
		expect((caught as Error).message).toMatch(/"nobody" instance does not exist.*HTTP 404/);
		expect(setWebhookBodies(sandbox)).toEqual([]);
	});

	it('activation errors carry no secret, even when the server echoes the URL', async () => {
		const { sandbox, harness } = s;
		let caught: unknown;
		await harness.activate();
		const secret = secretOf(s);
		// The next Set Webhook fails with a message that echoes the URL (and so the secret).
		sandbox.failNext({
			status: 400,
			message: `Invalid url ${registeredUrl(harness.productionUrl(), secret)}`,
			path: `/webhook/set/${INSTANCE}`,
		});
		harness.setParameters({ instance: INSTANCE, events: ['CONNECTION_UPDATE'], options: {} });
		try {
			await harness.restart();
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(Error);
		expect((caught as Error).message).toContain('Invalid url');
		expect((caught as Error).message).toContain('[redacted]');
		expectNoSecrets(
			{ message: (caught as Error).message, error: caught, description: (caught as { description?: string }).description },
			[secretOf(s), sandbox.apiKey],
		);
	});
});

function testSecret(url: string | undefined): string {
	return new URL(url ?? '').searchParams.get('secret') ?? '';
}

