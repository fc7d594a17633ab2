/**
 * 2.4's `messageId` on sendText, sendMedia, sendPtv, sendSticker and sendPoll: it becomes the
 * sent message's `key.id`, is stored (Find Messages `where.key.id` finds it) and is not
 * deduplicated; other routes and 2.3.x ignore it. `GET /baileys/generateMessageID` hands out one.
 */
import { TINY_PNG_BASE64 } from '../../sandbox/messages';
import { call, withVersion } from './helpers';


const TO = '5511999990000';
const sends: Array<[string, Record<string, unknown>]> = [
	['/message/sendText/demo', { number: TO, text: 'hi' }],
	['/message/sendMedia/demo', { number: TO, mediatype: 'image', media: TINY_PNG_BASE64 }],
	['/message/sendPtv/demo', { number: TO, video: TINY_PNG_BASE64 }],
	['/message/sendSticker/demo', { number: TO, sticker: TINY_PNG_BASE64 }],
	['/message/sendPoll/demo', { number: TO, name: 'Q', selectableCount: 1, values: ['a', 'b'] }],
];

describe('messageId on 2.4', () => {
	it.each(sends)('%s sends with the chosen id', async (path, body) => {
		await withVersion('2.4.0', async (sb) => {
			const r = await call(sb, path, { ...body, messageId: 'MYID0001' });
			expect(r.status).toBe(201);
			expect(r.body.key).toEqual({ remoteJid: `${TO}@s.whatsapp.net`, fromMe: true, id: 'MYID0001' });
		});
	});

	it('a resend with the same id is sent and stored again; Find Messages by key.id finds both', async () => {
		await withVersion('2.4.0', async (sb) => {
			const first = await call(sb, '/message/sendText/demo', { number: TO, text: 'hi', messageId: 'SAMEID' });
			const second = await call(sb, '/message/sendText/demo', { number: TO, text: 'hi', messageId: 'SAMEID' });
			expect([first.status, second.status]).toEqual([201, 201]);
			expect(sb.chat.filter((e) => e.messageId === 'SAMEID')).toHaveLength(2);
			const found = await call(sb, '/chat/findMessages/demo', { where: { key: { id: 'SAMEID' } } });
			expect(found.status).toBe(200);
			expect(found.body.messages.total).toBe(2);
			expect(found.body.messages.records.map((m: { key: { id: string } }) => m.key.id)).toEqual(['SAMEID', 'SAMEID']);
			const none = await call(sb, '/chat/findMessages/demo', { where: { key: { id: 'OTHER' } } });
			expect(none.body.messages.total).toBe(0);
		});
	});

	it('other sends ignore it', async () => {
		await withVersion('2.4.0', async (sb) => {
			const r = await call(sb, '/message/sendLocation/demo', { number: TO, name: 'x', address: 'y', latitude: 1, longitude: 2, messageId: 'MYID0002' });
			expect(r.status).toBe(201);
			expect(r.body.key.id).toMatch(/^3EB0[0-9A-F]{18}$/);
		});
	});

	it('GET /baileys/generateMessageID answers a fresh id', async () => {
		await withVersion('2.4.0', async (sb) => {
			const a = await call(sb, '/baileys/generateMessageID/demo', undefined, { method: 'GET' });
			const b = await call(sb, '/baileys/generateMessageID/demo', undefined, { method: 'GET' });
			expect(a.status).toBe(200);
			expect(a.body).toEqual({ id: expect.stringMatching(/^3EB0[0-9A-F]{18}$/) });
			expect(b.body.id).not.toBe(a.body.id);
			expect((await call(sb, '/baileys/generateMessageID/demo', undefined, { method: 'GET', key: 'wrong' })).status).toBe(401);
		});
	});
});

describe.each(['2.3.6', '2.3.7'] as const)('%s', (version) => {
	it.each(sends)('%s ignores messageId', async (path, body) => {
		await withVersion(version, async (sb) => {
			const r = await call(sb, path, { ...body, messageId: 'MYID0001' });
			expect(r.status).toBe(201);
			expect(r.body.key.id).toMatch(/^3EB0[0-9A-F]{18}$/);
		});
	});

	it('has no GET /baileys/generateMessageID', async () => {
		await withVersion(version, async (sb) => {
			const r = await call(sb, '/baileys/generateMessageID/demo', undefined, { method: 'GET' });
			expect(r.status).toBe(404);
			expect(r.body).toEqual({ status: 404, error: 'Not Found', response: { message: ['Cannot GET /baileys/generateMessageID/demo'] } });
		});
	});
});
