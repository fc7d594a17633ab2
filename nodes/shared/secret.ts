import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook secrets: made once per trigger node, compared in constant time, and kept out of
 * everything a user reads (output items, error messages).
 */

/** 32 random bytes as URL-safe text: goes into a query string and a header unchanged. */
export function newSecret(): string {
	return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison. Both sides are hashed first, so the comparison runs on two
 * equal-length buffers and its time does not depend on where (or whether) the texts differ,
 * nor on the length of the text the caller sent.
 */
export function sameSecret(given: unknown, expected: string): boolean {
	if (typeof given !== 'string' || given === '' || expected === '') return false;
	const a = createHash('sha256').update(given).digest();
	const b = createHash('sha256').update(expected).digest();
	return timingSafeEqual(a, b);
}

const REDACTED = '[redacted]';

/** Replaces every occurrence of the given secrets in a text. */
export function redactText(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 8) result = result.split(secret).join(REDACTED);
	}
	return result;
}

/** A deep copy of a JSON value with every occurrence of the secrets replaced. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (Array.isArray(value)) return value.map((entry: unknown) => redactDeep(entry, secrets)) as T;
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
			copy[key] = redactDeep(entry, secrets);
		}
		return copy as T;
	}
	return value;
}

/**
 * Takes the secrets out of an error before it reaches the user: the message, the description
 * and anything the error carries along (the server's body, the request's context).
 */
export function redactError<T>(error: T, secrets: readonly string[]): T {
	if (!error || typeof error !== 'object') return error;
	const record = error as Record<string, unknown>;
	for (const key of Object.keys(record)) {
		const value = record[key];
		if (typeof value === 'string') record[key] = redactText(value, secrets);
		else if (value && typeof value === 'object' && key !== 'node') {
			try {
				record[key] = redactDeep(value, secrets);
			} catch {
				record[key] = undefined;
			}
		}
	}
	if (error instanceof Error) {
		error.message = redactText(error.message, secrets);
		if (typeof error.stack === 'string') error.stack = redactText(error.stack, secrets);
	}
	return error;
}
