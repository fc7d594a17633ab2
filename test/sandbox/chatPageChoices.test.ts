/**
 * The chat page plays the person a Send and Wait for Response asks, in headless Chromium: links
 * in a sent message are links that open in a new tab (n8n's waiting page); a plain-text question
 * is answered by typing, as on the phone (its numbered choices are text, not buttons); what
 * WhatsApp makes tappable — a poll's options, a message's reply buttons, a list's rows — is
 * tappable, and a tap sends the choice as the contact the message went to (to the instance's
 * webhook, as a typed message would go).
 *
 * Without /usr/bin/chromium this suite is skipped loudly, except with CI=true, where it fails.
 */
import type { Browser, Page } from 'playwright-core';
import type { Sandbox } from '../../sandbox/server';
import { call, start, startReceiver, Receiver } from './helpers';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium';
import { chromiumSuite, haveChromium } from './chromiumSuite';

const suite = chromiumSuite('test/sandbox/chatPageChoices.test.ts');

const ASKED = '5511977770000';

suite('chat page: links and choices of a question (headless Chromium)', () => {
	let sb: Sandbox;
	let rx: Receiver;
	let browser: Browser;
	let page: Page;
	const pageErrors: string[] = [];

	beforeAll(async () => {
		if (!haveChromium) throw new Error(`CI=true and ${CHROMIUM} is missing: run .ci/chromium.sh before the tests`);
		rx = await startReceiver();
		sb = await start({ dialect: 'v2', instances: [{ name: 'demo' }] });
		const hook = await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: `${rx.url}/hook`, events: ['MESSAGES_UPSERT'] } });
		expect(hook.status).toBe(201);
		const { chromium } = await import('playwright-core');
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
		page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
		page.on('pageerror', (e) => pageErrors.push(e.message));
		await page.goto(`${sb.url}/chat?instance=demo`);
		await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10000 });
		// Typing as someone else: a choice goes as the contact the question went to, not as From.
		await page.fill('#from', '5511900000000');
	});

	afterAll(async () => {
		await browser?.close();
		await sb?.close();
		await rx?.close();
	});

	afterEach(() => {
		expect(pageErrors).toEqual([]);
	});

	/** The upsert the receiver got for a contact's text, once it arrived. */
	const upsertOf = async (text: string) => {
		for (let tries = 0; tries < 100; tries++) {
			const found = rx.received.find((r) => r.body?.event === 'messages.upsert' && r.body.data?.message?.conversation === text);
			if (found) return found;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		throw new Error(`no delivery of "${text}"`);
	};

	test('a link in a sent message is a link that opens in a new tab; the text around it stays', async () => {
		const link = 'http://127.0.0.1:5678/webhook-waiting/12/node?approved=true&signature=abc123';
		const res = await call(sb, '/message/sendText/demo', { number: ASKED, text: `Approve?\n\n*✓ Approve:*\n${link}` });
		expect(res.status).toBe(201);
		const bubble = page.locator('.bubble.out', { hasText: 'Approve?' });
		await bubble.waitFor({ timeout: 10000 });
		const anchor = bubble.locator('a[data-testid="link"]');
		expect(await anchor.count()).toBe(1);
		expect(await anchor.getAttribute('href')).toBe(link);
		expect(await anchor.getAttribute('target')).toBe('_blank');
		expect(await anchor.getAttribute('rel')).toBe('noopener noreferrer');
		// WhatsApp's *bold* is drawn bold, its markers gone; the link keeps its text.
		expect(await bubble.locator('.content').innerText()).toBe(`Approve?\n\n✓ Approve:\n${link}`);
		expect(await bubble.locator('.content strong').innerText()).toBe('✓ Approve:');
		expect(await bubble.locator('[data-testid="choice"]').count()).toBe(0);
	});

	test('a plain-text question with numbered choices has no buttons: the person types the answer as the contact', async () => {
		const res = await call(sb, '/message/sendText/demo', { number: ASKED, text: 'Which day?\n\n1. Monday\n2. Tuesday\n\n_Reply with the number or the text of your choice._' });
		expect(res.status).toBe(201);
		const bubble = page.locator('.bubble.out', { hasText: 'Which day?' });
		await bubble.waitFor({ timeout: 10000 });
		expect(await bubble.locator('button').count()).toBe(0);
		expect(await bubble.locator('.content em').innerText()).toBe('Reply with the number or the text of your choice.');
		await page.fill('#from', ASKED);
		await page.fill('#message', 'Tuesday');
		await page.press('#message', 'Enter');
		const upsert = await upsertOf('Tuesday');
		expect(upsert.body.data.key).toMatchObject({ remoteJid: `${ASKED}@s.whatsapp.net`, fromMe: false });
		await page.locator('.bubble.in', { hasText: 'Tuesday' }).locator('.meta', { hasText: '✓ delivered' }).waitFor({ timeout: 10000 });
		// Typing as someone else again: a tap below goes as the contact the message went to, not as From.
		await page.fill('#from', '5511900000000');
	});

	test('reply buttons and list rows are buttons; url buttons are not; a tap answers as the contact the message went to', async () => {
		const buttons = await call(sb, '/message/sendButtons/demo', {
			number: ASKED,
			title: 'Deliver?',
			description: 'Choose',
			footer: 'shop',
			buttons: [
				{ type: 'reply', displayText: 'Deliver now', id: 'now' },
				{ type: 'reply', displayText: 'Later', id: 'later' },
			],
		});
		expect(buttons.status).toBe(201);
		const withButtons = page.locator('.bubble.out[data-kind="buttons"]', { hasText: 'Deliver?' });
		await withButtons.waitFor({ timeout: 10000 });
		expect(await withButtons.locator('button[data-testid="choice"]').allInnerTexts()).toEqual(['Deliver now', 'Later']);
		await withButtons.locator('button[data-testid="choice"]', { hasText: 'Deliver now' }).click();
		expect((await upsertOf('Deliver now')).body.data.key.remoteJid).toBe(`${ASKED}@s.whatsapp.net`);

		// A link button opens its page on the phone; it answers nothing.
		const link = await call(sb, '/message/sendButtons/demo', { number: ASKED, title: 'Track it', description: 'Your order', buttons: [{ type: 'url', displayText: 'Track', url: 'https://example.com/track' }] });
		expect(link.status).toBe(201);
		const withLink = page.locator('.bubble.out[data-kind="buttons"]', { hasText: 'Track it' });
		await withLink.waitFor({ timeout: 10000 });
		expect(await withLink.locator('button').count()).toBe(0);
		expect(await withLink.locator('.choice').innerText()).toBe('↗ Track');

		const list = await call(sb, '/message/sendList/demo', {
			number: ASKED,
			title: 'Menu',
			description: 'Pick one',
			buttonText: 'Open menu',
			footerText: 'thanks',
			sections: [{ title: 'Drinks', rows: [{ title: 'Coffee', description: 'hot', rowId: 'r1' }, { title: 'Tea', description: 'green', rowId: 'r2' }] }],
		});
		expect(list.status).toBe(201);
		const withList = page.locator('.bubble.out[data-kind="list"]', { hasText: 'Menu' });
		await withList.waitFor({ timeout: 10000 });
		await withList.locator('button[data-testid="choice"]', { hasText: 'Tea' }).click();
		expect((await upsertOf('Tea')).body.data.key.remoteJid).toBe(`${ASKED}@s.whatsapp.net`);
	});

	test('a poll\'s options are buttons too', async () => {
		const res = await call(sb, '/message/sendPoll/demo', { number: ASKED, name: 'Lunch?', selectableCount: 1, values: ['Pizza', 'Salad'] });
		expect(res.status).toBe(201);
		const bubble = page.locator('.bubble.out[data-kind="poll"]', { hasText: 'Lunch?' });
		await bubble.waitFor({ timeout: 10000 });
		await bubble.locator('button[data-testid="choice"]', { hasText: 'Salad' }).click();
		const upsert = await upsertOf('Salad');
		expect(upsert.body.data.key.remoteJid).toBe(`${ASKED}@s.whatsapp.net`);
	});
});
