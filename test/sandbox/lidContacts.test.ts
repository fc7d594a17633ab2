/**
 * Contacts known by LID: the key of their MESSAGES_UPSERT on each server release, and sends
 * to a `…@lid` JID (every release's numbers check counts a LID as existing).
 */
import { startSandbox, Sandbox } from '../../sandbox/server';
import type { ServerVersion } from '../../sandbox/versions';
import { call, startReceiver, Receiver } from './helpers';

const PHONE = '5511999990000@s.whatsapp.net';
const LID = '123456789012345@lid';
const GROUP = '120363000000000001@g.us';

let rx: Receiver;
beforeAll(async () => {
	rx = await startReceiver();
});
afterAll(async () => {
	await rx.close();
});

async function withVersion(version: ServerVersion, run: (sb: Sandbox) => Promise<void>): Promise<void> {
	const sb = await startSandbox({ dialect: 'v2', version, delivery: { attempts: 1, backoffMs: 1 } });
	try {
		const r = await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: rx.url, events: ['MESSAGES_UPSERT'] } });
		expect(r.status).toBe(201);
		await run(sb);
	} finally {
		await sb.close();
	}
}

describe('the key of a direct message from a contact known by LID', () => {
	it.each([
		['2.3.6', { remoteJid: LID, remoteJidAlt: PHONE, addressingMode: 'lid' }],
		['2.3.7', { remoteJid: PHONE, remoteJidAlt: PHONE, addressingMode: 'lid' }],
		['2.4.0', { remoteJid: PHONE, remoteJidAlt: LID, addressingMode: 'pn' }],
	] as const)('%s', async (version, address) => {
		await withVersion(version, async (sb) => {
			const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'hi', lid: LID, id: 'M1' });
			expect(d?.body.data.key).toEqual({ ...address, fromMe: false, id: 'M1' });
			expect(rx.received.at(-1)?.body.data.key).toEqual({ ...address, fromMe: false, id: 'M1' });
			expect(sb.chat.at(-1)?.chat).toBe(address.remoteJid);
		});
	});

	it.each(['2.3.6', '2.3.7', '2.4.0'] as const)('%s: a LID-only contact keeps the LID in remoteJid, no Alt', async (version) => {
		await withVersion(version, async (sb) => {
			const d = await sb.injectMessage('demo', { from: LID, text: 'hi', id: 'M2' });
			expect(d?.body.data.key).toEqual({ remoteJid: LID, fromMe: false, id: 'M2', addressingMode: 'lid' });
		});
	});

	it.each(['2.3.6', '2.3.7', '2.4.0'] as const)('%s: a contact without a LID is as before', async (version) => {
		await withVersion(version, async (sb) => {
			const d = await sb.injectMessage('demo', { from: '5511999990000', text: 'hi', id: 'M3' });
			expect(d?.body.data.key).toEqual({ remoteJid: PHONE, fromMe: false, id: 'M3' });
		});
	});

	it('POST /_sandbox/messages takes the lid', async () => {
		await withVersion('2.3.6', async (sb) => {
			const res = await fetch(`${sb.url}/_sandbox/messages`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ instance: 'demo', from: '5511999990000', text: 'hi', lid: LID, id: 'M4' }),
			});
			expect(res.status).toBe(200);
			expect(rx.received.at(-1)?.body.data.key).toEqual({ remoteJid: LID, remoteJidAlt: PHONE, addressingMode: 'lid', fromMe: false, id: 'M4' });
		});
	});
});

describe('group messages from a LID author (every release)', () => {
	it.each(['2.3.6', '2.3.7', '2.4.0'] as const)('%s', async (version) => {
		await withVersion(version, async (sb) => {
			const lidMode = await sb.injectMessage('demo', { from: '5511999990000', group: GROUP, text: 'hi', lid: LID, id: 'G1' });
			expect(lidMode?.body.data.key).toEqual({ remoteJid: GROUP, fromMe: false, id: 'G1', participant: LID, participantAlt: PHONE, addressingMode: 'lid' });
			const pnMode = await sb.injectMessage('demo', { from: '5511999990000', group: GROUP, text: 'hi', lid: LID, groupAddressing: 'pn', id: 'G2' });
			expect(pnMode?.body.data.key).toEqual({ remoteJid: GROUP, fromMe: false, id: 'G2', participant: PHONE, participantAlt: LID, addressingMode: 'pn' });
			const plain = await sb.injectMessage('demo', { from: '5511999990000', group: GROUP, text: 'hi', id: 'G3' });
			expect(plain?.body.data.key).toEqual({ remoteJid: GROUP, fromMe: false, id: 'G3', participant: PHONE });
		});
	});
});

describe('sending to a …@lid JID', () => {
	it.each(['2.3.6', '2.3.7', '2.4.0'] as const)('%s accepts it (the numbers check counts a LID as existing)', async (version) => {
		await withVersion(version, async (sb) => {
			const r = await call(sb, '/message/sendText/demo', { number: LID, text: 'reply' });
			expect(r.status).toBe(201);
			expect(r.body.key.remoteJid).toBe(LID);
			const check = await call(sb, '/chat/whatsappNumbers/demo', { numbers: [LID, '5511999990000'] });
			expect(check.status).toBe(200);
			expect(check.body).toEqual([
				{ exists: true, jid: LID, number: LID, lid: 'lid' },
				{ exists: true, jid: PHONE, number: '5511999990000' },
			]);
		});
	});
});
