/**
 * A redaction for one set of secrets: texts and keys searched with the set's compiled
 * patterns (./search.ts), JSON-like values copied by the walk (./walk.ts), errors cleaned in
 * place.
 */
import { MAX_MESSAGE_LENGTH, REDACTED, cut } from './limits';
import { Compiled, URL_PASSWORD_PATTERN, compiledFor, mayNeedTrim, percentDecoded, secretTexts, withoutSecretParams } from './search';
import { walk } from './walk';

/** Keys remembered per set of secrets at most. */
const MAX_CACHED_KEYS = 2_048;

/** A redaction for one set of secrets; build it once and use it for many values. */
export class Redactor {
	private readonly compiled: Compiled;

	constructor(secrets: Iterable<unknown>) {
		this.compiled = compiledFor(secretTexts(secrets));
	}

	/** Whether the text is, as a whole, one of the secrets (any case, surrounding spaces ignored). */
	isSecret(text: string): boolean {
		const { whole, wholeMin, wholeMax } = this.compiled;
		if (whole.size === 0 || text.length > 4_096) return false;
		const trimmed = mayNeedTrim(text) ? text.trim() : text;
		if (trimmed.length > wholeMax || 2 * trimmed.length < wholeMin) return false;
		return whole.has(trimmed.toLowerCase());
	}

	/** A key of an object, redacted like a text; the answer for a key seen before is remembered. */
	key(key: string): string {
		const { keys } = this.compiled;
		const known = keys.get(key);
		if (known !== undefined) return known;
		const redacted = this.text(key);
		if (key.length <= 64) {
			if (keys.size >= MAX_CACHED_KEYS) keys.clear();
			keys.set(key, redacted);
		}
		return redacted;
	}

	/** The text with every form of every secret, and every secret URL part, replaced. */
	text(text: string): string {
		if (text === '') return text;
		if (this.isSecret(text)) return REDACTED;
		const { pattern, patternMinLength, shortPattern, searched } = this.compiled;
		let result = pattern && text.length >= patternMinLength ? text.replace(pattern, REDACTED) : text;
		if (shortPattern) result = result.replace(shortPattern, REDACTED);
		result = withoutSecretParams(result);
		if (result.includes('://') && result.includes('@')) result = result.replace(URL_PASSWORD_PATTERN, `$1${REDACTED}@`);
		if (searched.length > 0 && result.includes('%')) {
			// A secret written with percent-escapes of its own letters is found in the decoded text.
			const decoded = percentDecoded(result);
			if (decoded !== result) {
				const lower = decoded.toLowerCase();
				if (searched.some((secret) => lower.includes(secret))) return this.text(decoded);
			}
		}
		return result;
	}

	/** A copy of a JSON-like value without secrets: in texts, keys, and under secret names. */
	deep<T>(value: T, maxText = Infinity): T {
		return walk(value, this, maxText) as T;
	}

	/** Takes the secrets out of an error in place (keeping its class) and cuts it to a readable length. */
	error<T>(error: T): T {
		if (!error || typeof error !== 'object') return error;
		const record = error as Record<string, unknown>;
		for (const key of Object.getOwnPropertyNames(record)) {
			// The workflow's node holds no secret, and n8n needs it as it is.
			if (key === 'node') continue;
			const value = record[key];
			try {
				if (typeof value === 'string') record[key] = cut(this.text(value), key === 'stack' ? 2 * MAX_MESSAGE_LENGTH : MAX_MESSAGE_LENGTH);
				else if (value && typeof value === 'object') record[key] = this.deep(value, MAX_MESSAGE_LENGTH);
			} catch {
				record[key] = undefined;
			}
		}
		return error;
	}
}
