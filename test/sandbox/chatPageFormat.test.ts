/**
 * WhatsApp's text formatting on the chat page, in headless Chromium: *bold*, _italic_,
 * ~strikethrough~, ```monospace``` and `inline code` are drawn as the phone draws them, in what
 * the workflow sends and in what the contact types; markers inside words or next to spaces stay
 * as typed; the text never becomes HTML (it is built as text nodes).
 */
import type { Sandbox } from '../../sandbox/server';
import { call, chromiumSuite, launchChatBrowser, start, type ChatBrowser } from './helpers';

const TO = '5511955554444';

/** What the shape walker reads of a DOM node (the tests compile without the DOM's types). */
interface DomNode {
	nodeType: number;
	textContent: string | null;
	tagName?: string;
	className?: string;
	childNodes: ArrayLike<DomNode>;
}

chromiumSuite('chat page: WhatsApp formatting in bubbles (headless Chromium)', () => {
	let sb: Sandbox;
	let chat: ChatBrowser;

	beforeAll(async () => {
		sb = await start({ dialect: 'v2', instances: [{ name: 'demo' }] });
		chat = await launchChatBrowser();
		await chat.open(sb, 'demo');
	});

	afterAll(async () => {
		await chat?.browser.close();
		await sb?.close();
	});

	afterEach(() => {
		expect(chat.pageErrors).toEqual([]);
	});

	/** Sends `text` to the contact through the interface and returns its bubble's content, once shown. */
	async function sent(text: string) {
		const res = await call(sb, '/message/sendText/demo', { number: TO, text });
		expect(res.status).toBe(201);
		const bubble = chat.page.locator(`.bubble.out[data-message-id="${res.body.key.id}"]`);
		await bubble.waitFor({ timeout: 10000 });
		return bubble.locator('.content');
	}

	/** The content's DOM as a short string: `<tag.class>…</tag>` for elements, text as it is. */
	async function shape(content: Awaited<ReturnType<typeof sent>>): Promise<string> {
		return content.evaluate((root) => {
			const TEXT_NODE = 3;
			const walk = (node: DomNode): string => {
				if (node.nodeType === TEXT_NODE) return node.textContent ?? '';
				const tag = String(node.tagName).toLowerCase();
				return `<${tag}${node.className ? `.${node.className}` : ''}>${Array.from(node.childNodes).map(walk).join('')}</${tag}>`;
			};
			return Array.from((root as unknown as DomNode).childNodes).map(walk).join('');
		});
	}

	test('bold, italic, strikethrough, inline code, monospace over lines, and styles nested', async () => {
		const content = await sent('*bold* _italic_ ~strike~ `code` and *_both_*\n```mono *not bold*\nline 2```');
		expect(await shape(content)).toBe(
			'<strong>bold</strong> <em>italic</em> <s>strike</s> <code.inline-code>code</code> and <strong><em>both</em></strong>\n' +
				'<code.mono>mono *not bold*\nline 2</code>',
		);
		// What the workflow sent stays in the bubble's data-text, markers and all.
		expect(await content.getAttribute('data-text')).toBe('*bold* _italic_ ~strike~ `code` and *_both_*\n```mono *not bold*\nline 2```');
	});

	test('markers inside words, next to spaces, unclosed or across lines stay as typed', async () => {
		const text = '2*3*4 snake_case_name __init__ **double** * spaced * a ~ b~ *open\nclosed* ``';
		const content = await sent(text);
		expect(await shape(content)).toBe(text);
	});

	test('a link inside formatting is a link; underscores in a link are the link\'s', async () => {
		const content = await sent('*see https://example.com/a_b_c/_x/* and https://example.com/snake_case');
		expect(await shape(content)).toBe(
			'<strong>see <a.link>https://example.com/a_b_c/_x/</a></strong> and <a.link>https://example.com/snake_case</a>',
		);
		expect(await content.locator('a').evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href))).toEqual([
			'https://example.com/a_b_c/_x/',
			'https://example.com/snake_case',
		]);
	});

	test('HTML in a text shows as typed, formatted or not: no element is made from it, no script runs', async () => {
		const text = '<img src=x onerror="window.__injected=1"><script>window.__injected=2</script> *<b>bold tag</b>* `<i>code</i>`';
		const content = await sent(text);
		expect(await shape(content)).toBe(
			'<img src=x onerror="window.__injected=1"><script>window.__injected=2</script> <strong><b>bold tag</b></strong> <code.inline-code><i>code</i></code>',
		);
		expect(await content.locator('img, script, b, i').count()).toBe(0);
		expect(await chat.page.evaluate(() => (globalThis as unknown as { __injected?: number }).__injected)).toBeUndefined();
	});

	test('what the contact types is formatted too, and an edit is drawn formatted', async () => {
		const { page } = chat;
		await page.fill('#from', TO);
		await page.fill('#message', 'I am _sure_');
		await page.press('#message', 'Enter');
		const mine = page.locator('.bubble.in', { hasText: 'I am sure' });
		await mine.waitFor({ timeout: 10000 });
		expect(await mine.locator('.content em').innerText()).toBe('sure');

		const res = await call(sb, '/message/sendText/demo', { number: TO, text: 'first draft' });
		await page.locator(`.bubble.out[data-message-id="${res.body.key.id}"]`).waitFor({ timeout: 10000 });
		const edit = await call(sb, '/chat/updateMessage/demo', { number: TO, text: 'the *final* text', key: { remoteJid: `${TO}@s.whatsapp.net`, fromMe: true, id: res.body.key.id } });
		expect(edit.status).toBeLessThan(300);
		const edited = page.locator(`.bubble.out[data-message-id="${res.body.key.id}"]:not(.notice) .content`);
		await edited.locator('strong').waitFor({ timeout: 10000 });
		expect(await shape(edited)).toBe('the <strong>final</strong> text');
	});

	test('a long hostile text (60,000 characters of openers that never close) is drawn as typed', async () => {
		const text = '*a _b ~c '.repeat(7000).slice(0, 60000);
		const content = await sent(text);
		expect(await content.evaluate((root) => [root.childElementCount, root.textContent?.length])).toEqual([0, 60000]);
	});
});
