/**
 * Webhook delivery as real servers do it: one POST per event to the instance's webhook (per
 * event path when `byEvents`), retried with doubling backoff except on the statuses the server
 * is told not to retry (Evolution API 2.3.0+: WEBHOOK_RETRY_NON_RETRYABLE_STATUS_CODES,
 * default 400,401,403,404,422).
 */
import type { DeliveryAttempt, Dialect, Instance, RecordedDelivery } from './types';
import { configEventName } from './events';
import { redactUrl } from './http';
import { ServerVersion, deliveryHeaders } from './versions';

/** Evolution API's default for WEBHOOK_RETRY_NON_RETRYABLE_STATUS_CODES (src/config/env.config.ts, 2.3.0 to 2.4.0-rc2). */
const DEFAULT_NON_RETRYABLE_STATUS_CODES: readonly number[] = [400, 401, 403, 404, 422];

export interface DeliveryHost {
	readonly dialect: Dialect;
	readonly version: ServerVersion;
	readonly attempts: number;
	readonly backoffMs: number;
	readonly timeoutMs: number;
	/** a delivery answered with one of these is not tried again */
	readonly nonRetryableStatusCodes: ReadonlySet<number>;
	readonly signal: AbortSignal;
	/** the sandbox's own URL (`server_url` of each delivery) */
	serverUrl(): string;
	isClosed(): boolean;
	sleep(ms: number): Promise<void>;
	log(line: string): void;
	/** keeps the delivery in the sandbox's list */
	record(delivery: RecordedDelivery): void;
}

export interface RetryOptions {
	attempts?: number;
	backoffMs?: number;
	timeoutMs?: number;
	/** as the server's WEBHOOK_RETRY_NON_RETRYABLE_STATUS_CODES; default 400, 401, 403, 404, 422 */
	nonRetryableStatusCodes?: readonly number[];
}

/** The retry policy of a delivery: the real server's defaults (10 attempts, 5 s doubling, 30 s each, no retry on 400/401/403/404/422) unless a test sets its own. */
export function retryPolicy(options: RetryOptions = {}): Pick<DeliveryHost, 'attempts' | 'backoffMs' | 'timeoutMs' | 'nonRetryableStatusCodes'> {
	return {
		attempts: Math.max(1, options.attempts ?? 10),
		backoffMs: options.backoffMs ?? 5000,
		timeoutMs: options.timeoutMs ?? 30000,
		nonRetryableStatusCodes: new Set(options.nonRetryableStatusCodes ?? DEFAULT_NON_RETRYABLE_STATUS_CODES),
	};
}

/** Delivers `event` of `inst`; undefined when no enabled webhook wants it. */
export async function deliver(host: DeliveryHost, inst: Instance, event: string, data: unknown): Promise<RecordedDelivery | undefined> {
	const w = inst.webhook;
	if (!w || !w.enabled || host.isClosed()) return undefined;
	if (!w.events.includes(configEventName(event))) return undefined;
	let url = w.url;
	if (w.webhookByEvents) {
		const u = new URL(w.url);
		u.pathname = `${u.pathname.replace(/\/+$/, '')}/${event.replace(/\./g, '-')}`;
		url = u.toString();
	}
	const headers = deliveryHeaders(host.version, host.dialect === 'v2' ? w.headers : undefined, inst, event);
	const body = {
		event,
		instance: inst.name,
		data,
		destination: w.url,
		date_time: new Date().toISOString(),
		sender: inst.jid,
		server_url: host.serverUrl(),
		apikey: inst.token,
	};
	return post(host, inst.name, event, url, headers, body);
}

/** POSTs one delivery with the retry policy and records every attempt. */
export async function post(
	host: DeliveryHost,
	instance: string,
	event: string,
	url: string,
	headers: Record<string, string>,
	body: unknown,
): Promise<RecordedDelivery> {
	const delivery: RecordedDelivery = { instance, event, url, headers, body, attempts: [] };
	host.record(delivery);
	const payload = JSON.stringify(body);
	for (let n = 1; n <= host.attempts && !host.isClosed(); n++) {
		const attempt: DeliveryAttempt = {};
		delivery.attempts.push(attempt);
		const timeout = AbortSignal.timeout(host.timeoutMs);
		try {
			const res = await fetch(url, { method: 'POST', headers, body: payload, signal: AbortSignal.any([timeout, host.signal]) });
			attempt.status = res.status;
			attempt.responseBody = (await res.text()).slice(0, 2000);
		} catch (err: unknown) {
			attempt.error = timeout.aborted
				? `timeout after ${host.timeoutMs} ms`
				: err instanceof Error
					? err.cause instanceof Error
						? err.cause.message
						: err.message
					: String(err);
		}
		host.log(`webhook ${event} -> ${redactUrl(url)} attempt ${n}: ${attempt.status ?? attempt.error}`);
		if (attempt.status !== undefined && (attempt.status < 300 || host.nonRetryableStatusCodes.has(attempt.status))) break;
		if (n < host.attempts) await host.sleep(host.backoffMs * 2 ** (n - 1));
	}
	return delivery;
}

/** A short verdict for the control routes: did the webhook take the event? */
export function summarize(d: RecordedDelivery | undefined): { ok: boolean; reason: string; status?: number; attempts: number } {
	if (!d) return { ok: false, reason: 'no webhook enabled for this event', attempts: 0 };
	const last = d.attempts[d.attempts.length - 1];
	const ok = last?.status !== undefined && last.status >= 200 && last.status < 300;
	return { ok, reason: ok ? 'delivered' : (last?.error ?? `answered ${last?.status}`), status: last?.status, attempts: d.attempts.length };
}
