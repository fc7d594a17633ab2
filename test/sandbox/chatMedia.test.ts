/**
 * The chat page shows media both ways (v2 sandbox, headless Chromium as in chatPage.test.ts):
 * images and stickers load, video and audio get players, documents their names and a link to
 * the exact bytes, contacts a card, polls their options.
 */
import type { Sandbox } from '../../sandbox/server';
import { call, chromiumSuite, launchChatBrowser, start, type ChatBrowser } from './helpers';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\nsandbox chat page test\n%%EOF\n');
const n = '5511977770000';

chromiumSuite('chat page: media, contacts and polls (v2)', () => {
	let sb: Sandbox;
	let chat: ChatBrowser;
	let page: ChatBrowser['page'];
	let pageErrors: string[];

	beforeAll(async () => {
		sb = await start({ dialect: 'v2' });
		chat = await launchChatBrowser({ width: 1000, height: 1400 });
		({ page, pageErrors } = chat);
		await chat.open(sb, 'demo');
	});

	afterAll(async () => {
		await chat?.browser.close();
		await sb?.close();
	});

	it('incoming and outgoing media, a contact card and a poll', async () => {
		await sb.injectMessage('demo', { from: n, id: '3AINIMAGE', media: { kind: 'image', mimetype: 'image/png', base64: PNG.toString('base64'), caption: 'in photo' } });
		await sb.injectMessage('demo', { from: n, id: '3AINDOC', media: { kind: 'document', mimetype: 'application/pdf', base64: PDF.toString('base64'), fileName: 'in.pdf' } });
		await sb.injectMessage('demo', { from: n, id: '3AINVOICE', media: { kind: 'audio', mimetype: 'audio/ogg', base64: 'T2dnUw==' } });
		const sends: Array<[string, Record<string, unknown>]> = [
			['/message/sendMedia/demo', { number: n, mediatype: 'image', media: PNG.toString('base64'), caption: 'out photo' }],
			['/message/sendMedia/demo', { number: n, mediatype: 'document', mimetype: 'application/pdf', media: PDF.toString('base64'), fileName: 'report.pdf' }],
			['/message/sendMedia/demo', { number: n, mediatype: 'video', media: 'AAAAIGZ0eXBpc29t' }],
			['/message/sendWhatsAppAudio/demo', { number: n, audio: 'T2dnUw==' }],
			['/message/sendSticker/demo', { number: n, sticker: PNG.toString('base64') }],
			['/message/sendContact/demo', { number: n, contact: [{ fullName: 'Ana Lima', phoneNumber: '5511988887777', organization: 'ACME' }] }],
			['/message/sendPoll/demo', { number: n, name: 'Lunch?', selectableCount: 1, values: ['Pizza', 'Sushi'] }],
		];
		for (const [path, body] of sends) expect([path, (await call(sb, path, body)).status]).toEqual([path, 201]);
		await page.locator('.bubble.out[data-kind="poll"]').waitFor({ timeout: 10000 });

		const inImage = page.locator('.bubble.in[data-kind="image"] img');
		await inImage.waitFor();
		expect(await inImage.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
		expect(await page.locator('.bubble.in[data-kind="image"] .content').innerText()).toBe('in photo');
		expect(await page.locator('.bubble.in[data-kind="document"] .file a').innerText()).toBe('in.pdf');
		expect(await page.locator('.bubble.in[data-kind="audio"] audio').count()).toBe(1);

		const outImage = page.locator('.bubble.out[data-kind="image"] img');
		expect(await outImage.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
		expect(await page.locator('.bubble.out[data-kind="image"] .content').innerText()).toBe('out photo');
		const doc = page.locator('.bubble.out[data-kind="document"] .file a');
		expect(await doc.innerText()).toBe('report.pdf');
		const href = await doc.getAttribute('href');
		expect(Buffer.from(await (await fetch(sb.url + href)).arrayBuffer()).equals(PDF)).toBe(true);
		expect(await page.locator('.bubble.out[data-kind="video"] video').count()).toBe(1);
		expect(await page.locator('.bubble.out[data-kind="audio"] audio').count()).toBe(1);
		expect(await page.locator('.bubble.out[data-kind="sticker"] img.sticker').count()).toBe(1);
		expect((await page.locator('.bubble.out[data-kind="contact"] .contact').innerText()).replace(/\s+/g, ' ')).toBe('A Ana Lima 5511988887777 ACME');
		expect((await page.locator('.bubble.out[data-kind="poll"]').innerText()).replace(/\s+/g, ' ')).toMatch(/^📊 Lunch\? Select one option ○ Pizza ○ Sushi \d/);
		expect(pageErrors).toEqual([]);
	});
});
