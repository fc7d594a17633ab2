/**
 * The statuses a delivery is not retried after: Evolution API's WEBHOOK_RETRY_NON_RETRYABLE_STATUS_CODES
 * (2.3.0 and later; default 400,401,403,404,422), the sandbox's `delivery.nonRetryableStatusCodes`.
 */
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { call, start, startReceiver, Receiver } from './helpers';

describe('webhook retry: the non-retryable status codes', () => {
	let rx: Receiver;
	const sandboxes: Sandbox[] = [];
	beforeAll(async () => {
		rx = await startReceiver();
	});
	afterAll(async () => {
		await Promise.all(sandboxes.map((sb) => sb.close()));
		await rx.close();
	});
	beforeEach(() => {
		rx.received.length = 0;
		rx.statuses.length = 0;
	});

	/** A sandbox delivering MESSAGES_UPSERT of `demo` to the receiver, 3 attempts 5 ms apart. */
	async function hooked(nonRetryableStatusCodes?: number[]): Promise<Sandbox> {
		const options: SandboxOptions = { dialect: 'documented', instances: [{ name: 'demo' }], delivery: { attempts: 3, backoffMs: 5, timeoutMs: 2000, nonRetryableStatusCodes } };
		const sb = await start(options);
		sandboxes.push(sb);
		await call(sb, '/webhook/set/demo', { enabled: true, url: `${rx.url}/hook`, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] });
		return sb;
	}

	const statusesOf = async (sb: Sandbox, text: string) => (await sb.injectMessage('demo', { from: '5511999990000', text }))?.attempts.map((a) => a.status);

	it('by default a 404 is not delivered again, as on a server without the setting', async () => {
		const sb = await hooked();
		rx.statuses.push(404);
		expect(await statusesOf(sb, 'default 404')).toEqual([404]);
		expect(rx.received).toHaveLength(1);
	});

	it('with 404 left out of the list (400,401,403,422) a 404 is delivered again until the 2xx', async () => {
		const sb = await hooked([400, 401, 403, 422]);
		rx.statuses.push(404, 404);
		expect(await statusesOf(sb, 'retried 404')).toEqual([404, 404, 200]);
		expect(rx.received).toHaveLength(3);
		expect(rx.received.map((r) => r.body.data.message.conversation)).toEqual(['retried 404', 'retried 404', 'retried 404']);
	});

	it('the statuses still in the list are not retried', async () => {
		const sb = await hooked([400, 401, 403, 422]);
		rx.statuses.push(401);
		expect(await statusesOf(sb, 'still 401')).toEqual([401]);
	});

	it('an empty list retries every non-2xx answer up to the attempts', async () => {
		const sb = await hooked([]);
		rx.statuses.push(400, 422, 404);
		expect(await statusesOf(sb, 'empty list')).toEqual([400, 422, 404]);
	});
});
