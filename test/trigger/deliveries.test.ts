import type { INodeParameters } from 'n8n-workflow';

import type { Dialect } from '../../sandbox/server';
import { expectNoSecrets, INSTANCE, secretOf, setup, TOKEN, type Setup } from './helpers';

const PNG =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4 sandbox').toString('base64');
const FROM = '5511999990000';
const GROUP = '120363025246125486@g.us';

describe.each<Dialect>(['documented', 'v2'])('trigger deliveries (%s)', (dialect) => {
	let s: Setup;
	const start = async (parameters: INodeParameters = {}): Promise<Setup> => {
		s = await setup(dialect, parameters);
		await s.harness.activate();
		return s;
	};
	afterEach(async () => {
		await s.close();
	});
	const secrets = (): string[] => [secretOf(s), s.sandbox.apiKey, TOKEN];

	it('emits one simplified item for a text message, with the raw event minus secrets', async () => {
		const { sandbox, harness } = await start();
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'hello there', pushName: 'Ana', id: `${dialect}-MSG1` });
		// Answered by n8n with the node's webhookResponse (the description's responseData is empty; n8n's default would be the text "firstEntryJson").
		expect(delivery?.attempts).toEqual([{ status: 200, responseBody: JSON.stringify({ received: true }) }]);
		expect(harness.emitted).toHaveLength(1);
		const { json, binary } = harness.emitted[0];
		expect(binary).toBeUndefined();
		expect(json).toEqual({
			event: 'messages.upsert',
			instance: INSTANCE,
			chatId: `${FROM}@s.whatsapp.net`,
			remoteJid: `${FROM}@s.whatsapp.net`,
			sender: `${FROM}@s.whatsapp.net`,
			senderLid: null,
			fromMe: false,
			messageId: `${dialect}-MSG1`,
			pushName: 'Ana',
			messageType: 'conversation',
			text: 'hello there',
			textFrom: 'message',
			sentBy: 'contact',
			isGroup: false,
			timestamp: new Date((delivery?.body.data.messageTimestamp as number) * 1000).toISOString(),
			dedupeKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
			caughtUp: false,
			raw: {
				event: 'messages.upsert',
				instance: INSTANCE,
				data: delivery?.body.data,
				destination: harness.productionUrl(),
				date_time: delivery?.body.date_time,
				sender: delivery?.body.sender,
				server_url: sandbox.url,
			},
		});
		expectNoSecrets(harness.emitted, secrets());
		if (dialect === 'v2') expect(delivery?.headers['x-messaging-instance-secret']).toBe(secretOf(s));
	});

	it('raw output is the envelope without the instance token and the secret', async () => {
		const { sandbox, harness } = await start({ options: { outputFormat: 'raw' } });
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'raw please' });
		const { apikey: _token, ...rest } = delivery?.body as Record<string, unknown>;
		expect(harness.emitted.map((item) => item.json)).toEqual([{ ...rest, destination: harness.productionUrl(), dedupeKey: expect.any(String), caughtUp: false }]);
		expectNoSecrets(harness.emitted, secrets());
	});

	it('turns media sent as base64 into binary data with its MIME type and file name', async () => {
		const { sandbox, harness } = await start({ options: { mediaAsBinary: true } });
		expect(sandbox.webhookOf(INSTANCE)?.base64).toBe(true);
		await sandbox.injectMessage(INSTANCE, {
			from: FROM,
			id: `${dialect}-IMG1`,
			media: { kind: 'image', mimetype: 'image/png', base64: PNG, caption: 'a photo' },
		});
		await sandbox.injectMessage(INSTANCE, {
			from: FROM,
			id: `${dialect}-DOC1`,
			media: { kind: 'document', mimetype: 'application/pdf', base64: PDF, fileName: 'report.pdf' },
		});
		expect(harness.emitted).toHaveLength(2);
		const [image, document] = harness.emitted;
		expect(image.json).toMatchObject({ messageType: 'imageMessage', text: 'a photo', media: { kind: 'image', mimeType: 'image/png' } });
		expect(image.binary?.data).toMatchObject({ mimeType: 'image/png', fileName: `${dialect}-IMG1.png`, fileExtension: 'png', data: PNG });
		expect(document.json).toMatchObject({ messageType: 'documentMessage', media: { kind: 'document', fileName: 'report.pdf' } });
		expect(document.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: 'report.pdf', data: PDF });
		// The file is in the binary data only, not a second time in the JSON.
		for (const item of harness.emitted) {
			expect((item.json.raw as { data: { message: Record<string, unknown> } }).data.message.base64).toBeUndefined();
			expect(JSON.stringify(item.json)).not.toContain(PNG.slice(0, 40));
		}
		expectNoSecrets(harness.emitted, secrets());
	});

	it('emits CONNECTION_UPDATE and QRCODE_UPDATED as clean items', async () => {
		const { sandbox, harness } = await start({ events: ['CONNECTION_UPDATE', 'QRCODE_UPDATED'] });
		await sandbox.injectConnectionUpdate(INSTANCE, 'open');
		await sandbox.injectQrCode(INSTANCE);
		expect(harness.emitted).toHaveLength(2);
		const [connection, qr] = harness.emitted.map((item) => item.json);
		expect(connection).toMatchObject({
			event: 'connection.update',
			instance: INSTANCE,
			state: 'open',
			statusReason: 200,
			wuid: expect.stringContaining('@s.whatsapp.net'),
			raw: { event: 'connection.update', data: { state: 'open' } },
		});
		expect(qr).toMatchObject({
			event: 'qrcode.updated',
			instance: INSTANCE,
			qrcode: { instance: INSTANCE, code: expect.any(String), base64: expect.stringMatching(/^data:image\/png;base64,/) },
		});
		expectNoSecrets(harness.emitted, secrets());
	});

	it('answers 401 and emits nothing for a missing or wrong secret', async () => {
		const { sandbox, harness } = await start();
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'genuine' });
		const body = JSON.stringify(delivery?.body);
		const secret = secretOf(s);
		const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
		const attempts = [
			await harness.post('production', body),
			await harness.post('production', body, { query: { secret: wrong } }),
			await harness.post('production', body, { query: { secret: '' } }),
			await harness.post('production', body, { headers: { 'x-messaging-instance-secret': wrong } }),
			// A right copy does not excuse a wrong one.
			await harness.post('production', body, { query: { secret }, headers: { 'x-messaging-instance-secret': wrong } }),
		];
		expect(attempts.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
		expect(attempts[0].body).toEqual({ message: 'Unauthorized' });
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['genuine']);
	});

	it('accepts the secret in the v2 header alone', async () => {
		const { sandbox, harness } = await start();
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'first', id: `${dialect}-H1` });
		const body = JSON.stringify({ ...delivery?.body, data: { ...delivery?.body.data, key: { ...delivery?.body.data.key, id: `${dialect}-H2` } } });
		const answer = await harness.post('production', body, { headers: { 'x-messaging-instance-secret': secretOf(s) } });
		expect(answer.status).toBe(200);
		expect(harness.emitted.map((item) => item.json.messageId)).toEqual([`${dialect}-H1`, `${dialect}-H2`]);
	});

	it('acknowledges and drops an event of another instance or of an event type not chosen', async () => {
		const { sandbox, harness } = await start();
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'mine', id: `${dialect}-M1` });
		const query = { secret: secretOf(s) };
		const other = await harness.post('production', JSON.stringify({ ...delivery?.body, instance: 'other', data: { ...delivery?.body.data, key: { ...delivery?.body.data.key, id: `${dialect}-M2` } } }), { query });
		const notChosen = await harness.post(
			'production',
			JSON.stringify({ ...delivery?.body, event: 'connection.update', data: { instance: INSTANCE, state: 'close', statusReason: 428 } }),
			{ query },
		);
		expect([other.status, notChosen.status]).toEqual([200, 200]);
		expect(other.body).toEqual({ received: true, ignored: 'another instance' });
		expect(notChosen.body).toEqual({ received: true, ignored: 'event not chosen' });
		expect(harness.emitted.map((item) => item.json.messageId)).toEqual([`${dialect}-M1`]);
	});

	it('answers 400 and emits nothing for a malformed body', async () => {
		const { harness } = await start();
		const query = { secret: secretOf(s) };
		const bodies = [
			'[]',
			'"text"',
			'{}',
			JSON.stringify({ event: 'messages.upsert', instance: INSTANCE }),
			JSON.stringify({ event: '', instance: INSTANCE, data: {} }),
			JSON.stringify({ event: 'messages.upsert', instance: INSTANCE, data: 'nope' }),
		];
		const answers = [];
		for (const body of bodies) answers.push(await harness.post('production', body, { query }));
		expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400, 400]);
		expect(answers[0].body).toEqual({ message: 'Expected a JSON object with "event", "instance" and "data"' });
		expect(harness.emitted).toHaveLength(0);
	});

	it('emits a redelivered message only once', async () => {
		const { sandbox, harness } = await start();
		const delivery = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'once' });
		if (!delivery) throw new Error('not delivered');
		const again = await sandbox.redeliver(delivery);
		expect(again.attempts).toEqual([{ status: 200, responseBody: JSON.stringify({ received: true, ignored: 'duplicate' }) }]);
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['once']);
		// A repeated connection update (no message id) is recognised by its whole body.
		harness.setParameters({ instance: INSTANCE, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'], options: {} });
		await harness.restart();
		const update = await sandbox.injectConnectionUpdate(INSTANCE, 'close');
		if (!update) throw new Error('not delivered');
		await sandbox.redeliver(update);
		expect(harness.emitted.map((item) => item.json.event)).toEqual(['messages.upsert', 'connection.update']);
	});

	it('ignores own messages and group chats when asked to', async () => {
		const { sandbox, harness } = await start({ options: { ignoreOwnMessages: true, ignoreGroups: true } });
		const own = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'from me', fromMe: true });
		const group = await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'in a group', group: GROUP });
		await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'direct' });
		expect(own?.attempts[0].responseBody).toBe(JSON.stringify({ received: true, ignored: 'own message' }));
		expect(group?.attempts[0].responseBody).toBe(JSON.stringify({ received: true, ignored: 'group chat' }));
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['direct']);
	});

	it('emits own messages and group chats when the ignore options are off, with the participant as sender', async () => {
		const { sandbox, harness } = await start({ options: { ignoreOwnMessages: false, ignoreGroups: false } });
		await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'from me', fromMe: true });
		await sandbox.injectMessage(INSTANCE, { from: FROM, text: 'in a group', group: GROUP, pushName: 'Bea' });
		expect(harness.emitted.map((item) => item.json)).toEqual([
			expect.objectContaining({ text: 'from me', fromMe: true, isGroup: false }),
			expect.objectContaining({ text: 'in a group', chatId: GROUP, sender: `${FROM}@s.whatsapp.net`, isGroup: true, pushName: 'Bea' }),
		]);
	});
});
