import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/sandbox';

import { fieldsOf, OPERATIONS } from '../../nodes/MessagingInstance/actions/index';
import { CHECK_BATCH } from '../../nodes/MessagingInstance/actions/message/sending/accounts';
import { MESSAGE_IDS, runNode } from '../harness/engine';
import { useHostileServer } from '../hostile/server';
import { credentialsFor, run, useSandbox } from './helpers';

/**
 * Sending to many: the Sending options every send gets from the registry (pace, typing, rate
 * limits and Retry-After, the account check before the first send, stop after failures), run
 * through n8n's engine against the sandbox, which refuses sends as WhatsApp does. Times are
 * short bounds (tenths of a second), never real minutes.
 */

const sends = (sandbox: Sandbox) => sandbox.requests.filter((r) => r.path.startsWith('/message/send'));
const numbersOf = (count: number) => Array.from({ length: count }, (_, i) => ({ to: `55119999900${String(i).padStart(2, '0')}` }));
const text = (sending: INodeParameters, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'sendText',
	number: '={{ $json.to }}',
	text: '=Hello {{ $itemIndex }}',
	sending,
	...extra,
});

describe('the registry gives every send the Sending options', () => {
	const sendRoutes = OPERATIONS.filter((operation) => typeof operation.path === 'string' && operation.path.startsWith('/message/send'));

	test('every operation that sends a message to a contact declares it, so none is left without the options', () => {
		// A reaction marks a message already sent; Send and Wait pauses the execution for an answer.
		const notCampaignSends = new Set(['sendReaction', 'sendAndWait']);
		for (const operation of sendRoutes.filter((candidate) => !notCampaignSends.has(candidate.value))) {
			expect({ operation: operation.value, sends: operation.sendsMessage !== undefined }).toEqual({ operation: operation.value, sends: true });
		}
	});

	test.each(OPERATIONS.filter((operation) => operation.sendsMessage).map((operation) => [operation.value, operation] as const))(
		'%s has the Sending collection, empty on a fresh node, with its options as its send can honour them',
		(_value, operation) => {
			const sending = fieldsOf(operation).find((property) => property.name === 'sending') as INodeProperties;
			expect(sending).toMatchObject({ type: 'collection', default: {} });
			const names = (sending.options as INodeProperties[]).map((option) => option.name);
			expect(names.includes('typeLikePerson')).toBe(operation.sendsMessage?.typing !== undefined);
			expect(names.includes('onlyNumbersWithAccount')).toBe(operation.sendsMessage?.toNumber === true);
			expect(names).toEqual(expect.arrayContaining(['pauseMinSeconds', 'pauseMaxSeconds', 'rateLimitRetries', 'stopAfterFailures']));
			// The options the operation had are untouched.
			expect(fieldsOf(operation).filter((property) => property.name !== 'sending' && property.type !== 'notice')).toEqual(operation.properties);
		},
	);

	test('lists, buttons and carousels warn that WhatsApp does not show them on every account', () => {
		const noticed = OPERATIONS.filter((operation) => fieldsOf(operation).some((property) => property.name === 'accountsNotice')).map((operation) => operation.value);
		expect(noticed.sort()).toEqual(['sendButtons', 'sendCarousel', 'sendList']);
	});
});

describe('sending to many (v2)', () => {
	const sandbox = useSandbox('v2');
	beforeEach(() => sandbox.current.reset());

	test('a fresh node (Sending never opened) sends as before: no check, no pause, no typing, no outcome field', async () => {
		const items = [{ to: '5511999990001' }, { to: '0511999990002' }];
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '={{ $json.to }}', text: 'hi' }, { items, continueOnFail: true });
		expect(sandbox.current.requests.map((r) => [r.path, r.body])).toEqual([
			['/message/sendText/demo', { number: '5511999990001', text: 'hi', messageId: MESSAGE_IDS[0] }],
			['/message/sendText/demo', { number: '0511999990002', text: 'hi', messageId: MESSAGE_IDS[1] }],
		]);
		expect(result.items[0].json.outcome).toBeUndefined();
		expect(result.items[0].json.messageId).toBe((result.items[0].json.key as IDataObject).id);
		expect(Object.keys(result.items[1].json).sort()).toEqual(['description', 'error', 'httpCode']);
	});

	test('Pace: the first message goes at once, each next one a random time inside the window after the answer to the one before', async () => {
		const started = Date.now();
		const result = await run(sandbox.current, text({ pauseMinSeconds: 0.2, pauseMaxSeconds: 0.35 }), { items: numbersOf(4) });
		expect(result.error).toBeUndefined();
		const at = sends(sandbox.current).map((r) => r.at);
		expect(at).toHaveLength(4);
		expect(at[0] - started).toBeLessThan(2000);
		for (let i = 1; i < at.length; i++) {
			expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(195);
			expect(at[i] - at[i - 1]).toBeLessThan(350 + 150);
		}
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent', 'sent', 'sent', 'sent']);
	});

	test('Pace: stopping the execution ends a pause at once; nothing more is sent', async () => {
		const started = Date.now();
		const result = await runNode({
			parameters: { instance: 'demo', ...text({ pauseMinSeconds: 60, pauseMaxSeconds: 60 }) },
			items: numbersOf(3),
			credentials: credentialsFor(sandbox.current),
			cancelAfterMs: 700,
		});
		expect(Date.now() - started).toBeLessThan(5000);
		expect(sends(sandbox.current)).toHaveLength(1);
		expect(result.items).toHaveLength(0);
	});

	test('Typing: the server is asked for a delay that grows with the text, inside the bounds; a Delay the user set wins', async () => {
		await run(sandbox.current, text({ typeLikePerson: true, typingMinSeconds: 0.1, typingMaxSeconds: 2 }, { text: '={{ "x".repeat($itemIndex * 3 + 1) }}' }), { items: numbersOf(3) });
		// 0.1 s, plus 0.3 s a character, at most 2 s
		expect(sends(sandbox.current).map((r) => (r.body as IDataObject).delay)).toEqual([400, 1300, 2000]);

		sandbox.current.clearRequests();
		await run(sandbox.current, text({ typeLikePerson: true, typingMinSeconds: 0.1, typingMaxSeconds: 0.5 }, { options: { delay: 40 } }), { items: numbersOf(1) });
		expect((sends(sandbox.current)[0].body as IDataObject).delay).toBe(40);
	});

	test('Typing before a voice note uses the route whose delay shows "recording…"; the sends without typing have no such option', () => {
		const audio = OPERATIONS.find((operation) => operation.value === 'sendAudio');
		expect(audio?.sendsMessage?.typing).toBe('recording');
		const untyped = OPERATIONS.filter((operation) => operation.sendsMessage && !operation.sendsMessage.typing).map((operation) => operation.value);
		// The server ignores `delay` for these (contactMessage passes no options, a status goes to status@broadcast, a template is Meta's).
		expect(untyped.sort()).toEqual(['sendContact', 'sendStatus', 'sendTemplate']);
	});

	test('Rate limits: a rate-overlimit refusal waits, looks the message up, and sends again; every item goes once', async () => {
		sandbox.current.refuseSends({ kind: 'rateOverlimit', after: 1, times: 2 });
		const result = await run(sandbox.current, text({ rateLimitRetries: 3, rateLimitWaitSeconds: 0.05 }), { items: numbersOf(3) });
		expect(result.error).toBeUndefined();
		const paths = sandbox.current.requests.map((r) => r.path);
		expect(paths).toEqual([
			'/message/sendText/demo',
			'/message/sendText/demo',
			'/chat/findMessages/demo',
			'/message/sendText/demo',
			'/chat/findMessages/demo',
			'/message/sendText/demo',
			'/message/sendText/demo',
		]);
		expect(sandbox.current.requests.map((r) => r.status)).toEqual([201, 400, 200, 400, 200, 201, 201]);
		// Each item went out once: three messages, each the output of its item.
		const out = sandbox.current.chat.filter((line) => line.direction === 'out');
		expect(out.map((line) => line.chat)).toEqual(numbersOf(3).map(({ to }) => `${to}@s.whatsapp.net`));
		expect(result.items.map((item) => [item.json.outcome, item.json.messageId])).toEqual(out.map((line) => ['sent', line.messageId]));
	});

	test('Rate limits: an HTTP 429 (a proxy in front of the server) is waited out too', async () => {
		sandbox.current.failNext({ status: 429, message: 'Too Many Requests', path: '/message/sendText' });
		const result = await run(sandbox.current, text({ rateLimitRetries: 1, rateLimitWaitSeconds: 0.02 }), { items: numbersOf(1) });
		expect(sends(sandbox.current).map((r) => r.status)).toEqual([429, 201]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent']);
	});

	test('Rate limits: when the retries are spent the item fails with the server\'s text', async () => {
		sandbox.current.refuseSends({ kind: 'rateOverlimit', times: 5 });
		const result = await run(sandbox.current, text({ rateLimitRetries: 1, rateLimitWaitSeconds: 0.02 }), { items: numbersOf(1), continueOnFail: true });
		expect(sends(sandbox.current)).toHaveLength(2);
		expect(result.items[0].json).toMatchObject({ outcome: 'failed', error: 'Error: rate-overlimit (HTTP 400)', httpCode: '400' });
	});

	test('Only numbers with an account: one Check Numbers request before the first send; a number without one is skipped, not an error', async () => {
		const items = [{ to: '5511999990001' }, { to: '0511999990002' }, { to: '+55 11 99999-0001' }, { to: '5511999990003' }];
		const result = await run(sandbox.current, text({ onlyNumbersWithAccount: true }), { items });
		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((r) => [r.path, r.path.startsWith('/chat') ? r.body : (r.body as IDataObject).number])).toEqual([
			['/chat/whatsappNumbers/demo', { numbers: ['5511999990001', '0511999990002', '5511999990003'] }],
			['/message/sendText/demo', '5511999990001'],
			['/message/sendText/demo', '5511999990001'],
			['/message/sendText/demo', '5511999990003'],
		]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent', 'skipped', 'sent', 'sent']);
		expect(result.items[1]).toEqual({
			json: { outcome: 'skipped', reason: 'The number has no WhatsApp account (checked before the first message)', number: '0511999990002' },
			pairedItem: { item: 1 },
		});
	});

	test(`Only numbers with an account: the numbers go in batches of ${CHECK_BATCH}`, async () => {
		await run(sandbox.current, text({ onlyNumbersWithAccount: true }, { text: 'x' }), { items: numbersOf(CHECK_BATCH + 5) });
		const checks = sandbox.current.requests.filter((r) => r.path.startsWith('/chat/whatsappNumbers'));
		expect(checks.map((r) => ((r.body as { numbers: string[] }).numbers).length)).toEqual([CHECK_BATCH, 5]);
		expect(sandbox.current.requests.indexOf(checks[1])).toBe(1);
	});

	test('Stop: after the set failures in a row that look like account trouble, nothing more is sent; the rest come out not sent', async () => {
		sandbox.current.refuseSends({ kind: 'loggedOut', after: 2 });
		const result = await run(sandbox.current, text({ stopAfterFailures: 2 }), { items: numbersOf(6), continueOnFail: true });
		expect(sends(sandbox.current).map((r) => r.status)).toEqual([201, 201, 500, 500]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent', 'sent', 'failed', 'failed', 'notSent', 'notSent']);
		expect(result.items[2].json.error).toBe('Connection Closed (HTTP 500)');
		expect(result.items[4]).toEqual({
			json: { outcome: 'notSent', reason: expect.stringMatching(/^Not sent: the run stopped after 2 failures in a row that look like account trouble \(the last: Connection Closed/) },
			pairedItem: { item: 4 },
		});
	});

	test('Stop: a failure of the message itself (a number without an account) is not account trouble and breaks the row', async () => {
		// WhatsApp refuses the 1st and the 3rd send that reach it; the bad number never reaches it.
		sandbox.current.refuseSends({ kind: 'rateOverlimit', times: 1 });
		sandbox.current.refuseSends({ kind: 'rateOverlimit', after: 1, times: 1 });
		const items = [{ to: '5511999990001' }, { to: '0511999990002' }, { to: '5511999990003' }, { to: '5511999990004' }];
		const result = await run(sandbox.current, text({ stopAfterFailures: 2 }), { items, continueOnFail: true });
		expect(result.items.map((item) => item.json.outcome)).toEqual(['failed', 'failed', 'failed', 'sent']);
		expect(sends(sandbox.current).map((r) => r.status)).toEqual([400, 400, 400, 201]);
	});

	test('Stop: without Continue On Fail the first failure stops the node as before', async () => {
		sandbox.current.refuseSends({ kind: 'loggedOut', after: 1 });
		const result = await run(sandbox.current, text({ stopAfterFailures: 3 }), { items: numbersOf(3) });
		expect(result.error?.message).toBe('Connection Closed (HTTP 500)');
		expect(sends(sandbox.current)).toHaveLength(2);
	});

	test.each([
		[{ pauseMinSeconds: 9, pauseMaxSeconds: 3 }, /Pause At Least \(Seconds\).*must not be more than/],
		[{ pauseMaxSeconds: 'soon' }, /Pause At Most \(Seconds\).*must be a number/],
		[{ rateLimitRetries: 1e9 }, /Retries on Rate Limit.*must be between 0 and 10/],
		[{ stopAfterFailures: 0.5 }, /Stop After Failures in a Row.*must be a whole number/],
		[{ typeLikePerson: 'yes please' }, /Type Like a Person.*must be true or false/],
		[{ typeLikePerson: true, typingMaxSeconds: 1e12 }, /Typing At Most \(Seconds\).*must be between 0 and 300/],
		[{ onlyNumbersWithAccount: { deep: [1] } }, /Only Numbers With an Account.*must be true or false/],
	])('Sending %j fails before any request, naming the field', async (sending, message) => {
		const result = await run(sandbox.current, text(sending as INodeParameters), { items: numbersOf(2) });
		expect(`${result.error?.message} ${result.error?.description ?? ''}`).toMatch(message);
		expect(sandbox.current.requests).toHaveLength(0);
	});
});

describe('sending to many (documented interface)', () => {
	const sandbox = useSandbox('documented');

	test('Only numbers with an account asks the documented route, and typing goes in the same `delay` field', async () => {
		const items = [{ to: '5511999990001' }, { to: '0511999990002' }];
		const result = await run(sandbox.current, text({ onlyNumbersWithAccount: true, typeLikePerson: true, typingMinSeconds: 0.1, typingMaxSeconds: 0.2 }, { text: 'hi' }), { items });
		expect(sandbox.current.requests.map((r) => [r.path, r.body])).toEqual([
			['/chat/messagingNumbers/demo', { numbers: ['5511999990001', '0511999990002'] }],
			['/message/sendText/demo', { number: '5511999990001', text: 'hi', delay: 200 }],
		]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent', 'skipped']);
	});
});

describe('sending to many behind a proxy that rate limits', () => {
	const hostile = useHostileServer();

	test('a 429 with Retry-After: 7 is waited out as the server asks (not the shorter first wait), then sent once', async () => {
		hostile.current.script('rate-limited');
		// The lookup before the retry finds nothing (an empty page of Find Messages); a send is answered as sent.
		hostile.current.answerAll((request) =>
			request.path.startsWith('/chat/findMessages')
				? { json: { messages: { total: 0, pages: 0, currentPage: 1, records: [] } } }
				: { json: { key: { id: 'OK1' }, status: 'PENDING' } },
		);
		const started = Date.now();
		const result = await runNode({
			parameters: { instance: 'demo', ...text({ rateLimitRetries: 1, rateLimitWaitSeconds: 0.01 }) },
			items: numbersOf(1),
			credentials: { baseUrl: hostile.current.url, apiKey: 'proxy-key-1234567890', dialect: 'v2' },
		});
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(7000);
		// the refused send, the lookup of its id (nothing there: the proxy answers it `ok`, without messages), the send again
		expect(hostile.current.seen.map((request) => request.path)).toEqual(['/message/sendText/demo', '/chat/findMessages/demo', '/message/sendText/demo']);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent']);
	}, 20_000);
});

describe('Only Numbers With an Account reads the check as strictly as any answer', () => {
	const hostile = useHostileServer();
	const CHECK = '/chat/whatsappNumbers/demo';
	const paths = () => hostile.current.seen.map((request) => request.path);
	const checkAnswers = (check: { status?: number; json: unknown }) =>
		hostile.current.answerAll((request) => (request.path === CHECK ? check : { status: 201, json: { key: { id: 'OK1' }, status: 'PENDING' } }));
	const runChecked = async (items: IDataObject[], continueOnFail = false) =>
		await runNode({
			parameters: { instance: 'demo', ...text({ onlyNumbersWithAccount: true }) },
			items,
			continueOnFail,
			credentials: { baseUrl: hostile.current.url, apiKey: 'check-key-1234567890', dialect: 'v2' },
		});

	test.each<[string, unknown]>([
		['null', null],
		['an empty body', undefined],
		['{}', {}],
		['200 {"error":true}', { error: true, message: 'WhatsApp is not connected' }],
		['a wrapped list', { numbers: [{ exists: true, jid: '5511999990001@s.whatsapp.net', number: '5511999990001' }] }],
		['a list with an entry that is not a record', [{ exists: true, jid: '5511999990001@s.whatsapp.net', number: '5511999990001' }, 'x']],
	])('a check answering %s fails the node before the first send, naming the check', async (_what, answer) => {
		checkAnswers({ json: answer });
		const result = await runChecked(numbersOf(2));
		expect(result.error?.message).toMatch(/^The account check \(Check Numbers\) \(POST \/chat\/whatsappNumbers\/demo\) answered .+; nothing was sent$/);
		expect(paths()).toEqual([CHECK]);
	});

	test('an answer that lies is no account: only a number it names with exists true is sent to, in any form it writes the number', async () => {
		checkAnswers({
			json: [
				{ exists: 'false', jid: '5511999990001@s.whatsapp.net', number: '5511999990001' },
				// 5511999990002 is left out
				{ exists: true, jid: '5511999990003@s.whatsapp.net' },
				{ exists: true, number: '+55 11 99999-0004' },
				{ exists: false, jid: '5511999990005@s.whatsapp.net', number: '5511999990005' },
			],
		});
		const items = ['5511999990001', '5511999990002', '5511999990003', '5511999990004', '5511999990005'].map((to) => ({ to }));
		const result = await runChecked(items);
		expect(result.error).toBeUndefined();
		expect(hostile.current.seen.filter((request) => request.path.startsWith('/message')).map((request) => (JSON.parse(request.body) as IDataObject).number)).toEqual(['5511999990003', '5511999990004']);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['skipped', 'notSent', 'sent', 'sent', 'skipped']);
		expect(result.items[1].json).toEqual({
			outcome: 'notSent',
			reason: 'Not sent: the account check before the first message did not name this number, so nobody said it has a WhatsApp account',
			number: '5511999990002',
		});
	});

	test('with Continue On Fail, a failed check gives every item its outcome and the error; nothing is sent', async () => {
		checkAnswers({ status: 500, json: { status: 500, error: 'Internal Server Error', response: { message: 'Connection Closed' } } });
		const result = await runChecked(numbersOf(3), true);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.outcome, item.json.error])).toEqual(
			Array.from({ length: 3 }, () => ['failed', 'The account check (Check Numbers) failed: Connection Closed (HTTP 500)']),
		);
		expect(paths()).toEqual([CHECK]);
	});
});

describe('Retry-After is read as HTTP defines it', () => {
	const hostile = useHostileServer();
	/** The first send is refused with a 429 carrying this Retry-After; the look-up finds nothing; the next send goes. */
	const refusedOnceWith = (retryAfter: string) => {
		hostile.current.respond((_req, res) => {
			res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
			res.end(JSON.stringify({ status: 429, error: 'Too Many Requests' }));
		});
		hostile.current.answerAll((request) =>
			request.path.startsWith('/chat/findMessages') ? { json: { messages: { total: 0, pages: 0, currentPage: 1, records: [] } } } : { json: { key: { id: 'OK1' }, status: 'PENDING' } },
		);
	};
	const runRetried = async (firstWaitSeconds: number) =>
		await runNode({
			parameters: { instance: 'demo', ...text({ rateLimitRetries: 2, rateLimitWaitSeconds: firstWaitSeconds }) },
			items: numbersOf(1),
			credentials: { baseUrl: hostile.current.url, apiKey: 'retry-key-1234567890', dialect: 'v2' },
		});
	const sent = () => hostile.current.seen.filter((request) => request.path.startsWith('/message/sendText'));

	test.each(['9999999999', '12345678901234567890'])('%s seconds (more than 10 minutes, however many digits) is refused as such; nothing is sent again', async (retryAfter) => {
		refusedOnceWith(retryAfter);
		const result = await runRetried(0.01);
		expect(result.error?.message).toMatch(/^The server is rate limiting requests: retry after \d+ s \(HTTP 429\): the server asks to wait .+, more than 10 minutes, so the message is not tried again$/);
		expect(sent()).toHaveLength(1);
	});

	test.each(['-5', '1.5', 'soon', 'Sun, 06 Nov 1994 08:49:37'])('"%s" names no wait: the first wait is waited, then the message goes once more', async (retryAfter) => {
		refusedOnceWith(retryAfter);
		const started = Date.now();
		const result = await runRetried(1.5);
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
		expect(sent()).toHaveLength(2);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['sent']);
	}, 20_000);

	test('an HTTP date is a wait until then', async () => {
		refusedOnceWith(new Date(Date.now() + 3_000).toUTCString());
		const started = Date.now();
		const result = await runRetried(0.01);
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
		expect(sent()).toHaveLength(2);
	}, 20_000);
});
