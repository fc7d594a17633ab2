/**
 * The chat page's "As the phone's owner": what is typed goes to the contact's chat as the
 * account's owner wrote it on the phone (a fromMe upsert with an iPhone's message id, stored
 * with `source: ios`), the way a person takes a chat over from the bot.
 */
import type { Browser, Page } from 'playwright-core';
import type { Sandbox } from '../../sandbox/server';
import { call, start, startReceiver, Receiver } from './helpers';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium';
import { chromiumSuite, haveChromium } from './chromiumSuite';

const suite = chromiumSuite('test/sandbox/chatPageOwner.test.ts');

suite("chat page: writing as the phone's owner", () => {
	let sb: Sandbox;
	let rx: Receiver;
	let browser: Browser;
	let page: Page;
	const pageErrors: string[] = [];

	beforeAll(async () => {
		if (!haveChromium) throw new Error(`CI=true and ${CHROMIUM} is missing: run .ci/chromium.sh before the tests`);
		rx = await startReceiver();
		sb = await start({ dialect: 'v2', instances: [{ name: 'demo' }] });
		await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: `${rx.url}/hook`, events: ['MESSAGES_UPSERT'] } });
		const { chromium } = await import('playwright-core');
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
		page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
		page.on('pageerror', (e) => pageErrors.push(e.message));
		await page.goto(`${sb.url}/chat?instance=demo`);
		await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10000 });
	});

	afterAll(async () => {
		await browser?.close();
		await sb?.close();
		await rx?.close();
	});

	it("the owner's message reaches the webhook as fromMe in the contact's chat, with a phone's id, and is stored as the phone's", async () => {
		await page.fill('#from', '5511966660000');
		await page.check('[data-testid="from-me"]');
		await page.fill('#message', 'Hi, I am taking over');
		await page.click('#send');

		const bubble = page.locator('.bubble.in', { hasText: 'Hi, I am taking over' });
		await bubble.waitFor({ timeout: 10000 });
		expect(await bubble.locator('.who').innerText()).toContain("the phone's owner");
		const id = await bubble.getAttribute('data-message-id');
		expect(id).toMatch(/^3A[0-9A-F]{18}$/);

		const upsert = rx.received.find((r) => r.body?.event === 'messages.upsert');
		expect(upsert?.body.data).toMatchObject({ key: { remoteJid: '5511966660000@s.whatsapp.net', fromMe: true, id }, pushName: 'Você', source: 'ios', message: { conversation: 'Hi, I am taking over' } });
		const stored = await call(sb, '/chat/findMessages/demo', { where: { key: { id: id as string } } });
		expect(stored.body.messages.records).toEqual([expect.objectContaining({ key: expect.objectContaining({ fromMe: true, id }), source: 'ios' })]);
		expect(pageErrors).toEqual([]);
	});
});
