/** Send and Wait for Response answered in the chat (`chatReply`): what is refused, and where. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { postJson } from '../harness/waiting';
import { INSTANCE, registeredUrl, secretOf } from '../trigger/helpers';
import {
	ASKED,
	calls,
	optionsFor,
	s,
	storedWaits,
	useChatReplySetup,
	waitingRun,
} from './chatReplySetup';

useChatReplySetup();

describe('Send and Wait for Response: Reply in the Chat, refused', () => {
	test('no trigger receives the instance\'s messages: a clear error, and nothing is sent', async () => {
		await s.harness.deactivate();
		s.sandbox.clearRequests();
		// Deactivated: the instance's webhook is switched off.
		const off = await runNode(optionsFor({ message: 'Anyone?' }));
		expect(off.error?.message).toBe(`"Response Type" Reply in the Chat: the instance "${INSTANCE}" has no webhook, so no trigger receives its messages [item 0]`);
		expect(off.error?.description).toMatch(/^Add a Messaging Instance Trigger for this instance/);
		expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`]);
		expect(off.run.status).toBe('error');
	});

	test('the instance\'s webhook is not one of our triggers (no secret in its URL): an error before sending', async () => {
		await fetch(`${s.sandbox.url}/webhook/set/${INSTANCE}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', apikey: s.sandbox.apiKey },
			body: JSON.stringify({ webhook: { enabled: true, url: s.harness.productionUrl(), events: ['MESSAGES_UPSERT'] } }),
		});
		s.sandbox.clearRequests();
		const run = await runNode(optionsFor({ message: 'Anyone?' }));
		expect(run.error?.message).toBe(`"Response Type" Reply in the Chat: the webhook of instance "${INSTANCE}" is not a Messaging Instance Trigger's [item 0]`);
		expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`]);
	});

	/** Makes the instance's webhook (as the server's find route answers it) the given URL. */
	async function webhookIs(url: string): Promise<void> {
		// The secret header travels with the URL's secret, as a trigger registers them.
		const headers = { 'x-messaging-instance-secret': new URL(url).searchParams.get('secret') ?? '' };
		await fetch(`${s.sandbox.url}/webhook/set/${INSTANCE}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', apikey: s.sandbox.apiKey },
			body: JSON.stringify({ webhook: { enabled: true, url, events: ['MESSAGES_UPSERT'], headers } }),
		});
		s.sandbox.clearRequests();
	}

	test('(1) a webhook on another host, with any secret, never receives the resume link: an error before sending', async () => {
		const collected: string[] = [];
		const collector = createServer((req, res) => {
			collected.push(req.url ?? '');
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"waiting":true}');
		});
		await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
		const other = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
		try {
			await webhookIs(`${other}/collect?secret=anything`);
			const run = await runNode(optionsFor({ message: 'Yes or no?' }));
			expect(run.error?.message).toBe(
				`"Response Type" Reply in the Chat: the webhook of instance "${INSTANCE}" is on ${other}, not on this n8n (${new URL(s.harness.baseUrl).origin}); the wait is not registered there [item 0]`,
			);
			expect(collected).toEqual([]);
			expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`]);
		} finally {
			await new Promise((resolve) => collector.close(resolve));
		}
	});

	test('(1) a webhook on this n8n whose secret the API key does not derive (none, or another\'s) is not trusted', async () => {
		const own = new URL(s.harness.productionUrl());
		const stranger = registeredUrl(own.toString(), 'a-secret-of-someone-else-000000000000000000');
		for (const url of [`${own.toString()}?secret=anything`, stranger]) {
			await webhookIs(url);
			const run = await runNode(optionsFor({ message: 'Yes or no?' }));
			expect(run.error?.message).toBe(`"Response Type" Reply in the Chat: the webhook of instance "${INSTANCE}" carries a secret this credential's API key does not give [item 0]`);
			expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`]);
		}
		expect(storedWaits()).toEqual([]);
	});

	test('the documented dialect has no webhook find route: an error before any request', async () => {
		const run = await runNode(optionsFor({ message: 'Anyone?' }, 'exec-1', { credentials: { baseUrl: s.sandbox.url, apiKey: s.sandbox.apiKey, dialect: 'documented' } }));
		expect(run.error?.message).toBe('"Response Type" Reply in the Chat needs a v2.x server [item 0]');
		expect(calls()).toEqual([]);
	});

	test('a poll needs two choices: checked before anything is asked', async () => {
		const run = await runNode(optionsFor({ message: 'Lunch?', choices: { values: [{ choice: 'Pizza' }] }, options: { choicesAs: 'poll' } }));
		expect(run.error?.message).toBe('"Choices" needs at least 2 choices for a poll [item 0]');
		expect(calls()).toEqual([]);
	});

	test('the trigger refuses a registration without its secret, or with a resume URL off this n8n', async () => {
		const wait = (resumeUrl: string) =>
			JSON.stringify({ messagingInstanceWait: { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl, expiresAt: new Date(Date.now() + 60_000).toISOString(), alsoStartRun: false } });
		const own = `${s.harness.baseUrl}/webhook-waiting/exec-1/node?signature=${'0'.repeat(64)}`;
		expect((await s.harness.post('production', wait(own))).status).toBe(401);
		expect((await s.harness.post('production', wait(own), { query: { secret: 'wrong-secret-0000000000' } })).status).toBe(401);
		for (const foreign of ['http://169.254.169.254/latest/meta-data', 'http://127.0.0.1:1/webhook-waiting/x', `${s.harness.baseUrl.replace('127.0.0.1', 'localhost')}/webhook-waiting/exec-1/node`]) {
			const refused = await s.harness.post('production', wait(foreign), { query: { secret: secretOf(s) } });
			expect(refused).toEqual({ status: 403, body: { message: 'The resume URL is not on this n8n' } });
		}
		const broken = await s.harness.post('production', JSON.stringify({ messagingInstanceWait: { instance: INSTANCE, chatId: 'not a jid', resumeUrl: own } }), { query: { secret: secretOf(s) } });
		expect(broken).toEqual({ status: 400, body: { message: '"chatId" must be a chat JID' } });
		const otherInstance = JSON.parse(wait(own)) as IDataObject;
		(otherInstance.messagingInstanceWait as IDataObject).instance = 'other';
		expect((await s.harness.post('production', JSON.stringify(otherInstance), { query: { secret: secretOf(s) } })).status).toBe(409);
		expect(storedWaits()).toEqual([]);
		expect(s.harness.emitted).toEqual([]);
	});

	test('a trigger listening for a test event takes no wait: the action says to activate the workflow, nothing is sent', async () => {
		await s.harness.deactivate();
		await s.harness.listenForTest();
		s.sandbox.clearRequests();
		const run = await runNode(optionsFor({ message: 'Anyone?' }));
		expect(run.error?.message).toBe(`"Response Type" Reply in the Chat: the trigger of instance "${INSTANCE}" is listening for a test event [item 0]`);
		expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`]);
		// Posted to the test URL anyway, the trigger refuses it and keeps nothing.
		const wait = { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: `${s.harness.baseUrl}/webhook-waiting/exec-1/node`, expiresAt: new Date(Date.now() + 60_000).toISOString(), alsoStartRun: false };
		const refused = await s.harness.post('test', JSON.stringify({ messagingInstanceWait: wait }), { query: { secret: secretOf(s) } });
		expect(refused.status).toBe(409);
		expect(storedWaits()).toEqual([]);
		await s.harness.stopTest();
	});

	test.each([
		['not an object', 'yes'],
		['no chat', { instance: INSTANCE, resumeUrl: 'x', expiresAt: '2999-01-01T00:00:00Z', alsoStartRun: false }],
		['a chat with spaces', { instance: INSTANCE, chatId: '55 11@s.whatsapp.net', resumeUrl: 'http://127.0.0.1/', expiresAt: '2999-01-01T00:00:00Z', alsoStartRun: false }],
		['a resume URL that is not one', { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: 'javascript:alert(1)', expiresAt: '2999-01-01T00:00:00Z', alsoStartRun: false }],
		['a resume URL with a password', { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: 'http://u:p@127.0.0.1/', expiresAt: '2999-01-01T00:00:00Z', alsoStartRun: false }],
		['a huge resume URL', { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: `http://127.0.0.1/${'a'.repeat(5000)}`, expiresAt: '2999-01-01T00:00:00Z', alsoStartRun: false }],
		['an expiry in the past', { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: 'http://127.0.0.1/', expiresAt: '2001-01-01T00:00:00Z', alsoStartRun: false }],
		['Also Start as text', { instance: INSTANCE, chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: 'http://127.0.0.1/', expiresAt: '2999-01-01T00:00:00Z', alsoStartRun: 'yes' }],
	])('a malformed registration (%s) is refused with 400 and stores nothing', async (_what, wait) => {
		const refused = await s.harness.post('production', JSON.stringify({ messagingInstanceWait: wait }), { query: { secret: secretOf(s) } });
		expect(refused.status).toBe(400);
		expect(storedWaits()).toEqual([]);
		expect(s.harness.emitted).toEqual([]);
	});

	test('the waiting webhook takes only a well-formed reply posted to it; opening it shows where to answer', async () => {
		const options = optionsFor({ message: 'Ok?' });
		await waitingRun(options);
		const resumeUrl = storedWaits()[0].resumeUrl as string;
		const { openLink } = await import('../harness/waiting');
		const page = await openLink(options, resumeUrl);
		expect(page.status).toBe(400);
		expect(page.html).toContain('This question is answered by replying to the message in the chat.');
		expect(page.workflowData).toBeUndefined();
		for (const body of [{}, { messagingInstanceReply: { json: 'text' } }, { messagingInstanceReply: { json: {}, binary: { data: { data: '%%%', mimeType: 'image/png' } } } }]) {
			const answer = await postJson(options, resumeUrl, body);
			expect(answer.status).toBe(400);
			expect(answer.workflowData).toBeUndefined();
		}
	});
});
