/**
 * The chat page and account management (v2 sandbox, headless Chromium): a connecting
 * instance offers "Scan QR code", which turns it open as the phone would; read marks show
 * blue ticks on the message, and a message deleted for everyone says so.
 */
import type { Sandbox } from '../../sandbox/server';
import { call, chromiumSuite, launchChatBrowser, start, type ChatBrowser } from './helpers';

chromiumSuite('chat page: scan, read marks and deletions (v2)', () => {
	let sb: Sandbox;
	let chat: ChatBrowser;

	beforeAll(async () => {
		sb = await start({ dialect: 'v2' });
		chat = await launchChatBrowser({ width: 1000, height: 900 });
	});

	afterAll(async () => {
		await chat?.browser.close();
		await sb?.close();
	});

	it('a connecting instance shows "Scan QR code"; pressing it connects the instance', async () => {
		expect((await call(sb, '/instance/create', { instanceName: 'shop', qrcode: true, integration: 'WHATSAPP-BAILEYS' })).status).toBe(201);
		const { page } = chat;
		await chat.open(sb, 'shop');
		await page.locator('#scan:not([hidden])').waitFor({ timeout: 10000 });
		await page.click('#scan');
		await page.locator('#status', { hasText: 'shop connected' }).waitFor({ timeout: 10000 });
		const state = await call(sb, '/instance/connectionState/shop', undefined, { method: 'GET' });
		expect(state.body).toEqual({ instance: { instanceName: 'shop', state: 'open' } });
		await page.locator('#scan[hidden]').waitFor({ state: 'attached', timeout: 10000 });
	});

	it('Mark as Read puts blue ticks on the message; Delete replaces it', async () => {
		const { page } = chat;
		await chat.open(sb, 'demo');
		await sb.injectMessage('demo', { from: '5511977770000', id: '3AREADME', text: 'please read me' });
		await sb.injectMessage('demo', { from: '5511977770000', id: '3ADELETEME', text: 'delete me' });
		await page.locator('.bubble[data-message-id="3AREADME"]').waitFor({ timeout: 10000 });
		await call(sb, '/chat/markMessageAsRead/demo', { readMessages: [{ remoteJid: '5511977770000@s.whatsapp.net', fromMe: false, id: '3AREADME' }] });
		await call(sb, '/chat/deleteMessageForEveryone/demo', { id: '3ADELETEME', fromMe: false, remoteJid: '5511977770000@s.whatsapp.net' }, { method: 'DELETE' });
		await page.locator('.bubble.read[data-message-id="3AREADME"] .ticks').waitFor({ timeout: 10000 });
		await page.locator('.bubble.deleted[data-message-id="3ADELETEME"] .content', { hasText: 'This message was deleted' }).waitFor({ timeout: 10000 });
		await page.locator('.bubble.notice', { hasText: 'marked “please read me” as read' }).waitFor({ timeout: 10000 });
		expect(chat.pageErrors).toEqual([]);
		if (process.env.CHAT_SCREENSHOT) await page.screenshot({ path: process.env.CHAT_SCREENSHOT });
	});
});
