/**
 * The chat page (GET /chat) in a real headless browser: Debian's Chromium (/usr/bin/chromium,
 * installed by .ci/chromium.sh) driven by playwright-core, against a sandbox alone (no n8n).
 *
 * Without /usr/bin/chromium this suite is skipped loudly, except with CI=true, where it fails.
 */
import type { Browser, Page } from 'playwright-core';
import type { Sandbox } from '../../sandbox/server';
import { call, start, startReceiver, Receiver } from './helpers';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium';
import { chromiumSuite, haveChromium } from './chromiumSuite';

const suite = chromiumSuite('test/sandbox/chatPage.test.ts');

suite('chat page in headless Chromium (sandbox alone)', () => {
	let sb: Sandbox;
	let rx: Receiver;
	let browser: Browser;
	let page: Page;
	const pageErrors: string[] = [];

	beforeAll(async () => {
		if (!haveChromium) throw new Error(`CI=true and ${CHROMIUM} is missing: run .ci/chromium.sh before the tests`);
		rx = await startReceiver();
		sb = await start({ instances: [{ name: 'demo' }] });
		await call(sb, '/webhook/set/demo', { enabled: true, url: `${rx.url}/hook`, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] });
		const { chromium } = await import('playwright-core');
		// Playwright gives every launch a fresh temporary profile (user data dir) and removes it on close.
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

	it('a message typed as the contact shows as an incoming bubble and reaches the webhook', async () => {
		await page.fill('#from', '5511977770000');
		await page.fill('#pushName', 'Browser Ana');
		await page.fill('#message', 'hello from the browser');
		await page.click('#send');

		const bubble = page.locator('.bubble.in', { hasText: 'hello from the browser' });
		await bubble.waitFor({ timeout: 10000 });
		expect(await bubble.getAttribute('data-testid')).toBe('bubble-in');
		expect(await bubble.getAttribute('data-kind')).toBe('text');
		expect(await bubble.locator('.who').innerText()).toContain('Browser Ana');
		await page.locator('.bubble.in .meta', { hasText: '✓ delivered' }).waitFor({ timeout: 10000 });
		expect(await page.inputValue('#message')).toBe('');

		const upsert = rx.received.find((r) => r.body?.event === 'messages.upsert');
		expect(upsert?.body.data).toMatchObject({
			key: { remoteJid: '5511977770000@s.whatsapp.net', fromMe: false, id: await bubble.getAttribute('data-message-id') },
			pushName: 'Browser Ana',
			message: { conversation: 'hello from the browser' },
		});
	});

	it('a text sent through the interface (POST /message/sendText/demo) appears live as an outgoing bubble', async () => {
		const res = await call(sb, '/message/sendText/demo', { number: '5511977770000', text: 'You said: hello from the browser' });
		expect(res.status).toBe(201);
		const bubble = page.locator('.bubble.out[data-kind="text"]', { hasText: 'You said: hello from the browser' });
		await bubble.waitFor({ timeout: 10000 });
		expect(await bubble.getAttribute('data-testid')).toBe('bubble-out');
		expect(await bubble.getAttribute('data-message-id')).toBe(res.body.key.id);
		expect(await bubble.locator('.content').innerText()).toBe('You said: hello from the browser');
	});

	it('draws lists, buttons, locations, status posts, reactions, edits, presence and archiving readably', async () => {
		const n = '5511977770000';
		const jid = `${n}@s.whatsapp.net`;
		const incomingId = await page.locator('.bubble.in').first().getAttribute('data-message-id');
		const replyId = await page.locator('.bubble.out[data-kind="text"]').first().getAttribute('data-message-id');
		const sends: Array<[string, unknown]> = [
			['/chat/sendPresence/demo', { number: n, options: { delay: 20, presence: 'composing', number: n } }],
			[
				'/message/sendList/demo',
				{
					number: n,
					title: 'Menu',
					description: 'Pick one',
					buttonText: 'Open menu',
					footerText: 'thanks',
					values: [{ title: 'Drinks', rows: [{ title: 'Coffee', description: 'hot', rowId: 'r1' }, { title: 'Tea', description: 'green', rowId: 'r2' }] }],
				},
			],
			[
				'/message/sendButtons/demo',
				{ number: n, title: 'Question', description: 'Yes or no?', footer: 'f', buttons: [{ title: 'Yes', displayText: 'Yes', id: 'y' }, { title: 'No', displayText: 'No', id: 'n' }] },
			],
			['/message/sendLocation/demo', { number: n, name: 'São Paulo', address: 'Av. Paulista, 1578', latitude: -23.5614, longitude: -46.6559 }],
			['/message/sendStatus/demo', { type: 'text', content: 'Open today', caption: '', backgroundColor: '#008000', font: 2, allContacts: true, statusJidList: [] }],
			['/message/sendReaction/demo', { key: { remoteJid: jid, fromMe: false, id: incomingId }, reaction: '👍' }],
			['/chat/updateMessage/demo', { number: Number(n), text: 'You said: edited', key: { remoteJid: jid, fromMe: true, id: replyId } }],
			['/chat/archiveChat/demo', { lastMessage: { key: { remoteJid: jid, fromMe: false, id: incomingId } }, archive: true, chat: jid }],
		];
		for (const [path, body] of sends) {
			const res = await call(sb, path, body);
			expect({ path, status: res.status, body: res.status < 300 ? undefined : res.body }).toEqual({ path, status: res.status < 300 ? res.status : 201, body: undefined });
		}
		await page.locator('.bubble.out.archive').waitFor({ timeout: 10000 });

		const text = async (kind: string): Promise<string> => (await page.locator(`.bubble.out[data-kind="${kind}"]`).last().innerText()).replace(/\s+/g, ' ');
		expect(await text('presence')).toContain('typing…');
		expect(await text('list')).toMatch(/Menu Pick one DRINKS Coffee hot Tea green thanks .*☰ Open menu/);
		expect(await text('buttons')).toMatch(/Question Yes or no\? f .*Yes No/);
		expect(await text('location')).toMatch(/São Paulo Av\. Paulista, 1578 -23\.56140, -46\.65590 Open in OpenStreetMap/);
		expect(await page.locator('.bubble.location a').getAttribute('href')).toContain('mlat=-23.5614');
		expect(await text('status')).toContain('Open today');
		expect(await text('status')).toContain('visible to all contacts');
		expect(await text('reaction')).toContain('reacted 👍 to “hello from the browser”');
		expect(await page.locator(`.bubble.in[data-message-id="${incomingId}"] .reactions`).innerText()).toBe('👍');
		expect(await text('edit')).toContain('edited “You said: hello from the browser” → “You said: edited”');
		const edited = page.locator(`.bubble.out[data-message-id="${replyId}"]:not(.notice)`);
		expect(await edited.locator('.content').innerText()).toBe('You said: edited');
		expect(await edited.locator('.meta').innerText()).toContain('edited');
		expect(await text('archive')).toContain('archived the chat with 5511977770000');
		expect(pageErrors).toEqual([]);
	});

	it('one chat per contact, as WhatsApp Web: the list names each contact, newest first; picking one shows only its messages and writes as it; All chats shows every message', async () => {
		const [first, second] = ['5511977770000@s.whatsapp.net', '5511977771111@s.whatsapp.net'];
		await page.fill('#from', '5511977771111');
		await page.fill('#message', 'from a second contact');
		await page.click('#send');
		const other = page.locator('.bubble.in', { hasText: 'from a second contact' });
		await other.waitFor({ timeout: 10000 });
		const rows = page.locator('#chats [data-testid="chat"]');
		const contacts = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-contact')));
		expect(contacts[0]).toBe(second);
		expect(contacts).toContain(first);
		expect(await rows.first().locator('.chat-last').innerText()).toBe('from a second contact');

		await page.locator(`#chats [data-contact="${first}"]`).click();
		expect(await page.inputValue('#from')).toBe('5511977770000');
		expect(await other.isVisible()).toBe(false);
		expect(await page.locator('.bubble.in', { hasText: 'hello from the browser' }).isVisible()).toBe(true);
		const shown = await page.locator('.bubble:visible').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-contact')));
		expect(new Set(shown)).toEqual(new Set([first]));

		await page.click('#chat-all');
		expect(await other.isVisible()).toBe(true);
	});

	it('"✓ delivered" is kept after a reload: the sandbox keeps the verdict with the message', async () => {
		await page.reload();
		await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10000 });
		const bubble = page.locator('.bubble.in', { hasText: 'hello from the browser' });
		await bubble.locator('.meta', { hasText: '✓ delivered' }).waitFor({ timeout: 10000 });
		expect(await bubble.locator('.meta .ok').count()).toBe(1);
		expect(pageErrors).toEqual([]);
	});

	it('Clear empties the page and the sandbox chat log', async () => {
		await page.click('#reset');
		await page.locator('#empty').waitFor({ timeout: 10000 });
		expect(await page.locator('.bubble').count()).toBe(0);
		expect(sb.chat).toHaveLength(0);
		expect(pageErrors).toEqual([]);
	});
});
