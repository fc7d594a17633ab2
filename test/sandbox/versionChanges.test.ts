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
