import { sleep } from 'n8n-workflow';

import { pauseWith, PAUSE_SLICE_MS } from '../../nodes/shared/pause';

/**
 * The n8n-workflow of n8n 2.4x exports `sleep` but no `sleepWithAbort` (the node got "is not a
 * function" there): the wait is then made of `sleep` slices raced against the execution's
 * cancel signal. This is that path; the engine tests run the `sleepWithAbort` one.
 */
describe('a wait with n8n-workflow\'s sleep only', () => {
	test('lasts the time asked', async () => {
		const started = Date.now();
		await pauseWith(sleep, undefined, 300, new AbortController().signal);
		expect(Date.now() - started).toBeGreaterThanOrEqual(295);
	});

	test('a stopped execution ends it at once, with an error', async () => {
		const stop = new AbortController();
		const started = Date.now();
		const waiting = pauseWith(sleep, undefined, 5 * PAUSE_SLICE_MS, stop.signal);
		await sleep(100);
		stop.abort();
		await expect(waiting).rejects.toThrow('The execution was stopped while the node waited');
		expect(Date.now() - started).toBeLessThan(PAUSE_SLICE_MS);
	});

	test('an execution stopped before the wait does not wait', async () => {
		const stop = new AbortController();
		stop.abort();
		const started = Date.now();
		await expect(pauseWith(sleep, undefined, 5_000, stop.signal)).rejects.toThrow('stopped');
		expect(Date.now() - started).toBeLessThan(100);
	});
});
