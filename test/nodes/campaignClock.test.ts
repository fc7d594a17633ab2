import { Campaign, type Clock } from '../../nodes/MessagingInstance/actions/message/sending/campaign';
import type { SendingSettings } from '../../nodes/MessagingInstance/actions/message/sending/options';

/**
 * The waits of the Sending options on a clock of the test's own: what the campaign waits
 * before each retry and between messages, without any real time passing. The requests
 * themselves run against the sandbox in campaign.test.ts; here `send` stands for one.
 */

/** A clock that moves only when the campaign sleeps, and whose random part is always the middle. */
function fakeClock(): Clock & { slept: number[] } {
	let now = 1_000_000;
	const slept: number[] = [];
	return {
		slept,
		now: () => now,
		sleep: async (ms) => {
			slept.push(Math.round(ms));
			now += ms;
		},
		random: () => 0.5,
	};
}

/** The error the transport gives a refused send (shared/errors.ts): the message and the status. */
const refusal = (httpCode: string, message: string) => Object.assign(new Error(message), { httpCode });
const RATE_OVERLIMIT = refusal('400', 'Error: rate-overlimit (HTTP 400)');

function sendsFailing(errors: Error[]): { send: () => Promise<string>; tries: () => number } {
	let tries = 0;
	return {
		send: async () => {
			const error = errors[tries++];
			if (error) throw error;
			return 'sent';
		},
		tries: () => tries,
	};
}

const settings = (more: Partial<SendingSettings>): SendingSettings => ({ onlyNumbersWithAccount: false, ...more });

describe('rate limits on a clock of the test', () => {
	test('without Retry-After the waits grow: the first wait, doubled each time, plus a random part of up to one first wait', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ rateLimit: { retries: 3, firstWaitMs: 30_000 } }), new Map(), clock);
		const { send, tries } = sendsFailing([RATE_OVERLIMIT, RATE_OVERLIMIT, RATE_OVERLIMIT]);
		await expect(campaign.send(send)).resolves.toBe('sent');
		expect(tries()).toBe(4);
		expect(clock.slept).toEqual([45_000, 75_000, 135_000]);
	});

	test('a 429 waits as its Retry-After says', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ rateLimit: { retries: 2, firstWaitMs: 30_000 } }), new Map(), clock);
		const { send } = sendsFailing([refusal('429', 'The server is rate limiting requests: retry after 7 s (HTTP 429)')]);
		await expect(campaign.send(send)).resolves.toBe('sent');
		expect(clock.slept).toEqual([7_000]);
	});

	test('a server asking for more than 10 minutes gets its error back at once; so does any other failure', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ rateLimit: { retries: 5, firstWaitMs: 1_000 } }), new Map(), clock);
		const tooLong = refusal('429', 'The server is rate limiting requests: retry after 3600 s (HTTP 429)');
		await expect(campaign.send(sendsFailing([tooLong]).send)).rejects.toBe(tooLong);
		const other = refusal('400', 'Text is required (HTTP 400)');
		await expect(campaign.send(sendsFailing([other]).send)).rejects.toBe(other);
		expect(clock.slept).toEqual([]);
	});

	test('the retries are bounded: the last refusal is the item\'s error', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ rateLimit: { retries: 2, firstWaitMs: 1_000 } }), new Map(), clock);
		const { send, tries } = sendsFailing([RATE_OVERLIMIT, RATE_OVERLIMIT, RATE_OVERLIMIT, RATE_OVERLIMIT]);
		await expect(campaign.send(send)).rejects.toBe(RATE_OVERLIMIT);
		expect(tries()).toBe(3);
	});

	test('before sending again, a message that may have gone out is looked up; found, it is the answer', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ rateLimit: { retries: 2, firstWaitMs: 1_000 } }), new Map(), clock);
		const { send, tries } = sendsFailing([RATE_OVERLIMIT]);
		const stored = { key: { id: '3EB0STORED' } };
		await expect(campaign.send(send, async () => stored)).resolves.toBe(stored);
		expect(tries()).toBe(1);
	});
});

test('a lookup that fails does not stop the retry: the refusal said the message was not taken', async () => {
	const campaign = new Campaign(settings({ rateLimit: { retries: 1, firstWaitMs: 1_000 } }), new Map(), fakeClock());
	const { send, tries } = sendsFailing([RATE_OVERLIMIT]);
	await expect(campaign.send(send, async () => await Promise.reject(new Error('Find Messages failed')))).resolves.toBe('sent');
	expect(tries()).toBe(2);
});

describe('pace on a clock of the test', () => {
	test('a slow answer never shortens the gap below the least: the next message waits the least after it', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ pause: { minMs: 20_000, maxMs: 60_000 } }), new Map(), clock);
		// the first send takes 30 s (typing the server holds): drawn 40 s from its start would leave 10 s; the least is 20 s
		await campaign.send(async () => await clock.sleep(30_000));
		clock.slept.length = 0;
		await campaign.send(async () => 'sent');
		expect(clock.slept).toEqual([20_000]);
	});

	test('the first message goes at once; each next one waits the window\'s random point after the answer before', async () => {
		const clock = fakeClock();
		const campaign = new Campaign(settings({ pause: { minMs: 20_000, maxMs: 60_000 } }), new Map(), clock);
		for (let i = 0; i < 3; i++) await campaign.send(async () => 'sent');
		expect(clock.slept).toEqual([40_000, 40_000]);
	});
});
