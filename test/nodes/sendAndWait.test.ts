import { WAIT_INDEFINITELY } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { runNode, type NodeRun, type RunNodeOptions } from '../harness/engine';
import { openLink, resume, signatureValid, timeOut, waitingLinks } from '../harness/waiting';
import { credentialsFor, sent, useSandbox } from './helpers';

const sandbox = useSandbox('v2');

const LINK = /http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/exec-1\/node\?approved=(true|false)&signature=[0-9a-f]{64}/;
/** The error item of a recipient that is not a number. */
const NUMBER_ERROR = { error: expect.stringMatching(/^"Number" .*\[item 0\]$/), description: expect.stringContaining('country code') };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function optionsFor(parameters: INodeParameters, items?: IDataObject[], extra: Partial<RunNodeOptions> = {}): RunNodeOptions {
	return {
		parameters: { resource: 'message', operation: 'sendAndWait', instance: 'demo', number: '5511999990000', ...parameters },
		items,
		credentials: credentialsFor(sandbox.current),
		...extra,
	};
}

/** The texts the sandbox received, in order. */
function sentTexts(): string[] {
	return sent(sandbox.current).map((request) => (request.body as IDataObject).text as string);
}

/** Runs the node until it waits; the run must be waiting and have sent one message per item. */
async function waitingRun(options: RunNodeOptions): Promise<NodeRun> {
	const run = await runNode(options);
	expect(run.error).toBeUndefined();
	expect(run.run.status).toBe('waiting');
	return run;
}

describe('Send and Wait for Response: approval', () => {
	test('a new node sends the question with an approve link and waits without a limit', async () => {
		const options = optionsFor({ message: 'Pay the invoice of 120 EUR?' });
		const run = await waitingRun(options);

		const requests = sent(sandbox.current);
		expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /message/sendText/demo']);
		const body = requests[0].body as IDataObject;
		const [link] = waitingLinks(body.text as string);
		expect(body).toEqual({
			number: '5511999990000',
			text: `Pay the invoice of 120 EUR?\n\n*✓ Approve:*\n${link}`,
			linkPreview: false,
		});
		expect(link).toMatch(LINK);
		expect(new URL(link).searchParams.get('approved')).toBe('true');
		expect(signatureValid(link)).toBe(true);

		expect(run.run.data.waitTill).toEqual(WAIT_INDEFINITELY);
		// While it waits, the node shows what the server answered for the message sent.
		expect(run.items).toHaveLength(1);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		expect((run.items[0].json.key as IDataObject).remoteJid).toBe('5511999990000@s.whatsapp.net');
	});

	test('opening the link shows the question and a button; only the button answers', async () => {
		const options = optionsFor({ message: 'Pay <b>120</b> EUR?\nReply soon.' });
		await waitingRun(options);
		const [link] = waitingLinks(sentTexts()[0]);

		const page = await openLink(options, link);
		expect(page.status).toBe(200);
		expect(page.workflowData).toBeUndefined();
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
		expect(page.html).toContain('<p>Pay &#60;b&#62;120&#60;/b&#62; EUR?<br>Reply soon.</p>');
		expect(page.html).toContain('<form method="post" enctype="multipart/form-data">');
		expect(page.html).toContain('<button type="submit" class="approve">✓ Approve</button>');
		expect(page.html).not.toContain('<script');
	});

	test('the button answers the page and the execution resumes with { data: { approved: true } }', async () => {
		const options = optionsFor({ message: 'Deploy?' });
		const waiting = await waitingRun(options);
		const [link] = waitingLinks(sentTexts()[0]);

		const answer = await openLink(options, link, []);
		expect(answer.status).toBe(200);
		expect(answer.html).toContain('<h1>Got it, thanks</h1>');
		expect(answer.workflowData).toEqual([[{ json: { data: { approved: true, respondedAt: expect.stringMatching(ISO) } } }]]);

		const resumed = await resume(options, waiting, answer.workflowData!);
		expect(resumed.run.status).toBe('success');
		expect(resumed.items.map((item) => item.json)).toEqual([{ data: { approved: true, respondedAt: expect.stringMatching(ISO) } }]);
	});

	test('approve and disapprove: two links with their labels; the decline link answers approved: false', async () => {
		const options = optionsFor({
			message: 'Ship it?',
			approvalOptions: { values: { approvalType: 'double', approveLabel: 'Yes, ship', disapproveLabel: 'No' } },
		});
		const waiting = await waitingRun(options);
		const text = sentTexts()[0];
		const [approve, decline] = waitingLinks(text);
		expect(text).toBe(`Ship it?\n\n*Yes, ship:*\n${approve}\n\n*No:*\n${decline}`);
		expect(new URL(approve).searchParams.get('approved')).toBe('true');
		expect(new URL(decline).searchParams.get('approved')).toBe('false');

		const page = await openLink(options, decline);
		expect(page.html).toContain('<button type="submit" class="decline">No</button>');
		const answer = await openLink(options, decline, []);
		const resumed = await resume(options, waiting, answer.workflowData!);
		expect(resumed.items.map((item) => item.json)).toEqual([{ data: { approved: false, respondedAt: expect.stringMatching(ISO) } }]);
	});

	test('a link whose answer was changed is refused by its signature, and a bare address answers nothing', async () => {
		const options = optionsFor({ message: 'Deploy?' });
		await waitingRun(options);
		const [link] = waitingLinks(sentTexts()[0]);
		const changed = link.replace('approved=true', 'approved=false');
		expect((await openLink(options, changed, [])).status).toBe(401);

		// Signed but without an answer in the query (n8n signs what the node asks for).
		const bare = await openLink(options, link.replace(/approved=true&/, ''), []);
		expect(bare.status).toBe(401);
	});
});

describe('Send and Wait for Response: free text and custom form', () => {
	test('free text: the link opens a form with one text area; the answer resumes with data.text', async () => {
		const options = optionsFor({
			message: 'Why was the order late?',
			responseType: 'freeText',
			options: { messageButtonLabel: 'Answer here', responseFormTitle: 'Late order', responseFormButtonLabel: 'Send' },
		});
		const waiting = await waitingRun(options);
		const text = sentTexts()[0];
		const [link] = waitingLinks(text);
		expect(text).toBe(`Why was the order late?\n\n*Answer here:*\n${link}`);

		const form = await openLink(options, link);
		expect(form.status).toBe(200);
		expect(form.html).toContain('<title>Late order</title>');
		expect(form.html).toContain('<p>Why was the order late?</p>');
		expect(form.html).toContain('<textarea id="f0" name="field-0" required></textarea>');
		expect(form.html).toContain('<button type="submit">Send</button>');

		const empty = await openLink(options, link, [['field-0', '   ']]);
		expect(empty.status).toBe(400);
		expect(empty.workflowData).toBeUndefined();
		expect(empty.html).toContain('<p class="problem">&#34;Response&#34; is required.</p>');

		const answer = await openLink(options, link, [['field-0', 'The truck broke down.\nSorry!']]);
		expect(answer.status).toBe(200);
		const resumed = await resume(options, waiting, answer.workflowData!);
		expect(resumed.items.map((item) => item.json)).toEqual([
			{ data: { text: 'The truck broke down.\nSorry!', respondedAt: expect.stringMatching(ISO) } },
		]);
	});

	const formFields = {
		values: [
			{ fieldLabel: 'Name', fieldType: 'text', requiredField: true, placeholder: 'Your name' },
			{ fieldLabel: 'Guests', fieldType: 'number' },
			{ fieldLabel: 'Menu', fieldType: 'dropdown', fieldOptions: { values: [{ option: 'Fish' }, { option: 'Veggie' }] }, requiredField: true },
			{ fieldLabel: 'Extras', fieldType: 'checkbox', fieldOptions: { values: [{ option: 'Wine' }, { option: 'Dessert' }] } },
			{ fieldLabel: 'Date', fieldType: 'date' },
		],
	};

	test('custom form: the form shows the fields; the answer resumes with each field by its name', async () => {
		const options = optionsFor({ message: 'Dinner on Friday?', responseType: 'customForm', formFields });
		const waiting = await waitingRun(options);
		const [link] = waitingLinks(sentTexts()[0]);
		expect(sentTexts()[0]).toBe(`Dinner on Friday?\n\n*Respond:*\n${link}`);

		const form = await openLink(options, link);
		expect(form.html).toContain('<input id="f0" type="text" name="field-0" placeholder="Your name" required>');
		expect(form.html).toContain('<input id="f1" type="number" name="field-1" step="any">');
		expect(form.html).toContain('<select id="f2" name="field-2" required><option value=""></option><option value="Fish">Fish</option><option value="Veggie">Veggie</option></select>');
		expect(form.html).toContain('<label class="choice"><input type="checkbox" name="field-3" value="Dessert"> Dessert</label>');
		expect(form.html).toContain('<input id="f4" type="date" name="field-4">');

		const wrong = await openLink(options, link, [['field-0', 'Ana'], ['field-2', 'Beef']]);
		expect(wrong.status).toBe(400);
		expect(wrong.html).toContain('&#34;Menu&#34; has no option &#34;Beef&#34;.');
		expect(wrong.workflowData).toBeUndefined();

		const answer = await openLink(options, link, [
			['field-0', '  Ana '],
			['field-1', '3'],
			['field-2', 'Veggie'],
			['field-3', 'Wine'],
			['field-3', 'Dessert'],
		]);
		expect(answer.status).toBe(200);
		const resumed = await resume(options, waiting, answer.workflowData!);
		expect(resumed.items.map((item) => item.json)).toEqual([
			{ data: { Name: 'Ana', Guests: 3, Menu: 'Veggie', Extras: ['Wine', 'Dessert'], Date: null, respondedAt: expect.stringMatching(ISO) } },
		]);
	});

	test('hostile answers are refused with the form again and the run keeps waiting', async () => {
		const options = optionsFor({ message: 'Dinner?', responseType: 'customForm', formFields });
		await waitingRun(options);
		const [link] = waitingLinks(sentTexts()[0]);
		const cases: Array<[Array<[string, string]>, string]> = [
			[[['field-0', 'x'.repeat(20_001)]], '&#34;Name&#34; is longer than 20000 characters.'],
			[[['field-0', 'Ana'], ['field-0', 'Bo'], ['field-2', 'Fish']], '&#34;Name&#34; takes one answer.'],
			[[['field-0', 'Ana'], ['field-1', '1e400'], ['field-2', 'Fish']], '&#34;Guests&#34; must be a number.'],
			[[['field-0', 'Ana'], ['field-2', 'Fish'], ['field-2', 'Veggie']], '&#34;Menu&#34; takes one option.'],
			[[['field-0', 'Ana'], ['field-2', 'Fish'], ['field-4', '31/12/2030']], '&#34;Date&#34; must be a date (YYYY-MM-DD).'],
			[[['field-0', 'Ana'], ['field-2', 'Fish'], ['field-3', '<script>alert(1)</script>']], '&#34;Extras&#34; has no option &#34;&#60;script&#62;alert(1)&#60;/script&#62;&#34;.'],
		];
		for (const [fields, problem] of cases) {
			const answer = await openLink(options, link, fields);
			expect({ status: answer.status, problem: /<p class="problem">(.*)<\/p>/.exec(answer.html)?.[1] }).toEqual({ status: 400, problem });
			expect(answer.workflowData).toBeUndefined();
			expect(answer.html).not.toContain('<script>');
		}
	});

	test('the response types offered are approval, free text, custom form and the reply in the chat', () => {
		const responseType = new MessagingInstance().description.properties.find((property) => property.name === 'responseType');
		expect(responseType?.options?.map((option) => ('value' in option ? option.value : undefined))).toEqual(['approval', 'customForm', 'freeText', 'chatReply']);
	});

	test('a custom form without fields fails before anything is sent', async () => {
		const run = await runNode(optionsFor({ message: 'Dinner?', responseType: 'customForm' }));
		expect(run.error?.message).toBe('"Form Fields" needs at least one field [item 0]');
		expect(sent(sandbox.current)).toEqual([]);
		expect(run.run.status).toBe('error');
	});
});

describe('Send and Wait for Response: Limit Wait Time', () => {
	test('after an interval: the execution waits until then', async () => {
		const before = Date.now();
		const run = await waitingRun(
			optionsFor({ message: 'Deploy?', options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' } } } }),
		);
		const waitTill = new Date(run.run.data.waitTill as Date).getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
	});

	test('at a date: the execution waits until that date', async () => {
		const date = new Date(Math.floor(Date.now() / 1000) * 1000 + 3 * 86_400_000).toISOString();
		const run = await waitingRun(
			optionsFor({ message: 'Deploy?', options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: date } } } }),
		);
		expect(run.run.data.waitTill).toEqual(new Date(date));
	});

	test.each([
		[{ limitType: 'atSpecifiedTime', maxDateAndTime: 'next friday' }, '"Options: Limit Wait Time: Max Date and Time" is not a date: "next friday" [item 0]'],
		[{ limitType: 'atSpecifiedTime', maxDateAndTime: '2001-01-01T00:00:00Z' }, '"Options: Limit Wait Time: Max Date and Time" is in the past [item 0]'],
		[{ limitType: 'afterTimeInterval', resumeAmount: -1, resumeUnit: 'hours' }, '"Options: Limit Wait Time: Amount" must be at least 0 [item 0]'],
		[{ limitType: 'afterTimeInterval', resumeAmount: 400, resumeUnit: 'days' }, '"Options: Limit Wait Time: Amount" is more than a year [item 0]'],
		[{ limitType: 'atSpecifiedTime', maxDateAndTime: '2999-01-01T00:00:00Z' }, '"Options: Limit Wait Time: Max Date and Time" is more than a year away [item 0]'],
	])('%j fails before anything is sent', async (values, message) => {
		const run = await runNode(optionsFor({ message: 'Deploy?', options: { limitWaitTime: { values } } }));
		expect(run.error?.message).toBe(message);
		expect(sent(sandbox.current)).toEqual([]);
	});

	test('when the limit passes, the execution goes on with the node\'s input items (as n8n\'s nodes do)', async () => {
		const options = optionsFor(
			{ message: 'Deploy?', options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'minutes' } } } },
			[{ ticket: 7 }],
		);
		const waiting = await waitingRun(options);
		const resumed = await timeOut(options, waiting);
		expect(resumed.run.status).toBe('success');
		expect(resumed.items.map((item) => item.json)).toEqual([{ ticket: 7 }]);
	});
});

describe('Send and Wait for Response: several items', () => {
	test('each item sends its own message with the same links; the execution waits once and the first answer resumes it', async () => {
		const options = optionsFor({ number: '={{ $json.phone }}', message: '={{ "Approve trip of " + $json.name + "?" }}' }, [
			{ phone: '5511999990001', name: 'Ana' },
			{ phone: '5511999990002', name: 'Bo' },
		]);
		const waiting = await waitingRun(options);
		const requests = sent(sandbox.current).map((request) => request.body as IDataObject);
		expect(requests.map((body) => body.number)).toEqual(['5511999990001', '5511999990002']);
		const [first, second] = requests.map((body) => body.text as string);
		expect(first).toMatch(/^Approve trip of Ana\?\n\n\*✓ Approve:\*\n/);
		expect(second).toMatch(/^Approve trip of Bo\?\n\n\*✓ Approve:\*\n/);
		expect(waitingLinks(first)).toEqual(waitingLinks(second));
		expect(waiting.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);

		const answer = await openLink(options, waitingLinks(second)[0], []);
		const resumed = await resume(options, waiting, answer.workflowData!);
		expect(resumed.items.map((item) => item.json)).toEqual([{ data: { approved: true, respondedAt: expect.stringMatching(ISO) } }]);
	});

	test('with Continue On Fail, a bad item is an error item and the others still wait', async () => {
		const options = optionsFor({ number: '={{ $json.phone }}', message: 'Deploy?' }, [{ phone: 'not a number' }, { phone: '5511999990002' }], {
			continueOnFail: true,
		});
		const waiting = await waitingRun(options);
		expect(sent(sandbox.current)).toHaveLength(1);
		expect(waiting.items[0]).toEqual({ json: NUMBER_ERROR, pairedItem: { item: 0 } });
	});

	test('with Continue On Fail and every send failed, nobody can answer: no wait', async () => {
		const run = await runNode(optionsFor({ number: 'not a number', message: 'Deploy?' }, undefined, { continueOnFail: true }));
		expect(run.run.status).toBe('success');
		expect(run.run.data.waitTill).toBeUndefined();
		expect(run.items).toEqual([{ json: NUMBER_ERROR, pairedItem: { item: 0 } }]);
		expect(sent(sandbox.current)).toEqual([]);
	});
});

describe('Send and Wait for Response: the node description', () => {
	const description = new MessagingInstance().description;

	test('declares n8n\'s waiting webhooks (GET and POST at the node id, restarting the execution)', () => {
		expect(description.webhooks).toEqual(
			['GET', 'POST'].map((httpMethod) => ({
				name: 'default',
				httpMethod,
				responseMode: 'onReceived',
				responseData: '',
				path: '={{ $nodeId }}',
				restartWebhook: true,
				isFullPath: true,
			})),
		);
	});

	// n8n 2.x makes a "Human in the Loop" tool (`<name>HitlTool`) of every loaded node whose
	// description has webhooks and an operation option `sendAndWait`; it fills `message`
	// itself and fixes `responseType` to `approval` (n8n's tool-generation/hitl-tools).
	test('qualifies for n8n\'s human-review tool: webhooks, the sendAndWait operation, message and responseType', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.name.endsWith('Tool')).toBe(false);
		const operations = description.properties.filter((property) => property.name === 'operation');
		const withSendAndWait = operations.filter((property) =>
			(property.options ?? []).some((option) => 'value' in option && option.value === 'sendAndWait'),
		);
		expect(withSendAndWait.map((property) => property.displayOptions?.show?.resource)).toEqual([['message']]);
		const names = description.properties.filter((property) => property.displayOptions?.show?.operation?.includes('sendAndWait')).map((property) => property.name);
		expect(names).toEqual(expect.arrayContaining(['number', 'message', 'responseType', 'approvalOptions', 'options']));
	});
});
