/**
 * A JSON list answer read as it streams, up to a number of bytes: a list of a million entries
 * costs what its first bytes cost, never its whole text and parse. Within the cap the answer
 * is parsed as it is; over it, the complete entries of the top-level array that fit are kept.
 */

export interface BoundedList {
	/** The parsed answer (within the cap), or the complete entries read (over it). */
	value: unknown;
	/** The answer went on past the cap: `value` holds only the entries read. */
	cut: boolean;
	/** Bytes taken from the answer (at most the cap). */
	bytesRead: number;
	/** The answer was not JSON (within the cap) or not a list (over it). */
	unreadable: boolean;
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(byte: number): boolean {
	return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * The complete entries at the start of a top-level JSON array cut anywhere, at most
 * `maxEntries`. Bytes are scanned, not characters: every byte of a multi-byte UTF-8
 * character is above 0x7f, so none is taken for a bracket, quote or comma.
 */
export function entriesOfCutArray(bytes: Buffer, maxEntries: number): unknown[] | undefined {
	let position = 0;
	while (position < bytes.length && isSpace(bytes[position])) position++;
	if (bytes[position] !== OPEN_BRACKET) return undefined;
	const entries: unknown[] = [];
	let depth = 1;
	let inString = false;
	let start = position + 1;
	for (position += 1; position < bytes.length && entries.length < maxEntries; position++) {
		const byte = bytes[position];
		if (inString) {
			if (byte === BACKSLASH) position++;
			else if (byte === QUOTE) inString = false;
			continue;
		}
		if (byte === QUOTE) inString = true;
		else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) depth++;
		else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
		if (depth === 0 || (depth === 1 && byte === COMMA)) {
			const text = bytes.subarray(start, position).toString('utf8').trim();
			if (text !== '') {
				try {
					entries.push(JSON.parse(text));
				} catch {
					// An entry that is not JSON is left out; the list goes on.
				}
			}
			if (depth === 0) break;
			start = position + 1;
		}
	}
	return entries;
}

/** Reads a JSON answer up to `maxBytes`, then stops reading (the rest is never received). */
export function boundedListReader(maxBytes: number, maxEntries: number) {
	return async (answer: AsyncIterable<Buffer>): Promise<BoundedList> => {
		const chunks: Buffer[] = [];
		let bytesRead = 0;
		let cut = false;
		for await (const chunk of answer) {
			const room = maxBytes - bytesRead;
			if (chunk.length > room) {
				chunks.push(chunk.subarray(0, room));
				bytesRead = maxBytes;
				cut = true;
				break;
			}
			chunks.push(chunk);
			bytesRead += chunk.length;
		}
		const bytes = Buffer.concat(chunks, bytesRead);
		if (cut) {
			const entries = entriesOfCutArray(bytes, maxEntries);
			return { value: entries ?? [], cut, bytesRead, unreadable: entries === undefined };
		}
		const text = bytes.toString('utf8').trim();
		if (text === '') return { value: undefined, cut, bytesRead, unreadable: false };
		try {
			return { value: JSON.parse(text) as unknown, cut, bytesRead, unreadable: false };
		} catch {
			return { value: undefined, cut, bytesRead, unreadable: true };
		}
	};
}
