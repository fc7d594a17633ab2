/**
 * The chat page plays a contact known by LID, in headless Chromium (Debian's /usr/bin/chromium
 * through playwright-core), against a v2 sandbox playing 2.3.6, the release that names such a
 * chat by its LID: the LID typed next to the number goes with the message, the webhook gets
 * 2.3.6's key, and replies sent through the interface to the phone JID or to the LID show in
 * that contact's conversation. Also a contact known only by its LID.
 *
 * Without /usr/bin/chromium this suite is skipped loudly, except with CI=true, where it fails.
 */
import type { Browser, Page } from 'playwright-core';
import type { Sandbox } from '../../sandbox/server';
import { call, start, startReceiver, Receiver } from './helpers';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium';
import { chromiumSuite, haveChromium } from './chromiumSuite';

const suite = chromiumSuite('test/sandbox/chatPageLid.test.ts');

const PHONE = '5511944440001';
const PHONE_JID = `${PHONE}@s.whatsapp.net`;
const LID_DIGITS = '123456789012345';
const LID = `${LID_DIGITS}@lid`;
const LID_ONLY = '987654321098765@lid';

suite('chat page: a contact known by LID (headless Chromium, sandbox playing 2.3.6)', () => {
	let sb: Sandbox;
	let rx: Receiver;
	let browser: Browser;
	let page: Page;
	const pageErrors: string[] = [];

	const open = async () => {
		await page.goto(`${sb.url}/chat?instance=demo`);
		await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10000 });
	};

	/** Types a message as the contact and waits until the page marks it delivered; the bubble and the delivery. */
	const sendAs = async (from: string, lid: string, text: string) => {
		await page.fill('#from', from);
		await page.fill('#lid', lid);
		await page.fill('#pushName', 'Lia');
		await page.fill('#message', text);
		await page.click('#send');
		const bubble = page.locator('.bubble.in', { hasText: text });
		await bubble.locator('.meta', { hasText: '✓ delivered' }).waitFor({ timeout: 10000 });
		const id = await bubble.getAttribute('data-message-id');
		const upsert = rx.received.find((r) => r.body?.event === 'messages.upsert' && r.body.data?.key?.id === id);
		return { bubble, upsert };
	};

	/** A Send Text through the interface, as a workflow would send it; its bubble. */
	const reply = async (number: string, text: string) => {
		const res = await call(sb, '/message/sendText/demo', { number, text });
		expect(res.status).toBe(201);
		const bubble = page.locator('.bubble.out[data-kind="text"]', { hasText: text });
		await bubble.waitFor({ timeout: 10000 });
		expect(await bubble.getAttribute('data-message-id')).toBe(res.body.key.id);
		return bubble;
	};

	beforeAll(async () => {
		if (!haveChromium) throw new Error(`CI=true and ${CHROMIUM} is missing: run .ci/chromium.sh before the tests`);
		rx = await startReceiver();
		sb = await start({ dialect: 'v2', version: '2.3.6', instances: [{ name: 'demo' }] });
		const hook = await call(sb, '/webhook/set/demo', { webhook: { enabled: true, url: `${rx.url}/hook`, events: ['MESSAGES_UPSERT'] } });
		expect(hook.status).toBe(201);
		const { chromium } = await import('playwright-core');
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
		page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
		page.on('pageerror', (e) => pageErrors.push(e.message));
		await open();
	});

	afterAll(async () => {
		await browser?.close();
		await sb?.close();
		await rx?.close();
	});

	afterEach(() => {
		expect(pageErrors).toEqual([]);
	});

	it('a message sent with a LID next to the number reaches the webhook with the LID in remoteJid and the phone JID in remoteJidAlt (2.3.6)', async () => {
		const { bubble, upsert } = await sendAs(PHONE, LID, 'hello, known by LID');
		expect(upsert?.body.data.key).toEqual({ remoteJid: LID, remoteJidAlt: PHONE_JID, addressingMode: 'lid', fromMe: false, id: await bubble.getAttribute('data-message-id') });
		expect(await bubble.getAttribute('data-contact')).toBe(PHONE_JID);
		expect(await bubble.locator('.who').innerText()).toBe(`Lia · ${PHONE} · LID ${LID_DIGITS}`);
		expect(await page.locator('#as').innerText()).toBe(`as Lia · ${PHONE} · LID ${LID_DIGITS}`);
		// what the page posted: the sandbox's chat log keeps the injected message as given
		expect(sb.chat.find((e) => e.messageId === upsert?.body.data.key.id)?.body).toMatchObject({ from: PHONE, lid: LID, text: 'hello, known by LID' });
	});

	it("replies to the LID and to the phone JID both show in that contact's conversation", async () => {
		const toLid = await reply(LID, 'answer to the LID');
		expect(await toLid.getAttribute('data-contact')).toBe(PHONE_JID);
		expect(await toLid.locator('.who').innerText()).toBe(`to LID ${LID_DIGITS} (${PHONE})`);
		const toPhone = await reply(PHONE, 'answer to the phone');
		expect(await toPhone.getAttribute('data-contact')).toBe(PHONE_JID);
		const conversation = await page.locator(`.bubble[data-contact="${PHONE_JID}"] .content`).allInnerTexts();
		expect(conversation).toEqual(['hello, known by LID', 'answer to the LID', 'answer to the phone']);
	});

	it('the LID may be typed as digits; a page opened later still files the replies under the contact (from the chat log)', async () => {
		const { upsert } = await sendAs(PHONE, LID_DIGITS, 'digits only');
		expect(upsert?.body.data.key).toMatchObject({ remoteJid: LID, remoteJidAlt: PHONE_JID });
		await open();
		const conversation = await page.locator(`.bubble[data-contact="${PHONE_JID}"] .content`).allInnerTexts();
		expect(conversation).toEqual(['hello, known by LID', 'answer to the LID', 'answer to the phone', 'digits only']);
		expect(await page.locator('.bubble[data-contact$="@lid"]').count()).toBe(0);
	});

	it('a contact known only by its LID (a LID in From): the key has the LID alone, the reply to it is in its conversation', async () => {
		const { bubble, upsert } = await sendAs(LID_ONLY, '', 'only my LID');
		expect(upsert?.body.data.key).toEqual({ remoteJid: LID_ONLY, addressingMode: 'lid', fromMe: false, id: await bubble.getAttribute('data-message-id') });
		expect(await bubble.getAttribute('data-contact')).toBe(LID_ONLY);
		expect(await bubble.locator('.who').innerText()).toBe('Lia · LID 987654321098765');
		const out = await reply(LID_ONLY, 'answer to a LID-only contact');
		expect(await out.getAttribute('data-contact')).toBe(LID_ONLY);
		expect(await page.locator(`.bubble[data-contact="${LID_ONLY}"] .content`).allInnerTexts()).toEqual(['only my LID', 'answer to a LID-only contact']);
	});

	it('a LID that is not one, or a LID next to a LID in From, is refused on the page: nothing is sent', async () => {
		const before = sb.chat.length;
		const delivered = rx.received.length;
		for (const [from, lid, why] of [
			[PHONE, `${PHONE}@s.whatsapp.net`, 'a LID ends in @lid (or give its digits)'],
			[LID_ONLY, LID, 'From is already a LID: give the phone number in From, or leave LID empty'],
		]) {
			await page.fill('#from', from);
			await page.fill('#lid', lid);
			await page.fill('#message', 'should not go');
			await page.click('#send');
			await page.locator('#status', { hasText: why }).waitFor({ timeout: 5000 });
			expect(await page.inputValue('#message')).toBe('should not go');
		}
		expect(sb.chat.length).toBe(before);
		expect(rx.received.length).toBe(delivered);
	});
});
