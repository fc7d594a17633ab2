/** Send and Wait for Response answered in the chat (`chatReply`): the reply resumes the waiting execution. */
import type { IDataObject } from 'n8n-workflow';

import { resume, signatureValid } from '../harness/waiting';
import { INSTANCE, secretOf } from '../trigger/helpers';
import {
	answers,
	ASKED,
	bodyOf,
	calls,
	executionGone,
	executionStillRunning,
	expectNoSecret,
	optionsFor,
	OTHER,
	PNG,
	s,
	storedWaits,
	useChatReplySetup,
	waitingRun,
} from './chatReplySetup';

useChatReplySetup();

describe('Send and Wait for Response: Reply in the Chat', () => {
	test('registers with the trigger before sending, waits, and the contact\'s text reply resumes it as the trigger\'s item', async () => {
		const options = optionsFor({ message: 'Can you come on Friday?' });
		const waiting = await waitingRun(options);

		expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`, `POST /message/sendText/${INSTANCE}`]);
		expect(bodyOf(`/message/sendText/${INSTANCE}`)).toEqual({ number: ASKED, text: 'Can you come on Friday?', linkPreview: false });
		// The registration reached the trigger with its secret and answered; no run started.
		const registration = s.harness.received.find((received) => (received.body as IDataObject).messagingInstanceWait !== undefined);
		expect(registration?.status).toBe(200);
		expect(registration?.response).toEqual({ waiting: true });
		expect(registration?.items).toBeUndefined();
		const wait = (registration?.body as IDataObject).messagingInstanceWait as IDataObject;
		expect(wait).toEqual({
			instance: INSTANCE,
			chatId: `${ASKED}@s.whatsapp.net`,
			resumeUrl: expect.stringMatching(new RegExp(`^${s.harness.baseUrl}/webhook-waiting/exec-1/node\\?signature=[0-9a-f]{64}$`)),
			expiresAt: expect.any(String),
			alsoStartRun: false,
		});
		expect(signatureValid(wait.resumeUrl as string)).toBe(true);
		// What the trigger stored: the chat, the resume URL, the expiry; no secret.
		expect(storedWaits()).toEqual([
			{ chatId: `${ASKED}@s.whatsapp.net`, resumeUrl: wait.resumeUrl, expiresAt: wait.expiresAt, alsoStartRun: false, since: expect.any(String) },
		]);
		expectNoSecret(s.harness.persistedStaticData);

		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'Yes, at 10', pushName: 'Ana', id: '3AREPLY0001' });
		expect(s.harness.waitingRequests.map((request) => [request.link, request.status])).toEqual([[wait.resumeUrl, 200]]);
		expect(s.harness.waitingRequests[0].answer).toEqual({ resumed: true });
		// The reply resumed the execution and started no run of the trigger's workflow.
		expect(s.harness.emitted).toEqual([]);
		expect(storedWaits()).toEqual([]);

		const [{ answer }] = answers;
		const resumed = await resume(options, waiting, answer.workflowData!);
		expect(resumed.run.status).toBe('success');
		expect(resumed.items).toHaveLength(1);
		expect(resumed.items[0].json).toMatchObject({
			event: 'messages.upsert',
			instance: INSTANCE,
			chatId: `${ASKED}@s.whatsapp.net`,
			fromMe: false,
			messageId: '3AREPLY0001',
			pushName: 'Ana',
			text: 'Yes, at 10',
			choice: null,
		});
		expect(resumed.items[0].binary).toBeUndefined();
		expectNoSecret(resumed.items);
	});

	test('a photo as the reply arrives as binary data in the resumed item', async () => {
		const options = optionsFor({ message: 'Send a photo of the receipt' });
		const waiting = await waitingRun(options);
		await s.sandbox.injectMessage(INSTANCE, {
			from: ASKED,
			id: '3APHOTO0001',
			media: { kind: 'image', mimetype: 'image/png', base64: PNG.toString('base64'), caption: 'here' },
		});
		const [{ answer }] = answers;
		const resumed = await resume(options, waiting, answer.workflowData!);
		const item = resumed.items[0];
		expect(item.json).toMatchObject({ messageType: 'imageMessage', text: 'here', media: { kind: 'image', mimeType: 'image/png' } });
		expect(item.binary?.data).toMatchObject({ mimeType: 'image/png', fileName: expect.stringMatching(/\.png$/) });
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(PNG)).toBe(true);
		// The file went to the waiting execution only, not a second time in the JSON.
		expect(JSON.stringify(item.json)).not.toContain(PNG.toString('base64'));
	});

	test('choices go out numbered; a reply by number or by text is output as the choice', async () => {
		const parameters = { message: 'Which day?', choices: { values: [{ choice: 'Monday' }, { choice: 'Tuesday' }] } };
		const first = optionsFor(parameters);
		const waiting = await waitingRun(first);
		expect(bodyOf(`/message/sendText/${INSTANCE}`).text).toBe('Which day?\n\n1. Monday\n2. Tuesday\n\n_Reply with the number or the text of your choice._');
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: ' 2 ' });
		const resumed = await resume(first, waiting, answers[0].answer.workflowData!);
		expect(resumed.items[0].json).toMatchObject({ text: ' 2 ', choice: 'Tuesday' });

		const second = optionsFor(parameters, 'exec-2');
		await waitingRun(second);
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'monday' });
		expect(answers[1].answer.workflowData?.[0][0].json).toMatchObject({ text: 'monday', choice: 'Monday' });

		const third = optionsFor(parameters, 'exec-3');
		await waitingRun(third);
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'maybe Wednesday' });
		expect(answers[2].answer.workflowData?.[0][0].json).toMatchObject({ text: 'maybe Wednesday', choice: null });
	});

	test('choices written as expressions of the item go out resolved; the reply still resumes the run (choice unknown there: null)', async () => {
		const options = optionsFor({ message: 'Colour?', choices: { values: [{ choice: '={{ $json.first }}' }, { choice: '={{ $json.second }}' }] } }, 'exec-1', {
			items: [{ first: 'Red', second: 'Blue' }],
		});
		const waiting = await waitingRun(options);
		expect(bodyOf(`/message/sendText/${INSTANCE}`).text).toBe('Colour?\n\n1. Red\n2. Blue\n\n_Reply with the number or the text of your choice._');
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: '2' });
		expect(s.harness.waitingRequests.map((request) => request.status)).toEqual([200]);
		const resumed = await resume(options, waiting, answers[0].answer.workflowData!);
		expect(resumed.items[0].json).toMatchObject({ text: '2' });
		expect(resumed.items[0].json.choice).toBeNull();
	});

	test('as a poll: the message is the question, the choices its options; picking an option\'s text is the choice', async () => {
		const options = optionsFor({ message: 'Lunch?', choices: { values: [{ choice: 'Pizza' }, { choice: 'Salad' }] }, options: { choicesAs: 'poll' } });
		await waitingRun(options);
		expect(calls()).toEqual([`GET /webhook/find/${INSTANCE}`, `POST /message/sendPoll/${INSTANCE}`]);
		expect(bodyOf(`/message/sendPoll/${INSTANCE}`)).toEqual({ number: ASKED, name: 'Lunch?', selectableCount: 1, values: ['Pizza', 'Salad'] });
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'Salad' });
		expect(answers[0].answer.workflowData?.[0][0].json).toMatchObject({ choice: 'Salad' });
	});

	test('another contact\'s message does not resume it: it starts a run as usual, and the right contact\'s still resumes', async () => {
		const options = optionsFor({ message: 'Approve?' });
		await waitingRun(options);
		await s.sandbox.injectMessage(INSTANCE, { from: OTHER, text: 'hello?' });
		expect(s.harness.waitingRequests).toEqual([]);
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['hello?']);
		expect(storedWaits()).toHaveLength(1);
		// The instance's own message in that chat does not answer either.
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'sent from the phone', fromMe: true });
		expect(s.harness.waitingRequests).toEqual([]);

		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'approved' });
		expect(answers.map(({ answer }) => answer.workflowData?.[0][0].json.text)).toEqual(['approved']);
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['hello?']);
	});

	test('two executions waiting on two contacts each get their own answer', async () => {
		const forAna = optionsFor({ message: 'Ana, ok?' }, 'exec-ana');
		const forBo = optionsFor({ message: 'Bo, ok?', number: OTHER }, 'exec-bo');
		const waitingAna = await waitingRun(forAna);
		const waitingBo = await waitingRun(forBo);
		expect(storedWaits().map((wait) => wait.chatId)).toEqual([`${ASKED}@s.whatsapp.net`, `${OTHER}@s.whatsapp.net`]);

		await s.sandbox.injectMessage(INSTANCE, { from: OTHER, text: 'Bo says yes' });
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'Ana says no' });
		expect(answers.map(({ executionId, answer }) => [executionId, answer.workflowData?.[0][0].json.text])).toEqual([
			['exec-bo', 'Bo says yes'],
			['exec-ana', 'Ana says no'],
		]);
		const bo = await resume(forBo, waitingBo, answers[0].answer.workflowData!);
		const ana = await resume(forAna, waitingAna, answers[1].answer.workflowData!);
		expect(bo.items[0].json.chatId).toBe(`${OTHER}@s.whatsapp.net`);
		expect(ana.items[0].json.chatId).toBe(`${ASKED}@s.whatsapp.net`);
		expect(s.harness.emitted).toEqual([]);
	});

	test('Also Start the Trigger\'s Workflow: the reply resumes the execution and starts a run too', async () => {
		await waitingRun(optionsFor({ message: 'Ok?', options: { alsoStartRun: true } }));
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'ok' });
		expect(answers).toHaveLength(1);
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['ok']);
	});

	test('an execution that is gone (n8n answers 404): the entry is dropped and the message starts a run as usual', async () => {
		await waitingRun(optionsFor({ message: 'Ok?' }));
		executionGone();
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'late answer' });
		expect(s.harness.waitingRequests.map((request) => request.status)).toEqual([404]);
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['late answer']);
		expect(storedWaits()).toEqual([]);
	});

	test('a reply faster than the execution reached its wait: the delivery is refused with 503 (the server delivers again), then resumes it', async () => {
		const options = optionsFor({ message: 'Ok?' });
		const waiting = await waitingRun(options);
		executionStillRunning(1);
		const first = await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'fast', id: '3AFAST00001' });
		expect(first?.attempts.map((attempt) => attempt.status)).toEqual([503]);
		expect(s.harness.emitted).toEqual([]);
		expect(storedWaits()).toHaveLength(1);
		// The server's retry of the same message.
		const again = await s.sandbox.injectMessage(INSTANCE, { from: ASKED, text: 'fast', id: '3AFAST00001' });
		expect(again?.attempts.map((attempt) => attempt.status)).toEqual([200]);
		expect(s.harness.waitingRequests.map((request) => request.status)).toEqual([409, 200]);
		const resumed = await resume(options, waiting, answers[0].answer.workflowData!);
		expect(resumed.items[0].json).toMatchObject({ text: 'fast', messageId: '3AFAST00001' });
		expect(s.harness.emitted).toEqual([]);
		expect(storedWaits()).toEqual([]);
	});

	test('a contact known by LID (2.3.6 names the chat by the LID): asked by number or by LID, the reply resumes the run', async () => {
		const lid = '123456789012345@lid';
		const byNumber = optionsFor({ message: 'By number?' }, 'exec-number');
		await waitingRun(byNumber);
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, lid, text: 'here' });
		expect(s.sandbox.deliveries.at(-1)?.body.data.key).toMatchObject({ remoteJid: lid, remoteJidAlt: `${ASKED}@s.whatsapp.net` });
		expect(answers.map(({ executionId, answer }) => [executionId, answer.workflowData?.[0][0].json.chatId])).toEqual([['exec-number', `${ASKED}@s.whatsapp.net`]]);

		const byLid = optionsFor({ message: 'By LID?', number: lid }, 'exec-lid');
		await waitingRun(byLid);
		expect(storedWaits().map((wait) => wait.chatId)).toEqual([lid]);
		await s.sandbox.injectMessage(INSTANCE, { from: ASKED, lid, text: 'here too' });
		expect(answers.map(({ executionId }) => executionId)).toEqual(['exec-number', 'exec-lid']);
		expect(s.harness.emitted).toEqual([]);
	});

	test('at most 500 waits are kept per trigger: the oldest gives way', async () => {
		const resumeUrl = `${s.harness.baseUrl}/webhook-waiting/exec-1/node?signature=${'0'.repeat(64)}`;
		const expiresAt = new Date(Date.now() + 60_000).toISOString();
		for (let index = 0; index < 503; index++) {
			const chatId = `55119${String(index).padStart(8, '0')}@s.whatsapp.net`;
			const posted = await s.harness.post('production', JSON.stringify({ messagingInstanceWait: { instance: INSTANCE, chatId, resumeUrl, expiresAt, alsoStartRun: false } }), {
				query: { secret: secretOf(s) },
			});
			expect(posted.status).toBe(200);
		}
		const chats = storedWaits().map((wait) => wait.chatId);
		expect(chats).toHaveLength(500);
		expect(chats[0]).toBe('5511900000003@s.whatsapp.net');
		expect(chats[499]).toBe('5511900000502@s.whatsapp.net');
	});

	test('with Limit Wait Time the entry expires with the wait; an expired entry answers nothing', async () => {
		const before = Date.now();
		await waitingRun(optionsFor({ message: 'Quick?', options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'minutes' } } } }));
		const [stored] = storedWaits();
		const expires = new Date(stored.expiresAt as string).getTime();
		expect(expires).toBeGreaterThanOrEqual(before + 60_000);
		expect(expires).toBeLessThanOrEqual(Date.now() + 60_000);

		// An entry whose time has passed, as a registration that expires at once leaves it.
		const resumeUrl = stored.resumeUrl as string;
		const soon = new Date(Date.now() + 300).toISOString();
		const posted = await s.harness.post('production', JSON.stringify({ messagingInstanceWait: { instance: INSTANCE, chatId: `${OTHER}@s.whatsapp.net`, resumeUrl, expiresAt: soon, alsoStartRun: false } }), {
			query: { secret: secretOf(s) },
		});
		expect(posted).toEqual({ status: 200, body: { waiting: true } });
		await new Promise((resolve) => setTimeout(resolve, 400));
		await s.sandbox.injectMessage(INSTANCE, { from: OTHER, text: 'too late' });
		expect(s.harness.waitingRequests).toEqual([]);
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['too late']);
		expect(storedWaits().map((wait) => wait.chatId)).toEqual([`${ASKED}@s.whatsapp.net`]);
	});
});
