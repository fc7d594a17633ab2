/**
 * Secrets found by value: each known secret in its raw, URL-encoded, JSON-escaped and base64
 * forms, in any letter case, compiled once per set of secrets into the patterns a text is
 * searched with; and the secret parts of URLs inside any text (`?secret=`-like query
 * parameters, `user:password@`).
 */
import { REDACTED } from './limits';

/** A secret shorter than this is not searched for inside words, only as a whole value or word. */
export const MIN_SEARCHED_LENGTH = 8;
/** A secret shorter than this is only matched as a field's whole value. */
const MIN_WORD_LENGTH = 2;

/** Query parameters of a URL inside a text whose value is a secret. */
// `secret_scope` is no secret but goes with the trigger's secret (what it is derived over): shown, the URL would not be the trigger's own.
const SECRET_PARAMS = 'secret|secret_scope|apikey|api_key|api-key|token|access_token|accesstoken|password|client_secret';

/** The given values as secrets: texts and numbers, trimmed copies too, empty ones left out. */
export function secretTexts(secrets: Iterable<unknown>): string[] {
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
/** The same parameters inside other text; the `&` after one is left for the next. */
const SECRET_PARAM_IN_TEXT = new RegExp(`([?&#])(?:${SECRET_PARAMS})=[^&#\\s"'<>]*`, 'gi');
export const URL_PASSWORD_PATTERN = /\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s/?#@"'<>]{1,256}@/gi;

/**
 * A text without the values of `?secret=…`-like query parameters. A text that is one URL
 * loses the parameter (the rest of the URL kept, so it can still be used); inside other text
 * the value reads as redacted, so the message still shows where it was.
 */
export function withoutSecretParams(text: string): string {
	if (!text.includes('=')) return text;
	if (/^[a-z][a-z0-9+.-]{0,20}:\/\/\S*$/i.test(text)) {
		// Again until none is left: a match takes the `&` after it, which the next parameter starts with.
		let result = text;
		for (let round = 0; round < 20; round++) {
			const next = result.replace(SECRET_PARAM_PATTERN, (_match, separator: string, following: string) =>
				separator === '&' ? following : following ? separator : '',
			);
			if (next === result) break;
			result = next;
		}
		return result;
	}
	return text.replace(SECRET_PARAM_IN_TEXT, (match: string) => `${match.slice(0, match.indexOf('=') + 1)}${REDACTED}`);
}

/**
 * What a redaction compiles from one set of secrets: the lower-cased whole values, one
 * pattern of every searched form, one of the short secrets. Built once per set of secrets
 * (see compiledFor), not once per item or delivery.
 */
export interface Compiled {
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

/** The set asked for last, as given: a trigger asks for the same one, in the same order, in every delivery. */
let lastAsked: { texts: string[]; compiled: Compiled } | undefined;

function sameTexts(a: string[], b: string[]): boolean {
	return a.length === b.length && a.every((text, index) => text === b[index]);
}

export function compiledFor(texts: string[]): Compiled {
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
export function mayNeedTrim(text: string): boolean {
	const first = text.charCodeAt(0);
	const last = text.charCodeAt(text.length - 1);
	return first <= 0x20 || first >= 0xa0 || last <= 0x20 || last >= 0xa0;
}

/** Decodes runs of `%XX` escapes where they are valid UTF-8; anything else is kept as it is. */
export function percentDecoded(text: string): string {
	return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			return run;
		}
	});
}
