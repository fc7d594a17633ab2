import * as workflow from 'n8n-workflow';

type Sleep = (ms: number) => Promise<void>;
type SleepWithAbort = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Longest slice of a wait where n8n-workflow has `sleep` only: a stopped execution ends the wait within it at the latest. */
export const PAUSE_SLICE_MS = 1_000;

function stopped(): Error {
	return new Error('The execution was stopped while the node waited');
}

/**
 * Waits `ms`, ending early with an error when `signal` aborts (the execution was stopped).
 * n8n-workflow's `sleepWithAbort` where the n8n running the node has it; the n8n-workflow of
 * n8n 2.4x exports `sleep` only, so the wait is then slices of `sleep`, each also raced
 * against the signal. Never a timer of our own.
 */
export async function pauseWith(sleep: Sleep, sleepWithAbort: SleepWithAbort | undefined, ms: number, signal?: AbortSignal): Promise<void> {
	if (ms <= 0) return;
	if (sleepWithAbort) return await sleepWithAbort(ms, signal);
	if (signal?.aborted) throw stopped();
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<void>((resolve) => {
		onAbort = () => resolve();
		signal?.addEventListener('abort', onAbort, { once: true });
	});
	try {
		const deadline = Date.now() + ms;
		for (let left = ms; left > 0; left = deadline - Date.now()) {
			await Promise.race([sleep(Math.min(left, PAUSE_SLICE_MS)), aborted]);
			if (signal?.aborted) throw stopped();
		}
	} finally {
		if (onAbort) signal?.removeEventListener('abort', onAbort);
	}
}

/** The same with the n8n-workflow this node runs with. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const found = (workflow as { sleepWithAbort?: unknown }).sleepWithAbort;
	await pauseWith(workflow.sleep, typeof found === 'function' ? (found as SleepWithAbort) : undefined, ms, signal);
}
