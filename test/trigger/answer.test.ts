/**
 * Who answers a delivery, and with what. A delivery that starts the workflow is answered by
 * n8n (its `onReceived` answer, sent once it recorded the execution), never by the node
 * through the response object, and the answer holds nothing of the message. The refusals
 * (401, 400, and 503 in answerBusy.test.ts) are the node's own, as they were. An ordinary message changes no static
 * data (n8n would write the workflow to its database after every delivery).
 */
import type { Dialect } from '../../sandbox/server';
import { INSTANCE, secretOf, setup, TOKEN, type Setup } from './helpers';

const FROM = '5511999990000';
const TEXT = 'a private message 7f3a';

describe.each<Dialect>(['documented', 'v2'])('who answers a delivery (%s)', (dialect) => {
	let s: Setup;
	beforeEach(async () => {
		s = await setup(dialect);
		await s.harness.activate();
	});
	afterEach(async () => {
		await s.close();
	});
	const last = () => s.harness.received.at(-1);
	const post = async (body: string, query: Record<string, string> = { secret: secretOf(s) }) =>
		await s.harness.post('production', body, { query });
	const message = (id: string, text = TEXT) =>
		JSON.stringify({
			event: 'messages.upsert',
			instance: INSTANCE,
			data: { key: { remoteJid: `${FROM}@s.whatsapp.net`, fromMe: false, id }, message: { conversation: text }, messageType: 'conversation' },
			apikey: TOKEN,
		});

	it('a message that starts the workflow is answered by n8n after webhook() returned: {"received":true}, no message content', async () => {
		const delivery = await s.sandbox.injectMessage(INSTANCE, { from: FROM, text: TEXT, pushName: 'Ana', id: `${dialect}-ANS1` });
		expect(delivery?.attempts).toEqual([{ status: 200, responseBody: '{"received":true}' }]);
		expect(last()?.items?.map((item) => item.json.text)).toEqual([TEXT]);
		expect(last()?.answeredBy).toBe('n8n');
		// Nothing of the message in the answer: not its text, id, sender, push name, nor the instance token.
		for (const part of [TEXT, `${dialect}-ANS1`, FROM, 'Ana', TOKEN]) expect(delivery?.attempts[0].responseBody).not.toContain(part);
		expect(last()?.staticDataChanged).toBe(false);
	});

	it('an ordinary message leaves the static data as activation stored it (no database write per delivery)', async () => {
		const stored = JSON.stringify(s.harness.persistedStaticData);
		for (let n = 0; n < 3; n++) expect((await post(message(`${dialect}-ST-${n}`))).status).toBe(200);
		expect(s.harness.received.map((r) => r.staticDataChanged)).toEqual([false, false, false]);
		expect(s.harness.emitted).toHaveLength(3);
		expect(JSON.stringify(s.harness.persistedStaticData)).toBe(stored);
	});

	it('dropped deliveries are answered through n8n too (webhookResponse), with the reason and nothing of the message', async () => {
		const duplicate = await post(message(`${dialect}-DUP-1`));
		expect(duplicate).toEqual({ status: 200, body: { received: true } });
		expect(await post(message(`${dialect}-DUP-1`))).toEqual({ status: 200, body: { received: true, ignored: 'duplicate' } });
		expect(last()?.answeredBy).toBe('n8n');
		expect(last()?.items).toBeUndefined();
		expect(last()?.staticDataChanged).toBe(false);
	});

	it('the refusals are the node\'s own, as before: 401 without the secret and with a wrong one, 400 for a body that is no delivery', async () => {
		expect(await post(message(`${dialect}-R-1`), {})).toEqual({ status: 401, body: { message: 'Unauthorized' } });
		expect(last()?.answeredBy).toBe('node');
		expect(await post(message(`${dialect}-R-2`), { secret: 'wrong' })).toEqual({ status: 401, body: { message: 'Unauthorized' } });
		expect(last()?.answeredBy).toBe('node');
		const notADelivery = await post(JSON.stringify({ event: 42, instance: INSTANCE }));
		expect(notADelivery.status).toBe(400);
		expect(notADelivery.body).toEqual({ message: expect.any(String) });
		expect(last()?.answeredBy).toBe('node');
		expect(s.harness.emitted).toEqual([]);
	});

	it('a delivery reads the credential once per activation, not per delivery (the execution hides its current key); a refused secret is refused on a fresh read', async () => {
		const helper = s.harness.credentialsHelper;
		const before = helper.decryptions;
		for (let n = 0; n < 4; n++) expect((await post(message(`${dialect}-CR-${n}`))).status).toBe(200);
		// The first delivery after activation reads the credential; the next ones use what it kept.
		expect(helper.decryptions - before).toBe(1);
		expect(s.harness.emitted).toHaveLength(4);
		// Refused by the kept settings, then read afresh before the 401.
		expect((await post(message(`${dialect}-CR-X`), { secret: 'not-the-secret' })).status).toBe(401);
		expect(helper.decryptions - before).toBe(2);
		// Deactivating and activating again reads it anew.
		await s.harness.deactivate();
		await s.harness.activate();
		const reactivated = helper.decryptions;
		expect((await post(message(`${dialect}-CR-5`))).status).toBe(200);
		expect(helper.decryptions - reactivated).toBe(1);
	});
});
