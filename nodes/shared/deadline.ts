/**
 * The total time one request may take, from the credential's Request Timeout: the same rule
 * for the action node's transport and for requests n8n authenticates with the credential (the
 * credential test).
 */

/** The total time a request may take when the credential sets none. */
export const DEFAULT_TIMEOUT_S = 60;
/** What a timer can hold (2^31 - 1 ms): no deadline is longer. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Milliseconds from the credential's `timeout` (seconds); the default for anything unusable. */
export function requestTimeoutMs(seconds: unknown): number {
	const value = Number(seconds);
	return Number.isFinite(value) && value > 0 ? Math.min(value * 1000, MAX_TIMER_MS) : DEFAULT_TIMEOUT_S * 1000;
}
