/**
 * What a user or n8n's execution data may never see: the API key, instance tokens, webhook
 * secrets and the password of a base URL. Every path of both nodes and the credential's
 * messages goes through here: output items, errors (message, description, stack, cause,
 * `httpCode`, context), log lines and the trigger's static data.
 *
 * Two ways a secret is found:
 * - by value: each known secret in its raw, URL-encoded, JSON-escaped and base64 forms, in
 *   any letter case, inside any text and any key. A secret shorter than MIN_SEARCHED_LENGTH
 *   would match ordinary text (a token `4` inside `HTTP 400`): it is removed where it is a
 *   field's whole value, and in a text only as a word of its own (a secret of two or more
 *   characters not touching another letter or digit: `key 42 refused`, never `HTTP 420`);
 * - by name: the value under a key that names a secret (`token`, `apikey`, `authorization`,
 *   `password`, `clientSecret`, …, compared case-insensitively without `-`/`_`), the values
 *   of a `headers` object except harmless ones, and `?secret=`-like query parameters and
 *   `user:password@` parts of URLs inside any text.
 *
 * The walk is bounded by size (values visited, characters searched), not by a depth that a
 * secret could hide below, and it uses an explicit stack, so no nesting overflows it.
 */

export const REDACTED = '[redacted]';

/** A secret shorter than this is not searched for inside words, only as a whole value or word. */
export const MIN_SEARCHED_LENGTH = 8;
/** A secret shorter than this is only matched as a field's whole value. */
const MIN_WORD_LENGTH = 2;

/** Longest server message an error keeps: long enough to read, short enough to show. */
export const MAX_MESSAGE_LENGTH = 2_000;

/** Values a redaction visits at most; what lies beyond is replaced, never passed through. */
export const MAX_VALUES = 200_000;
/** Deeper than this no answer of a server goes; the rest is replaced. */
export const MAX_DEPTH = 512;

export const CUT = '[cut: too deep or too large]';

/** Key names whose value is a secret, normalised (lower case, no `-`, `_`, `.` or spaces). */
const SECRET_NAMES = new Set([
	'token',
	'apikey',
	'xapikey',
	'apitoken',
	'accesstoken',
	'authtoken',
	'bearertoken',
	'instancetoken',
	'refreshtoken',
	'idtoken',
	'sessiontoken',
	'authorization',
	'proxyauthorization',
	'cookie',
	'setcookie',
	'password',
	'passwd',
	// an instance's integrations as instance records carry them (Chatwoot token, proxy password)
	'chatwoottoken',
	'proxypassword',
	'secret',
	'clientsecret',
	'webhooksecret',
	'secretaccesskey',
	'accesskeyid',
	'privatekey',
	'xmessaginginstancesecret',
]);

/** Query parameters of a URL inside a text whose value is a secret. */
const SECRET_PARAMS = 'secret|apikey|api_key|api-key|token|access_token|accesstoken|password|client_secret';

/** Headers that carry no secret and stay readable inside a `headers` object. */
const HARMLESS_HEADERS = new Set([
	'accept',
	'acceptencoding',
	'acceptlanguage',
	'contenttype',
	'contentlength',
	'contentencoding',
	'useragent',
	'host',
	'connection',
	'date',
	'location',
	'retryafter',
]);

/** Own keys that could reach an object's prototype when a copy is assigned or merged later. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function normalisedName(key: string): string {
	return key.length > 64 ? '' : key.toLowerCase().replace(/[-_.\s]/g, '');
}

/** What a field's name says about its value (bits, so that one cached number says all). */
const SECRET_NAME = 1;
const HEADERS_NAME = 2;
const HARMLESS_HEADER_NAME = 4;

/** Field names seen before, with what each says: the same few names come in every item and delivery. */
const nameCache = new Map<string, number>();
const MAX_CACHED_NAMES = 4_096;

function nameKind(key: string): number {
	let kind = nameCache.get(key);
	if (kind === undefined) {
		const name = normalisedName(key);
		kind =
			(SECRET_NAMES.has(name) ? SECRET_NAME : 0) |
			(name === 'headers' ? HEADERS_NAME : 0) |
			(HARMLESS_HEADERS.has(name) ? HARMLESS_HEADER_NAME : 0);
		if (key.length <= 64) {
			if (nameCache.size >= MAX_CACHED_NAMES) nameCache.clear();
			nameCache.set(key, kind);
		}
	}
	return kind;
}

/** Whether a field of this name holds a secret whatever its value says. */
export function isSecretName(key: string): boolean {
	return (nameKind(key) & SECRET_NAME) !== 0;
}

function isHeadersName(key: string): boolean {
	return (nameKind(key) & HEADERS_NAME) !== 0;
}

function isHarmlessHeader(key: string): boolean {
	return (nameKind(key) & HARMLESS_HEADER_NAME) !== 0;
}

/** The given values as secrets: texts and numbers, trimmed copies too, empty ones left out. */
function secretTexts(secrets: Iterable<unknown>): string[] {
	const all = new Set<string>();
	for (const secret of secrets) {
		if (typeof secret !== 'string' && typeof secret !== 'number') continue;
		const text = String(secret);
		if (text !== '') all.add(text);
		if (text.trim() !== '') all.add(text.trim());
	}
	return [...all];
}

/** Each secret as it can stand in a text: raw, URL-encoded, JSON-escaped, base64 (both alphabets). */
function formsOf(secret: string): string[] {
	const base64 = Buffer.from(secret, 'utf8').toString('base64');
	return [
		secret,
		encodeURIComponent(secret),
		encodeURI(secret),
		JSON.stringify(secret).slice(1, -1),
		base64,
		base64.replace(/=+$/, ''),
		Buffer.from(secret, 'utf8').toString('base64url'),
	];
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SECRET_PARAM_PATTERN = new RegExp(`([?&#])(?:${SECRET_PARAMS})=[^&#\\s"'<>]*(&?)`, 'gi');
const URL_PASSWORD_PATTERN = /\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s/?#@"'<>]{1,256}@/gi;

/**
 * A text without the values of `?secret=…`-like query parameters. A text that is one URL
 * loses the parameter (the rest of the URL kept, so it can still be used); inside other text
 * the value reads as redacted, so the message still shows where it was.
 */
export function withoutSecretParams(text: string): string {
	if (!text.includes('=')) return text;
	if (/^[a-z][a-z0-9+.-]{0,20}:\/\/\S*$/i.test(text)) {
		return text.replace(SECRET_PARAM_PATTERN, (_match, separator: string, next: string) =>
			separator === '&' ? next : next ? separator : '',
		);
	}
	return text.replace(SECRET_PARAM_PATTERN, (match: string, _separator: string, next: string) => {
		const name = match.slice(0, match.indexOf('=') + 1);
		return `${name}${REDACTED}${next}`;
	});
}

/**
 * What a redaction compiles from one set of secrets: the lower-cased whole values, one
 * pattern of every searched form, one of the short secrets. Built once per set of secrets
 * (see compiledFor), not once per item or delivery.
 */
interface Compiled {
	whole: Set<string>;
	/** Shortest and longest whole value: lower-casing never shortens a text, and at most doubles it. */
	wholeMin: number;
	wholeMax: number;
	pattern: RegExp | undefined;
	/** The shortest text the pattern can match (a case-insensitive match is as long as its form). */
	patternMinLength: number;
	shortPattern: RegExp | undefined;
	searched: string[];
	/** Keys already redacted with these secrets: the same keys come in every item and delivery. */
	keys: Map<string, string>;
}

function compile(texts: string[]): Compiled {
	const whole = new Set(texts.map((text) => text.toLowerCase()));
	const searched = texts.filter((text) => text.length >= MIN_SEARCHED_LENGTH).map((text) => text.toLowerCase());
	const variants = new Set<string>();
	for (const text of texts) {
		if (text.length < MIN_SEARCHED_LENGTH) continue;
		for (const form of formsOf(text)) if (form.length >= MIN_SEARCHED_LENGTH) variants.add(form);
	}
	const sorted = [...variants].sort((a, b) => b.length - a.length);
	const short = texts
		.filter((text) => text.length >= MIN_WORD_LENGTH && text.length < MIN_SEARCHED_LENGTH)
		.sort((a, b) => b.length - a.length);
	const wholeLengths = [...whole].map((text) => text.length);
	return {
		whole,
		wholeMin: Math.min(...wholeLengths),
		wholeMax: Math.max(...wholeLengths),
		pattern: sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'gi') : undefined,
		patternMinLength: sorted.length > 0 ? sorted[sorted.length - 1].length : Infinity,
		shortPattern:
			short.length > 0
				? new RegExp(`(?<![\\p{L}\\p{N}])(?:${short.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu')
				: undefined,
		searched,
		keys: new Map(),
	};
}

/**
 * The compiled redactions of the last few sets of secrets (a trigger sees the same set in
 * every delivery, an action node in every item). Few, so that no more secrets stay in memory
 * than the workflows that use them hold anyway.
 */
const compiledCache = new Map<string, Compiled>();
const MAX_CACHED_SETS = 32;
const MAX_CACHED_KEYS = 2_048;

/** The set asked for last, as given: a trigger asks for the same one, in the same order, in every delivery. */
let lastAsked: { texts: string[]; compiled: Compiled } | undefined;

function sameTexts(a: string[], b: string[]): boolean {
	return a.length === b.length && a.every((text, index) => text === b[index]);
}

function compiledFor(texts: string[]): Compiled {
	if (lastAsked && sameTexts(lastAsked.texts, texts)) return lastAsked.compiled;
	const id = JSON.stringify([...texts].sort());
	let compiled = compiledCache.get(id);
	if (compiled) {
		// Most recently used last, so the oldest set is the one dropped.
		compiledCache.delete(id);
	} else {
		compiled = compile(texts);
		if (compiledCache.size >= MAX_CACHED_SETS) compiledCache.delete(compiledCache.keys().next().value as string);
	}
	compiledCache.set(id, compiled);
	lastAsked = { texts, compiled };
	return compiled;
}

/** Whether `trim()` could change a text: only whitespace at either end, all of it ≤ U+0020 or ≥ U+00A0. */
function mayNeedTrim(text: string): boolean {
	const first = text.charCodeAt(0);
	const last = text.charCodeAt(text.length - 1);
	return first <= 0x20 || first >= 0xa0 || last <= 0x20 || last >= 0xa0;
}

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

/** The text cut to `max` characters, saying so. */
export function cut(text: string, max = MAX_MESSAGE_LENGTH): string {
	return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters cut]` : text;
}

/** Decodes runs of `%XX` escapes where they are valid UTF-8; anything else is kept as it is. */
function percentDecoded(text: string): string {
	return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			return run;
		}
	});
}

interface Frame {
	source: object;
	target: Record<string, unknown> | unknown[];
	depth: number;
	inHeaders: boolean;
}

function walk(root: unknown, redactor: Redactor, maxText: number): unknown {
	const leaf = (value: unknown, secretByName: boolean): unknown => {
		if (typeof value === 'string') {
			if (secretByName && value !== '') return REDACTED;
			return cut(redactor.text(value), maxText);
		}
		if (typeof value === 'number' || typeof value === 'bigint') {
			if (secretByName) return REDACTED;
			const text = String(value);
			return text.length >= MIN_SEARCHED_LENGTH && redactor.text(text) !== text ? REDACTED : value;
		}
		return value;
	};
	if (root === null || typeof root !== 'object' || Buffer.isBuffer(root)) return leaf(root, false);
	const copyOf = (source: object): Record<string, unknown> | unknown[] => (Array.isArray(source) ? [] : {});
	const top = copyOf(root);
	const stack: Frame[] = [{ source: root, target: top, depth: 1, inHeaders: false }];
	// Each object is copied once: a second reference to it (a cycle, or a shared value) is marked.
	const seen = new Set<object>([root]);
	let visited = 0;
	while (stack.length > 0) {
		const { source, target, depth, inHeaders } = stack.pop() as Frame;
		const isList = Array.isArray(source);
		// A nested error keeps its message and stack, which are not enumerable.
		const keys = isList ? undefined : source instanceof Error ? Object.getOwnPropertyNames(source) : Object.keys(source);
		const count = isList ? source.length : (keys as string[]).length;
		for (let index = 0; index < count; index++) {
			const key = isList ? undefined : (keys as string[])[index];
			if (key !== undefined && PROTOTYPE_KEYS.has(key)) continue;
			let entry: unknown;
			try {
				entry = isList ? (source as unknown[])[index] : (source as Record<string, unknown>)[key as string];
			} catch {
				entry = undefined;
			}
			if (typeof entry === 'function') continue;
			const byName = key !== undefined && (isSecretName(key) || (inHeaders && !isHarmlessHeader(key)));
			let value: unknown;
			if (++visited > MAX_VALUES || depth > MAX_DEPTH) {
				value = CUT;
			} else if (entry !== null && typeof entry === 'object' && !Buffer.isBuffer(entry)) {
				if (byName) {
					value = REDACTED;
				} else if (seen.has(entry)) {
					value = '[circular]';
				} else {
					value = copyOf(entry);
					seen.add(entry);
					stack.push({
						source: entry,
						target: value as Record<string, unknown> | unknown[],
						depth: depth + 1,
						inHeaders: key !== undefined && isHeadersName(key),
					});
				}
			} else {
				value = leaf(entry, byName && entry !== undefined && entry !== null);
			}
			if (isList) (target as unknown[]).push(value);
			else {
				const name = redactor.key(key as string);
				// Assigned, except a name that an assignment would take for the prototype.
				if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
				else (target as Record<string, unknown>)[name] = value;
			}
		}
	}
	return top;
}

/** The text with every form of every secret replaced. */
export function redactText(text: string, secrets: Iterable<unknown>): string {
	return new Redactor(secrets).text(text);
}

/** A copy of a JSON-like value without the secrets: in strings, in keys, and under keys that name a secret. */
export function redactDeep<T>(value: T, secrets: Iterable<unknown>): T {
	return new Redactor(secrets).deep(value);
}

/** Takes the secrets out of an error in place, keeping its class, and cuts its texts to a readable length. */
export function redactError<T>(error: T, secrets: Iterable<unknown>): T {
	return new Redactor(secrets).error(error);
}

/**
 * Every value an answer or a request holds under a secret name (an instance's `token`, a
 * webhook's headers): once seen, each is hidden wherever else it appears. Bounded like the walk.
 */
export function secretsIn(value: unknown): string[] {
	const found = new Set<string>();
	const stack: Array<{ value: unknown; inHeaders: boolean }> = [{ value, inHeaders: false }];
	let visited = 0;
	while (stack.length > 0 && visited < MAX_VALUES) {
		const current = stack.pop() as { value: unknown; inHeaders: boolean };
		if (current.value === null || typeof current.value !== 'object' || Buffer.isBuffer(current.value)) continue;
		const record = current.value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const entry = record[key];
			visited++;
			const byName = isSecretName(key) || (current.inHeaders && !isHarmlessHeader(key));
			if (byName && (typeof entry === 'string' || typeof entry === 'number') && String(entry).length <= 4_096) {
				found.add(String(entry));
			}
			if (entry !== null && typeof entry === 'object') stack.push({ value: entry, inHeaders: isHeadersName(key) });
		}
	}
	return [...found];
}

/** The user name and password of a URL (basic auth in the Base URL), which are secrets too. */
export function secretsOfUrl(url: string): string[] {
	// No user name or password without an `@`: nothing to parse (the trigger asks per delivery).
	if (!url.includes('@')) return [];
	try {
		const parsed = new URL(url);
		const parts = [parsed.username, parsed.password].map((part) => {
			try {
				return decodeURIComponent(part);
			} catch {
				return part;
			}
		});
		const [user, password] = parts;
		return [...parts, ...(user || password ? [`${user}:${password}`] : [])].filter((part) => part !== '');
	} catch {
		return [];
	}
}
