/**
 * The bounds of a redaction and the marks it leaves: what replaces a secret, and how long a
 * text, how many values and how deep a value may be before the rest is cut.
 */

export const REDACTED = '[redacted]';

/** Longest server message an error keeps: long enough to read, short enough to show. */
export const MAX_MESSAGE_LENGTH = 2_000;

/** Values a redaction visits at most; what lies beyond is replaced, never passed through. */
export const MAX_VALUES = 200_000;
/** Deeper than this no answer of a server goes; the rest is replaced. */
export const MAX_DEPTH = 512;

export const CUT = '[cut: too deep or too large]';

/** The text cut to `max` characters, saying so. */
export function cut(text: string, max = MAX_MESSAGE_LENGTH): string {
	return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters cut]` : text;
}
