/**
 * Turning what users paste into what the server accepts. Pure functions: the action node
 * calls them per item, the trigger and tests call them directly.
 */

const PHONE_PUNCTUATION = /[\s+\-().]/g;

export type Normalised = { value: string } | { problem: string };

/**
 * A phone number loses `+`, spaces, dashes, dots and parentheses; a JID (anything with `@`)
 * goes as typed, trimmed. No JID domain is ever invented.
 */
export function normaliseRecipient(raw: string): Normalised {
	const trimmed = raw.trim();
	if (trimmed === '') return { problem: 'is required' };
	if (trimmed.includes('@')) {
		return /\s/.test(trimmed)
			? { problem: `is not a valid JID ("${trimmed}" contains spaces)` }
			: { value: trimmed };
	}
	const digits = trimmed.replace(PHONE_PUNCTUATION, '');
	if (!/\d/.test(digits)) return { problem: `has no digits ("${trimmed}")` };
	if (!/^\d+$/.test(digits)) {
		return {
			problem: `must be a phone number with country code (e.g. 5511999990000) or a JID, not "${trimmed}"`,
		};
	}
	return { value: digits };
}

/** Lists typed as text: split on commas and new lines, trimmed, empties dropped. */
export function splitList(raw: string | string[]): string[] {
	const parts = Array.isArray(raw) ? raw : raw.split(/[,\n\r]+/);
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

export function isHexColour(value: string): boolean {
	return /^#[0-9a-fA-F]{6}$/.test(value);
}

// Made on first use: building a segmenter costs about 10 ms, too much for loading the node.
let segmenter: Intl.Segmenter | undefined;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** One emoji (one grapheme cluster that is pictographic), the only reaction a server sends. */
export function isSingleEmoji(value: string): boolean {
	segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
	const graphemes = [...segmenter.segment(value)];
	return graphemes.length === 1 && PICTOGRAPHIC.test(value);
}
