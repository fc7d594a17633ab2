/**
 * What 2.3.7 and 2.4 changed in routes 2.3.6 already had, as the sandbox plays each release.
 */
import type { Sandbox } from '../../sandbox/server';
import { TINY_PNG_BASE64 } from '../../sandbox/messages';
import { call, service, validation, withVersion } from './helpers';


const TO = '5511999990000';

describe('the mention-everyone flag', () => {
	it.each(['2.3.6', '2.3.7'] as const)('%s checks everyOne, not mentionsEveryOne', async (version) => {
		await withVersion(version, async (sb) => {
			expect((await call(sb, '/message/sendText/demo', { number: TO, text: 'hi', everyOne: 'yes' })).body).toEqual(validation('everyOne is not of a type(s) boolean'));
			expect((await call(sb, '/message/sendText/demo', { number: TO, text: 'hi', mentionsEveryOne: 'yes' })).status).toBe(201);
		});
	});

	it('2.4 checks mentionsEveryOne, not everyOne (sendCarousel still checks everyOne)', async () => {
		await withVersion('2.4.0', async (sb) => {
			expect((await call(sb, '/message/sendText/demo', { number: TO, text: 'hi', mentionsEveryOne: 'yes' })).body).toEqual(
				validation('mentionsEveryOne is not of a type(s) boolean'),
			);
			expect((await call(sb, '/message/sendText/demo', { number: TO, text: 'hi', everyOne: 'yes' })).status).toBe(201);
			const carousel = { number: TO, body: 'b', cards: [{ body: 'c', buttons: [{ type: 'reply', displayText: 'x', id: 'x' }] }] };
			expect((await call(sb, '/message/sendCarousel/demo', { ...carousel, everyOne: 'yes' })).body).toEqual(validation('everyOne is not of a type(s) boolean'));
			expect((await call(sb, '/message/sendCarousel/demo', { ...carousel, mentionsEveryOne: 'yes' })).status).toBe(201);
		});
	});
});

describe('sendMedia gifPlayback / gifAttribution', () => {
	const video = { number: TO, mediatype: 'video', media: TINY_PNG_BASE64 };
	it('2.4 checks them', async () => {
		await withVersion('2.4.0', async (sb) => {
			for (const ok of [{ gifPlayback: true }, { gifPlayback: 'false' }, { gifAttribution: 2 }, { gifAttribution: '1' }]) {
				expect((await call(sb, '/message/sendMedia/demo', { ...video, ...ok })).status).toBe(201);
			}
			expect((await call(sb, '/message/sendMedia/demo', { ...video, gifPlayback: 'yes' })).body).toEqual(
				validation('gifPlayback is not exactly one from [subschema 0],[subschema 1]'),
			);
			expect((await call(sb, '/message/sendMedia/demo', { ...video, gifAttribution: 3 })).body).toEqual(
				validation('gifAttribution is not exactly one from [subschema 0],[subschema 1]'),
			);
		});
	});

	it('2.3.7 ignores them', async () => {
		await withVersion('2.3.7', async (sb) => {
			expect((await call(sb, '/message/sendMedia/demo', { ...video, gifPlayback: 'yes', gifAttribution: 3 })).status).toBe(201);
		});
	});
});

describe('Send Buttons', () => {
	const url = (n: number) => ({ type: 'url', displayText: `u${n}`, url: `https://example.com/${n}` });
	const body = (buttons: unknown[]) => ({ number: TO, title: 't', description: 'd', buttons });
	it('2.4 allows at most 2 url/call/copy buttons and names them when mixed with replies', async () => {
		await withVersion('2.4.0', async (sb) => {
			expect((await call(sb, '/message/sendButtons/demo', body([url(1), url(2)]))).status).toBe(201);
			expect((await call(sb, '/message/sendButtons/demo', body([url(1), url(2), url(3)]))).body).toEqual(service('Maximum of 2 CTA buttons allowed'));
			expect((await call(sb, '/message/sendButtons/demo', body([{ type: 'reply', displayText: 'r', id: 'r' }, url(1)]))).body).toEqual(
				service('Reply buttons cannot be mixed with CTA or PIX buttons'),
			);
		});
	});

	it('2.3.7 takes 3 url buttons', async () => {
		await withVersion('2.3.7', async (sb) => {
			expect((await call(sb, '/message/sendButtons/demo', body([url(1), url(2), url(3)]))).status).toBe(201);
			expect((await call(sb, '/message/sendButtons/demo', body([{ type: 'reply', displayText: 'r', id: 'r' }, url(1)]))).body).toEqual(
				service('Reply buttons cannot be mixed with other button types'),
			);
		});
	});
});

describe('Logout of a closed instance', () => {
	it('2.4 answers 200 SUCCESS', async () => {
		await withVersion('2.4.0', async (sb) => {
			expect((await call(sb, '/instance/logout/demo', undefined, { method: 'DELETE' })).status).toBe(200);
			const again = await call(sb, '/instance/logout/demo', undefined, { method: 'DELETE' });
			expect(again.status).toBe(200);
			expect(again.body).toEqual({ status: 'SUCCESS', error: false, response: { message: 'Instance was already disconnected' } });
		});
	});

	it('2.3.7 answers 400 not connected', async () => {
		await withVersion('2.3.7', async (sb) => {
			expect((await call(sb, '/instance/logout/demo', undefined, { method: 'DELETE' })).status).toBe(200);
			const again = await call(sb, '/instance/logout/demo', undefined, { method: 'DELETE' });
			expect(again.status).toBe(400);
			expect(again.body).toEqual(service('The "demo" instance is not connected'));
		});
	});
});

describe('webhook events', () => {
	const set = (sb: Sandbox) => call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: 'http://127.0.0.1:9/x', events: ['MESSAGING_HISTORY_SET'] } });
	it('2.4 takes MESSAGING_HISTORY_SET', async () => {
		await withVersion('2.4.0', async (sb) => {
			const r = await set(sb);
			expect(r.status).toBe(201);
			expect(r.body.events).toEqual(['MESSAGING_HISTORY_SET']);
		});
	});

	it('2.3.7 refuses it', async () => {
		await withVersion('2.3.7', async (sb) => {
			const r = await set(sb);
			expect(r.status).toBe(400);
			expect(r.body.response.message[0][0]).toMatch(/^webhook\.events\[0\] is not one of enum values: .*STATUS_INSTANCE$/);
			expect(r.body.response.message[0][0]).not.toContain('MESSAGING_HISTORY_SET');
		});
	});
});

describe('Find Contacts with where.remoteJid ""', () => {
	it('2.3.6 takes it as no filter', async () => {
		await withVersion('2.3.6', async (sb) => {
			const r = await call(sb, '/chat/findContacts/demo', { where: { remoteJid: '' } });
			expect(r.status).toBe(200);
			expect(Array.isArray(r.body)).toBe(true);
		});
	});

	it.each(['2.3.7', '2.4.0'] as const)('%s refuses it', async (version) => {
		await withVersion(version, async (sb) => {
			expect((await call(sb, '/chat/findContacts/demo', { where: { remoteJid: '' } })).body).toEqual(validation('where.remoteJid does not meet minimum length of 1'));
		});
	});
});

describe('Find Messages on a contact known by LID: the stored key is Baileys\' (LID in remoteJid, phone in remoteJidAlt) on every release', () => {
	const PHONE = '5511944440001@s.whatsapp.net';
	const LID = '123456789012345@lid';
	async function find(sb: Sandbox, key: Record<string, unknown>): Promise<Array<{ key: Record<string, unknown> }>> {
		const answer = await call(sb, '/chat/findMessages/demo', { where: { key } });
		expect(answer.status).toBe(200);
		return (answer.body as { messages: { records: Array<{ key: Record<string, unknown> }> } }).messages.records;
	}
	async function seed(sb: Sandbox): Promise<void> {
		await sb.injectMessage('demo', { from: PHONE, lid: LID, id: '3AFROMLID', text: 'from the LID contact' });
		expect((await call(sb, '/message/sendText/demo', { number: PHONE, text: 'to the phone' })).status).toBe(201);
	}

	it.each(['2.3.6', '2.3.7', '2.4.0'] as const)('%s: the incoming message is stored under the LID, the reply under the phone JID; key.remoteJid alone matches key.remoteJid only', async (version) => {
		await withVersion(version, async (sb) => {
			await seed(sb);
			const all = await find(sb, {});
			expect(all.map((r) => [r.key.id === '3AFROMLID' ? 'in' : 'out', r.key.remoteJid, r.key.remoteJidAlt])).toEqual([
				['out', PHONE, undefined],
				['in', LID, PHONE],
			]);
			expect((await find(sb, { remoteJid: PHONE })).map((r) => r.key.remoteJid)).toEqual([PHONE]);
			expect((await find(sb, { remoteJid: LID })).map((r) => r.key.id)).toEqual(['3AFROMLID']);
			// key.remoteJidAlt alone: the OR's other branch is empty and dropped
			expect((await find(sb, { remoteJidAlt: PHONE })).map((r) => r.key.id)).toEqual(['3AFROMLID']);
		});
	});

	it.each(['2.3.7', '2.4.0'] as const)('%s ORs key.remoteJid with key.remoteJidAlt: both set to the phone JID find the whole conversation', async (version) => {
		await withVersion(version, async (sb) => {
			await seed(sb);
			expect((await find(sb, { remoteJid: PHONE, remoteJidAlt: PHONE })).map((r) => r.key.remoteJid)).toEqual([PHONE, LID]);
		});
	});

	it('2.3.6 also requires key.remoteJid on its own: both set to the phone JID find the reply only', async () => {
		await withVersion('2.3.6', async (sb) => {
			await seed(sb);
			expect((await find(sb, { remoteJid: PHONE, remoteJidAlt: PHONE })).map((r) => r.key.remoteJid)).toEqual([PHONE]);
		});
	});
});

describe('Download Media of a message without a file', () => {
	const download = (sb: Sandbox, id: string) => call(sb, '/chat/getBase64FromMediaMessage/demo', { message: { key: { id } }, convertToMp4: false });

	it.each(['2.3.6', '2.3.7', '2.4.0'] as const)('%s: a text message is refused "not of the media type"; an unknown id "not found"', async (version) => {
		await withVersion(version, async (sb) => {
			await sb.injectMessage('demo', { from: TO, id: '3ATEXT', text: 'just words' });
			expect(await download(sb, '3ATEXT')).toMatchObject({ status: 400, body: service('The message is not of the media type') });
			expect(await download(sb, '3ANOPE')).toMatchObject({ status: 400, body: service('Message not found') });
		});
	});

	it('2.3.6 refuses a message with only messageContextInfo', async () => {
		await withVersion('2.3.6', async (sb) => {
			await sb.injectMessage('demo', { from: TO, id: '3ACTXONLY', contextInfoOnly: true });
			expect(await download(sb, '3ACTXONLY')).toMatchObject({ status: 400, body: service('The message is messageContextInfo') });
		});
	});

	it.each(['2.3.7', '2.4.0'] as const)('%s answers 201 with a body of null for a message with only messageContextInfo', async (version) => {
		await withVersion(version, async (sb) => {
			await sb.injectMessage('demo', { from: TO, id: '3ACTXONLY', contextInfoOnly: true });
			const answer = await download(sb, '3ACTXONLY');
			expect([answer.status, answer.text]).toEqual([201, 'null']);
			const found = await call(sb, '/chat/findMessages/demo', { where: { key: { id: '3ACTXONLY' } } });
			expect((found.body as { messages: { records: unknown[] } }).messages.records).toEqual([
				expect.objectContaining({ messageType: 'unknown', message: { messageContextInfo: expect.any(Object) } }),
			]);
		});
	});
});
