/**
 * The chat page's attach button, in headless Chromium: a person picks a photo, a voice note or a
 * document in the browser's file chooser, and it arrives at the instance's webhook as the
 * contact's message, as the server delivers one (its messageType, its media message, the file
 * itself in `base64` when the webhook asks for it); Download Media gets the same bytes, and the
 * page shows the file in the contact's bubble.
 */
import { deflateSync } from 'node:zlib';

import type { Sandbox } from '../../sandbox/server';
import { call, chromiumSuite, launchChatBrowser, start, startReceiver, type ChatBrowser, type Receiver } from './helpers';

const FROM = '5511966665555';

/** A real PNG of `width` x `height` pixels (8-bit RGB, every pixel green), so the page can draw it. */
function png(width: number, height: number): Buffer {
	const crcTable = Array.from({ length: 256 }, (_, n) => {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		return c >>> 0;
	});
	const crc = (bytes: Buffer) => {
		let c = 0xffffffff;
		for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
		return (c ^ 0xffffffff) >>> 0;
	};
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
		const length = Buffer.alloc(4);
		length.writeUInt32BE(data.length);
		const sum = Buffer.alloc(4);
		sum.writeUInt32BE(crc(body));
		return Buffer.concat([length, body, sum]);
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 2, 0, 0, 0], 8);
	const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x25, 0xd3, 0x66]))])));
	return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

chromiumSuite('chat page: attach a photo, a voice note, a document as the contact (headless Chromium)', () => {
	let sb: Sandbox;
	let rx: Receiver;
	let chat: ChatBrowser;

	beforeAll(async () => {
		rx = await startReceiver();
		sb = await start({ dialect: 'v2', instances: [{ name: 'demo' }] });
		// As the trigger registers it: the file comes inside the event (webhookBase64).
		const hook = await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: `${rx.url}/hook`, base64: true, events: ['MESSAGES_UPSERT'] } });
		expect(hook.status).toBe(201);
		chat = await launchChatBrowser();
		await chat.open(sb, 'demo');
		await chat.page.fill('#from', FROM);
		await chat.page.fill('#pushName', 'Ana');
	});

	afterAll(async () => {
		await chat?.browser.close();
		await sb?.close();
		await rx?.close();
	});

	afterEach(() => {
		expect(chat.pageErrors).toEqual([]);
	});

	/** Opens the attach menu, takes `entry` and gives the file chooser `file`. */
	async function attach(entry: 'photo' | 'voice' | 'document', file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
		const { page } = chat;
		await page.click('#attach');
		const chooser = page.waitForEvent('filechooser');
		await page.click(`[data-testid="attach-${entry}"]`);
		await (await chooser).setFiles(file);
	}

	/** The MESSAGES_UPSERT the webhook received carrying `type`, once it arrived. */
	async function upsertWith(type: string) {
		for (let tries = 0; tries < 200; tries++) {
			const found = rx.received.find((r) => r.body?.event === 'messages.upsert' && r.body.data?.messageType === type);
			if (found) return found.body;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		throw new Error(`no delivery of a ${type}`);
	}

	test('a photo, with the typed text as its caption, reaches the webhook with its file; Download Media returns the same bytes; the bubble shows it', async () => {
		const { page } = chat;
		const photo = png(3, 2);
		await page.fill('#message', 'the receipt *today*');
		await attach('photo', { name: 'receipt.png', mimeType: 'image/png', buffer: photo });

		const upsert = await upsertWith('imageMessage');
		expect(upsert.instance).toBe('demo');
		expect(upsert.data.key).toMatchObject({ remoteJid: `${FROM}@s.whatsapp.net`, fromMe: false });
		expect(upsert.data.pushName).toBe('Ana');
		expect(upsert.data.message.imageMessage).toMatchObject({ mimetype: 'image/png', caption: 'the receipt *today*', fileLength: String(photo.length) });
		expect(upsert.data.message.base64).toBe(photo.toString('base64'));

		const download = await call(sb, '/chat/getBase64FromMediaMessage/demo', { message: { key: { id: upsert.data.key.id } } });
		expect(download.status).toBe(201);
		expect(download.body).toMatchObject({ mediaType: 'imageMessage', mimetype: 'image/png', base64: photo.toString('base64') });

		const bubble = page.locator(`.bubble.in[data-message-id="${upsert.data.key.id}"]`);
		await bubble.locator('.meta', { hasText: '✓ delivered' }).waitFor({ timeout: 10000 });
		expect(await bubble.getAttribute('data-kind')).toBe('image');
		const img = bubble.locator('img');
		type Drawn = { complete: boolean; naturalWidth: number; naturalHeight: number };
		await page.waitForFunction((el) => (el as unknown as Drawn).complete && (el as unknown as Drawn).naturalWidth > 0, await img.elementHandle());
		expect(await img.evaluate((el) => [(el as unknown as Drawn).naturalWidth, (el as unknown as Drawn).naturalHeight])).toEqual([3, 2]);
		expect(await bubble.locator('.content strong').innerText()).toBe('today');
		// The caption went with the photo: the composer is empty again.
		expect(await page.inputValue('#message')).toBe('');
	});

	test('a voice note (.ogg) arrives as the phone sends one: audio, ptt, Ogg/Opus, no caption; the typed text stays in the composer', async () => {
		const { page } = chat;
		const voice = Buffer.from('OggS\u0000\u0002 sandbox voice note bytes', 'latin1');
		await page.fill('#message', 'not a caption');
		await attach('voice', { name: 'note.ogg', mimeType: 'audio/ogg', buffer: voice });

		const upsert = await upsertWith('audioMessage');
		expect(upsert.data.message.audioMessage).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true, fileLength: String(voice.length) });
		expect(upsert.data.message.audioMessage.caption).toBeUndefined();
		expect(upsert.data.message.base64).toBe(voice.toString('base64'));
		const bubble = page.locator(`.bubble.in[data-message-id="${upsert.data.key.id}"]`);
		await bubble.locator('audio').waitFor({ state: 'attached', timeout: 10000 });
		expect(await page.inputValue('#message')).toBe('not a caption');
		await page.fill('#message', '');
	});

	test('a document arrives with its file name and type; the bubble links to the file', async () => {
		const { page } = chat;
		const pdf = Buffer.from('%PDF-1.4\n% sandbox invoice\n%%EOF\n');
		await attach('document', { name: 'invoice 7.pdf', mimeType: 'application/pdf', buffer: pdf });

		const upsert = await upsertWith('documentMessage');
		expect(upsert.data.message.documentMessage).toMatchObject({ mimetype: 'application/pdf', fileName: 'invoice 7.pdf', fileLength: String(pdf.length) });
		expect(upsert.data.message.base64).toBe(pdf.toString('base64'));
		const link = page.locator(`.bubble.in[data-message-id="${upsert.data.key.id}"] .file a`);
		await link.waitFor({ timeout: 10000 });
		expect(await link.innerText()).toBe('invoice 7.pdf');
		const served = await fetch(sb.url + String(await link.getAttribute('href')));
		expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
	});

	test('the menu closes on a click elsewhere and on Escape; an empty file is refused with a message, nothing is sent', async () => {
		const { page } = chat;
		await page.click('#attach');
		expect(await page.isVisible('#attach-menu')).toBe(true);
		await page.click('#messages');
		expect(await page.isVisible('#attach-menu')).toBe(false);
		await page.click('#attach');
		await page.keyboard.press('Escape');
		expect(await page.isVisible('#attach-menu')).toBe(false);
		const before = rx.received.length;
		await attach('document', { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) });
		await page.locator('#status', { hasText: 'empty.txt is empty' }).waitFor({ timeout: 5000 });
		expect(rx.received.length).toBe(before);
	});
});
