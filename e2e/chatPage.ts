/**
 * Check (d) of e2e/run.ts: the sandbox's chat page in headless Chromium. Needs n8n serving
 * with the reply workflow active on the documented sandbox's `demo` instance.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import type { Report } from './report';
import { requestsTo, type Sandbox } from './expect';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * (d) The sandbox chat page in a real headless browser while the reply workflow is active:
 * a person types a message as a contact, presses Send, and sees n8n's reply appear live.
 */
export async function chatPageChecks(report: Report, sandbox: Sandbox): Promise<void> {
	const names = [
		'(d) chat page in headless Chromium: a message typed as a contact and sent shows as an incoming bubble, delivered to n8n',
		'(d) chat page in headless Chromium: the workflow\'s reply "You said: …" appears live as an outgoing bubble',
	];
	if (!fs.existsSync(CHROMIUM)) {
		const why = `${CHROMIUM} is missing (install it with: bash .ci/chromium.sh)`;
		if (process.env.CI === 'true') for (const n of names) report.record(n, false, `${why}; CI=true, so this is a failure`);
		else for (const n of names) report.skip(n, `${why}; the chat page is NOT tested in a browser`);
		return;
	}
	const from = '5511977770000';
	const text = `hello from the browser ${Date.now().toString(36)}`;
	const pageErrors: string[] = [];
	let browser: import('playwright-core').Browser | undefined;
	try {
		const { chromium } = await import('playwright-core');
		// Playwright gives every launch a fresh temporary profile (user data dir) and removes it on close.
		browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30000 });
		const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
		page.on('pageerror', (e) => pageErrors.push(e.message));
		let incomingId: string | null = null;
		const sent = await report.check(names[0], async () => {
			await page.goto(`${sandbox.url}/chat?instance=demo`, { timeout: 15000 });
			await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 15000 });
			await page.fill('#from', from);
			await page.fill('#pushName', 'Browser Ana');
			await page.fill('#message', text);
			await page.click('#send');
			const bubble = page.locator('.bubble.in', { hasText: text });
			await bubble.waitFor({ timeout: 10000 });
			assert.equal(await bubble.getAttribute('data-testid'), 'bubble-in');
			incomingId = await bubble.getAttribute('data-message-id');
			// the sandbox POSTs MESSAGES_UPSERT to n8n's trigger URL; the page marks the verdict
			const meta = bubble.locator('.meta');
			await bubble
				.locator('.meta', { hasText: /✓ delivered|✗/ })
				.waitFor({ timeout: 30000 })
				.catch(() => undefined);
			const verdict = await meta.innerText();
			assert.match(verdict, /✓ delivered/, `incoming bubble says "${verdict}"`);
			assert.equal(pageErrors.length, 0, `page errors: ${pageErrors.join(' | ')}`);
		});
		await report.check(names[1], async () => {
			if (!sent) throw new Error('not run: the message could not be sent from the page');
			const reply = page.locator('.bubble.out[data-kind="text"]', { hasText: `You said: ${text}` });
			await reply.waitFor({ timeout: 30000 }).catch(async (e: Error) => {
				const shown = await page.locator('.bubble').allInnerTexts();
				throw new Error(`${e.message.split('\n')[0]}; bubbles shown: ${JSON.stringify(shown)}`);
			});
			assert.equal(await reply.getAttribute('data-testid'), 'bubble-out');
			assert.equal(await reply.locator('.content').innerText(), `You said: ${text}`);
			// both bubbles are on the page, the contact's first
			const inSeq = Number(await page.locator('.bubble.in', { hasText: text }).getAttribute('data-seq'));
			const outSeq = Number(await reply.getAttribute('data-seq'));
			assert.ok(inSeq < outSeq, `incoming seq ${inSeq} should precede the reply's ${outSeq}`);
			// and it is the real request n8n's action node made to the sandbox
			const req = requestsTo(sandbox, '/message/sendText/demo').find((r: any) => r.body?.text === `You said: ${text}`);
			assert.ok(req, 'no matching sendText request recorded by the sandbox');
			assert.match(String(req.body.number), new RegExp(`^${from}(@s\\.whatsapp\\.net)?$`));
			const delivered = (sandbox.deliveries as any[]).find((d) => d.event === 'messages.upsert' && d.body?.data?.key?.id === incomingId);
			assert.ok(delivered, `no MESSAGES_UPSERT delivery for the page's message ${incomingId}`);
			assert.equal(pageErrors.length, 0, `page errors: ${pageErrors.join(' | ')}`);
		});
		if (process.env.E2E_CHAT_SCREENSHOT) {
			await page.screenshot({ path: process.env.E2E_CHAT_SCREENSHOT });
			console.log(`e2e: chat page screenshot at ${process.env.E2E_CHAT_SCREENSHOT}`);
		}
	} catch (e) {
		report.record('(d) chat page in headless Chromium: browser run', false, e instanceof Error ? e.stack ?? e.message : String(e));
	} finally {
		await browser?.close().catch(() => undefined);
	}
}
