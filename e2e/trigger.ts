/**
 * Checks (b) of e2e/run.ts: the trigger's lifecycle in a running n8n. Activating the reply
 * workflow registers its production URL with the documented sandbox; a delivery without the
 * secret is refused; a MESSAGES_UPSERT runs the workflow, which replies; while it is active,
 * the chat page in a browser (check (d), e2e/chatPage.ts); deactivating unregisters.
 */
import * as assert from 'node:assert/strict';

import { request, type RestClient } from '../scripts/n8n-runtime';
import { type Report, sleep, waitFor } from './report';
import { requestsTo, type Sandbox } from './expect';
import { chatPageChecks } from './chatPage';

/* eslint-disable @typescript-eslint/no-explicit-any */

export async function triggerChecks(report: Report, rest: RestClient, sandbox: Sandbox, n8nUrl: string, replyId: string): Promise<void> {
	sandbox.clearRequests?.();
	let registered = '';
	const activated = await report.check('(b) activating the trigger workflow registers its production URL with the sandbox', async () => {
		await rest.activate(replyId);
		const prefix = `${n8nUrl}/webhook/`;
		const hook = await waitFor(
			'webhookOf(demo) to be a production URL of this n8n',
			() => {
				const h = sandbox.webhookOf('demo');
				return h && String(h.url).startsWith(prefix) ? h : undefined;
			},
			15000,
		).catch((e) => {
			const sets = requestsTo(sandbox, '/webhook/set/demo').map((r: any) => `${r.status} ${JSON.stringify(r.body)}`);
			throw new Error(
				`${e.message}; webhookOf: ${JSON.stringify(sandbox.webhookOf('demo'))}; webhook/set requests: ${sets.join(' | ') || 'none'}`,
			);
		});
		assert.equal(hook.enabled, true, 'webhook not enabled');
		registered = String(hook.url);
		assert.ok(registered.startsWith(`${n8nUrl}/webhook/`), `registered URL ${registered} is not a production URL of ${n8nUrl}`);
		assert.ok((hook.events as string[]).includes('MESSAGES_UPSERT'), `events ${JSON.stringify(hook.events)}`);
	});

	if (activated) {
		const upsertBody = {
			event: 'messages.upsert',
			instance: 'demo',
			data: {
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: 'FORGED1' },
				pushName: 'Mallory',
				message: { conversation: 'forged' },
				messageType: 'conversation',
				messageTimestamp: Math.floor(Date.now() / 1000),
			},
			date_time: new Date().toISOString(),
			sender: '5511000000000@s.whatsapp.net',
			server_url: sandbox.url,
			apikey: null,
		};
		await report.check('(b) the trigger webhook answers 401 to a delivery without the secret', async () => {
			const u = new URL(registered);
			if (!u.search) throw new Error(`the registered URL carries no query secret: ${registered}`);
			const bare = `${u.origin}${u.pathname}`;
			// Production webhooks answer a few seconds after activation: poll past 404s.
			let res = await request('POST', bare, upsertBody);
			const deadline = Date.now() + 30000;
			while (res.status === 404 && Date.now() < deadline) {
				await sleep(500);
				res = await request('POST', bare, upsertBody);
			}
			assert.equal(res.status, 401, `without secret: ${res.status} ${res.body.slice(0, 200)}`);
			const wrong = new URL(registered);
			for (const k of [...wrong.searchParams.keys()]) wrong.searchParams.set(k, 'wrong-secret');
			const res2 = await request('POST', wrong.toString(), upsertBody);
			assert.equal(res2.status, 401, `wrong secret: ${res2.status} ${res2.body.slice(0, 200)}`);
		});

		await report.check('(b) a MESSAGES_UPSERT delivery runs the workflow, which replies through the action node', async () => {
			const before = requestsTo(sandbox, '/message/sendText/demo').length;
			const delivery = await sandbox.injectMessage('demo', { from: '5511988880000', text: 'hello', pushName: 'Ana' });
			assert.ok(delivery, 'sandbox made no delivery (webhook not enabled for MESSAGES_UPSERT?)');
			const last = delivery.attempts[delivery.attempts.length - 1];
			assert.ok(last?.status && last.status >= 200 && last.status < 300, `delivery answered ${JSON.stringify(last)}`);
			const reply = await waitFor(
				'a sendText reply',
				() => requestsTo(sandbox, '/message/sendText/demo').slice(before)[0],
				30000,
			);
			assert.equal(reply.body.text, 'You said: hello');
			assert.match(String(reply.body.number), /^5511988880000(@s\.whatsapp\.net)?$/);
			// the forged delivery above must not have produced a reply
			assert.equal(requestsTo(sandbox, '/message/sendText/demo').filter((r: any) => /forged/.test(r.body?.text)).length, 0);
		});

		// --- (d) the chat page in a real browser, while the reply workflow is active ------
		await chatPageChecks(report, sandbox);
	}

	await report.check('(b) deactivating unregisters: Set Webhook with enabled:false, same URL and events', async () => {
		if (!activated) throw new Error('not run: the workflow could not be activated');
		const hookBefore = sandbox.webhookOf('demo');
		await rest.deactivate(replyId);
		const req = await waitFor(
			'webhook/set enabled:false',
			() => requestsTo(sandbox, '/webhook/set/demo').find((r: any) => r.body?.enabled === false),
			15000,
		);
		assert.equal(req.body.url, registered, 'url differs from the registered one');
		assert.deepEqual(req.body.events, hookBefore?.events, 'events differ');
		assert.equal(sandbox.webhookOf('demo')?.enabled, false, 'sandbox still has the webhook enabled');
	});
}
