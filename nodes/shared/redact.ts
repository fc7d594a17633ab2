/**
 * The one redaction of both nodes: takes secrets (the API key, an instance token, a webhook
 * secret) out of anything a user or n8n's execution data could see — error messages, error
 * bodies a server echoed, nested causes, output values and keys. Bounded: a value nested
 * deeper than MAX_DEPTH or larger than MAX_NODES is cut, never walked into a stack overflow.
 */

export const REDACTED = '[redacted]';

/** Keys whose value is a secret whatever it says (compared case-insensitively, `-`/`_` or not). */
const SENSITIVE_KEY =
	/^(x-?)?(api-?key|(api|access|auth|instance|bearer)?-?token|authorization|password|secret|(webhook|client)-?secret|x-messaging-instance-secret)$/i;

function isSensitiveKey(key: string): boolean {
	return key.length <= 64 && SENSITIVE_KEY.test(key.replace(/_/g, '-'));
}

/** Own keys that could reach an object's prototype when a copy is assigned or merged later. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const MAX_DEPTH = 32;
const MAX_NODES = 20_000;

/** Each secret as it can appear in a text: raw, URL-encoded, JSON-escaped; longest first. */
function forms(secrets: readonly string[]): string[] {
	const all = new Set<string>();
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret === '') continue;
		all.add(secret);
		all.add(encodeURIComponent(secret));
		all.add(JSON.stringify(secret).slice(1, -1));
	}
	return [...all].sort((a, b) => b.length - a.length);
}

function replaceAll(text: string, variants: readonly string[]): string {
	let result = text;
	for (const variant of variants) {
		if (result.includes(variant)) result = result.split(variant).join(REDACTED);
	}
	return result;
}

/** The text with every form of every secret replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
	return replaceAll(text, forms(secrets));
}

/**
 * A copy of a JSON-like value without the secrets: in strings, in keys, and under keys that
 * name a secret. Prototype keys are kept as own data, never assigned through the prototype.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
	const variants = forms(secrets);
	let nodes = 0;
	const seen = new WeakSet<object>();
	const walk = (current: unknown, depth: number): unknown => {
		if (typeof current === 'string') return replaceAll(current, variants);
		if (current === null || typeof current !== 'object') return current;
		if (Buffer.isBuffer(current)) return current;
		if (depth >= MAX_DEPTH || ++nodes > MAX_NODES) return '[cut: too deep or too large]';
		if (seen.has(current)) return '[circular]';
		seen.add(current);
		let copy: unknown;
		if (Array.isArray(current)) {
			copy = current.map((entry) => walk(entry, depth + 1));
		} else {
			const out: Record<string, unknown> = {};
			// A nested error keeps its message and stack, which are not enumerable.
			const keys = current instanceof Error ? Object.getOwnPropertyNames(current) : Object.keys(current);
			for (const key of keys) {
				if (PROTOTYPE_KEYS.has(key)) continue;
				const entry = (current as Record<string, unknown>)[key];
				if (typeof entry === 'function') continue;
				const cleanKey = replaceAll(key, variants);
				const cleanValue =
					isSensitiveKey(key) && entry !== null && entry !== undefined && entry !== '' ? REDACTED : walk(entry, depth + 1);
				Object.defineProperty(out, cleanKey, { value: cleanValue, enumerable: true, writable: true, configurable: true });
			}
			copy = out;
		}
		seen.delete(current);
		return copy;
	};
	return walk(value, 0) as T;
}

/**
 * Takes the secrets out of an error in place, keeping its class: the message, the stack and
 * description, and everything it carries (the server's body, `cause`, `context`,
 * `errorResponse` with the request's headers, `messages`). `node` is the workflow's node
 * and holds no secret.
 */
export function redactError<T>(error: T, secrets: readonly string[]): T {
	if (!error || typeof error !== 'object') return error;
	const record = error as Record<string, unknown>;
	for (const key of Object.getOwnPropertyNames(record)) {
		if (key === 'node') continue;
		const value = record[key];
		try {
			if (typeof value === 'string') record[key] = redactText(value, secrets);
			else if (value && typeof value === 'object') record[key] = redactDeep(value, secrets);
		} catch {
			record[key] = undefined;
		}
	}
	return error;
}
