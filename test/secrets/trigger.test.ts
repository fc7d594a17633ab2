import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { INSTANCE, registeredUrl, secretOf, setup, TOKEN, type Setup } from '../trigger/helpers';

/**
 * The trigger's secret and the instance token: never in an emitted item, never in static
 * data, never in what the action node reads back from the server (Webhook → Get).
 */

const FROM = '5511999990000';
const JID = `${FROM}@s.whatsapp.net`;

function envelope(extra: IDataObject = {}): IDataObject {
	return {
		event: 'messages.upsert',
		instance: INSTANCE,
		data: { key: { remoteJid: JID, fromMe: false, id: `M-${Math.random()}` }, pushName: 'Ana', message: { conversation: 'hello' }, messageTimestamp: 1_763_870_000 },
		date_time: '2026-11-23T06:00:00.000Z',
		sender: JID,
		...extra,
	};
}

describe('the trigger and its secrets (v2)', () => {
	let s: Setup;
	beforeEach(async () => {
		s = await setup('v2', { options: { outputFormat: 'raw' } });
		await s.harness.activate();
	});
	afterEach(async () => await s.close());

	test('Webhook → Get outputs the registered URL without the trigger\'s secret, the rest of the URL kept', async () => {
		const secret = secretOf(s);
		expect(s.sandbox.webhookOf(INSTANCE)?.url).toContain(`secret=${secret}`);
		const result = await runNode({
			parameters: { resource: 'webhook', operation: 'get', instance: INSTANCE },
			credentials: { baseUrl: s.sandbox.url, apiKey: s.sandbox.apiKey, dialect: 'v2' },
		});
		expect(result.error).toBeUndefined();
		expect(s.sandbox.requests.at(-1)).toMatchObject({ method: 'GET', path: `/webhook/find/${INSTANCE}` });
		const json = result.items[0].json as IDataObject;
		expect(json.url).toBe(s.harness.productionUrl());
		expect(JSON.stringify(result.items)).not.toContain(secret);
		expect(JSON.stringify(result.run)).not.toContain(secret);
	});

	test('the static data holds no secret: the URL is stored without it, and deactivation still switches the webhook off', async () => {
		const secret = secretOf(s);
		const production = s.harness.nodeStaticData.production as IDataObject;
		// Stored without the secret; the ids it is derived over (secret_scope) are no secret and stay.
		expect(production.url).toBe(registeredUrl(s.harness.productionUrl(), '').replace(/&secret=$/, ''));
		expect(JSON.stringify(s.harness.persistedStaticData)).not.toContain(secret);
		await s.harness.deactivate();
		expect(s.sandbox.webhookOf(INSTANCE)?.enabled).toBe(false);
		// Switched off at the URL it was registered with (the secret derived again).
		expect(s.sandbox.webhookOf(INSTANCE)?.url).toContain(`secret=${secret}`);
	});

	test.each(['apikey', 'apiKey', 'Apikey', 'APIKEY', 'token', 'instanceToken'])('an instance token delivered under "%s" is never emitted', async (name) => {
		const answer = await s.harness.post('production', JSON.stringify(envelope({ [name]: TOKEN, note: `token ${TOKEN}` })), { query: { secret: secretOf(s) } });
		expect(answer.status).toBe(200);
		expect(s.harness.emitted).toHaveLength(1);
		expect(JSON.stringify(s.harness.emitted)).not.toContain(TOKEN);
		expect(s.harness.emitted[0].json.note).toBe('token [redacted]');
	});

	test('a percent-encoded secret in destination is not decoded into the item', async () => {
		const secret = secretOf(s);
		const encoded = [...secret].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('');
		const destination = `${s.harness.productionUrl()}?x=${encoded}&secret=${encoded}&page=2`;
		const answer = await s.harness.post('production', JSON.stringify(envelope({ destination, apikey: TOKEN })), { query: { secret } });
		expect(answer.status).toBe(200);
		const emitted = s.harness.emitted[0].json as IDataObject;
		expect(JSON.stringify(emitted)).not.toContain(secret);
		expect(JSON.stringify(emitted)).not.toContain(encoded);
		expect(String(emitted.destination)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[^?]+\?x=\[redacted\]&page=2$/);
	});
});
