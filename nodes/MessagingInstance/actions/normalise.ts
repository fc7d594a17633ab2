/**
 * Turning what users paste into what the server accepts. Pure functions of the action node.
 * Every check looks at the length first: a value can be mapped from an incoming message, so
 * anyone who can message the account decides how long it is.
 */

const PHONE_PUNCTUATION = /[\s+\-().]/g;

export type Normalised = { value: string } | { problem: string };

/** How much of a wrong value an error message quotes. */
const QUOTED_LENGTH = 60;

/** A value as an error message shows it: in quotes, cut to a readable length. */
export function quoted(value: string): string {
	if (value.length <= QUOTED_LENGTH) return `"${value}"`;
	// Never cut a character in half: step back from the low half of a surrogate pair.
	const low = value.charCodeAt(QUOTED_LENGTH);
	const end = low >= 0xdc00 && low <= 0xdfff ? QUOTED_LENGTH - 1 : QUOTED_LENGTH;
	return `"${value.slice(0, end)}…" (${value.length} characters)`;
}

/** A JID whose user part is a phone number or a group id: what the number fields accept. */
const NUMBER_JID = /^\d+(-\d+)?@[a-z0-9.]+$/i;
/** Any JID, such as `status@broadcast`: what a message key's chat may be. */
const ANY_JID = /^[^@\s]+@[a-z0-9.]+$/i;

/**
 * A phone number loses `+`, spaces, dashes, dots and parentheses; a JID (anything with `@`)
 * goes as typed, trimmed, when it has the form `<number>@<domain>` (with `anyJid`, any user
 * part). No JID domain is ever invented.
 */
export function normaliseRecipient(raw: string, anyJid = false): Normalised {
	const trimmed = raw.trim();
	if (trimmed === '') return { problem: 'is required' };
	if (trimmed.includes('@')) {
		if (/\s/.test(trimmed)) return { problem: `is not a valid JID (${quoted(trimmed)} contains spaces)` };
		return (anyJid ? ANY_JID : NUMBER_JID).test(trimmed)
			? { value: trimmed }
			: { problem: `is not a valid JID (${quoted(trimmed)}); expected the form 5511999990000@s.whatsapp.net` };
	}
	const digits = trimmed.replace(PHONE_PUNCTUATION, '');
	if (!/\d/.test(digits)) return { problem: `has no digits (${quoted(trimmed)})` };
	if (!/^\d+$/.test(digits)) {
		return {
			problem: `must be a phone number with country code (e.g. 5511999990000) or a JID, not ${quoted(trimmed)}`,
		};
	}
	return { value: digits };
}

/** Lists typed as text: split on commas and new lines, trimmed, empties dropped. */
export function splitList(raw: string | string[]): string[] {
	const parts = Array.isArray(raw) ? raw : raw.split(/[,\n\r]+/);
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

/** The domain of a person's JID: its user part is the phone number. */
const PERSON_DOMAIN = '@s.whatsapp.net';

/**
 * The list without repeats, first occurrence kept: v2.x servers refuse a list with a repeated
 * entry. A number and the JID of the same person (`5511…` and `5511…@s.whatsapp.net`) are one.
 */
export function unique(values: readonly string[]): string[] {
	const seen = new Set<string>();
	return values.filter((value) => {
		const person = value.endsWith(PERSON_DOMAIN) ? value.slice(0, -PERSON_DOMAIN.length) : value;
		if (seen.has(person)) return false;
		seen.add(person);
		return true;
	});
}

export function isHexColour(value: string): boolean {
	return value.length === 7 && /^#[0-9a-fA-F]{6}$/.test(value);
}

/**
 * The longest emoji are ZWJ sequences with skin tones and tag-sequence flags: about 15 UTF-16
 * code units. Anything longer is not one emoji, and is refused before it is segmented.
 */
const MAX_EMOJI_LENGTH = 32;

// Made on first use: building a segmenter costs about 10 ms, too much for loading the node.
let segmenter: Intl.Segmenter | undefined;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** One emoji (one grapheme cluster that is pictographic), the only reaction a server sends. */
export function isSingleEmoji(value: string): boolean {
	if (value.length === 0 || value.length > MAX_EMOJI_LENGTH) return false;
	segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
	const graphemes = [...segmenter.segment(value)];
	return graphemes.length === 1 && PICTOGRAPHIC.test(value);
}
