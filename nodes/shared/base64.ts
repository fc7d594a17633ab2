/**
 * Strict base64 decoding in pieces: the text may arrive in chunks (a file streamed out of a
 * JSON answer) or as one long string cut into slices (a file inside a delivery), and is decoded
 * into one buffer without ever holding a second copy of the text. Strict means: the standard
 * alphabet only, `=` padding only at the end and at most two, and a length (without
 * whitespace) that is a multiple of 4. A `data:…;base64,` prefix and whitespace or line
 * breaks (as servers wrap base64 at 76 characters) are allowed.
 */

/** Why a text is not a file; `tooLarge` carries the file's size, or what it has at least. */
export type Base64Problem =
	| { kind: 'empty' }
	| { kind: 'invalid'; reason: string }
	| { kind: 'tooLarge'; bytes: number; size: SizeKnown };

/** How well a size is known. */
export type SizeKnown = 'exact' | 'about' | 'atLeast';

/** Characters decoded at a time: large enough that the native decoder does the work, small enough to stay out of the budget. */
const DECODE_STEP = 32 * 1024;
/** The longest `data:…;base64,` prefix looked at before the text is not a data URL. */
const MAX_PREFIX = 256;
const DATA_URL = /^data:[^,]{0,240};base64,$/i;
const NOT_ALPHABET = /[^A-Za-z0-9+/]/g;
const WHITESPACE = /^[ \t\r\n]$/;
const WHITESPACE_RUNS = /[ \t\r\n]+/g;
const EQUALS = 0x3d;

/** Bytes a base64 text of `length` characters (padding included, whitespace excluded) decodes to, at most. */
export function decodedSizeOf(length: number): number {
	return Math.floor((length * 3) / 4);
}

/** A resizable ArrayBuffer (ES2024, in every Node this package runs on), typed here as the project's lib is ES2022. */
interface ResizableBuffer extends ArrayBuffer {
	readonly resizable: boolean;
	resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;
/** The least a reserved buffer grows by at a time (it grows by doubling above it). */
const MIN_GROWTH = 1024 * 1024;

/**
 * Where the decoded file goes: one buffer that grows in place up to a bound (the limit, or the
 * size the text's or the answer's length allows). The bound is only reserved address space,
 * taken up as bytes are written, so a file whose size is not known beforehand (an answer
 * without Content-Length) is neither held twice nor joined from pieces at the end: what is
 * decoded is what is held. Where no such buffer can be reserved, the bytes go in pieces that
 * are joined at the end.
 *
 * When the whole text is in hand (a delivery's file, a base64 field), its size is known to a
 * few bytes and one plain buffer of it is taken at once: reserving and growing address space
 * costs about four times the decoding of a 1 MB file, a plain buffer nothing more than the
 * bytes it holds.
 */
class DecodedBytes {
	private space: ResizableBuffer | undefined;
	/** The one buffer of a file whose size was known beforehand. */
	private fixed: Buffer | undefined;
	/** A view of the whole space as it is now (a resize leaves older views short). */
	private view: Buffer | undefined;
	private readonly pieces: Buffer[] = [];
	written = 0;

	constructor(
		private readonly bound: number,
		sizeKnown: boolean,
	) {
		if (sizeKnown) {
			this.fixed = Buffer.allocUnsafeSlow(Math.max(bound, 0));
			return;
		}
		try {
			const space = new Resizable(0, { maxByteLength: Math.max(bound, 0) });
			if (space.resizable) this.space = space;
		} catch {
			// The address space could not be reserved: pieces.
		}
	}

	/**
	 * Decodes whole base64 quanta right after what is written, or into a piece of their own when
	 * they do not fit the bound; the bytes count as written once committed (the bytes of a text
	 * that turns out not to be base64 are written over by the next text).
	 */
	decode(text: string): Buffer {
		const view = this.space || this.fixed ? this.room(this.written + decodedSizeOf(text.length)) : undefined;
		if (!view) return Buffer.from(text, 'base64');
		return view.subarray(this.written, this.written + view.write(text, this.written, 'base64'));
	}

	commit(decoded: Buffer): void {
		const own = this.space ?? this.fixed?.buffer;
		if (own === undefined || decoded.buffer !== own) this.pieces.push(decoded);
		this.written += decoded.length;
	}

	/** The file: the space cut to what was written (the rest of the reservation given back), or the pieces joined. */
	result(): Buffer {
		if (this.fixed) {
			const file = this.fixed.subarray(0, this.written);
			// Whitespace made the known size an overestimate: a file far smaller than its buffer is
			// copied out, so the rest is not held with it.
			return this.written >= this.fixed.length / 2 ? file : Buffer.from(file);
		}
		if (this.space) {
			this.space.resize(this.written);
			return Buffer.from(this.space, 0, this.written);
		}
		return this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.written);
	}

	/** A view of the space with at least `length` bytes, grown if needed; undefined (pieces from here on) past the bound. */
	private room(length: number): Buffer | undefined {
		if (this.fixed) {
			if (length <= this.fixed.length) return this.fixed;
			// The known size was short (an answer longer than it said): what is written becomes the first piece.
			this.pieces.push(this.fixed.subarray(0, this.written));
			this.fixed = undefined;
			return undefined;
		}
		const space = this.space as ResizableBuffer;
		if (length > space.byteLength) {
			if (length > this.bound) {
				// The bound was short (a length that said less than came): what is written becomes the first piece.
				this.pieces.push(Buffer.from(space, 0, this.written));
				this.space = undefined;
				this.view = undefined;
				return undefined;
			}
			space.resize(Math.min(this.bound, Math.max(length, 2 * space.byteLength, MIN_GROWTH)));
			this.view = undefined;
		}
		this.view ??= Buffer.from(space, 0, space.byteLength);
		return this.view;
	}
}

export class Base64Decoder {
	private head = '';
	private headDone = false;
	private pending = '';
	private letters = 0;
	private padding = 0;
	private problem: Base64Problem | undefined;
	private readonly bytes: DecodedBytes;
	/** How whole quanta are taken: as they come, without whitespace, or (after a failed check) only the careful way. */
	private fastWay: 'plain' | 'stripped' | 'off' = 'plain';
	private checkFailed = false;

	/**
	 * `maxBytes`: a file larger than this is refused as soon as that is certain.
	 * `expectedBytes`: the file's size at most when known beforehand (from the text's or the
	 * answer's length), else the limit bounds it.
	 */
	constructor(
		private readonly maxBytes: number,
		expectedBytes?: number,
		/** `expectedBytes` comes from the whole text, already in memory: the file's size to a few bytes. */
		wholeTextInHand = false,
	) {
		this.bytes = new DecodedBytes(Math.min(expectedBytes ?? maxBytes, maxBytes), wholeTextInHand);
	}

	get failed(): Base64Problem | undefined {
		return this.problem;
	}

	/** Bytes the file has at least, from the text read so far. */
	get sizeSoFar(): number {
		return decodedSizeOf(this.letters + this.padding);
	}

	/** Takes the next piece of the text (latin1: one character per byte of the answer). */
	write(text: string): void {
		if (this.problem || text === '') return;
		if (!this.headDone) {
			text = this.takeHead(text);
			if (this.problem || text === '') return;
		}
		if (this.padding === 0 && this.fastWay !== 'off') {
			if (this.fastWay === 'plain') {
				text = this.takeWholeQuanta(text);
				// A check failed: a text wrapped in lines fails it every time, so the
				// whitespace is taken out first from here on (it is allowed anywhere).
				if (this.checkFailed) this.fastWay = 'stripped';
			}
			if (this.fastWay === 'stripped') {
				const letters = text.replace(WHITESPACE_RUNS, '');
				// Near the limit the careful way takes the text as it came, to count the letters
				// the same way (run by run) wherever it finds the file too large.
				if (decodedSizeOf(this.letters + letters.length) <= this.maxBytes) {
					text = this.takeWholeQuanta(letters);
					if (this.checkFailed) this.fastWay = 'off';
				}
			}
			if (text === '') return;
		}
		NOT_ALPHABET.lastIndex = 0;
		let from = 0;
		let match: RegExpExecArray | null;
		while ((match = NOT_ALPHABET.exec(text)) !== null) {
			if (match.index > from) this.takeLetters(text.slice(from, match.index));
			if (this.problem) return;
			this.other(match[0]);
			if (this.problem) return;
			from = match.index + 1;
		}
		if (from < text.length) this.takeLetters(from === 0 ? text : text.slice(from));
	}

	/** The decoded file, or why there is none. */
	finish(): { ok: true; data: Buffer } | { ok: false; problem: Base64Problem } {
		if (!this.problem && !this.headDone) this.takeHead('', true);
		if (this.problem) return { ok: false, problem: this.problem };
		const length = this.letters + this.padding;
		if (length === 0) return { ok: false, problem: { kind: 'empty' } };
		if (length % 4 !== 0) {
			return { ok: false, problem: { kind: 'invalid', reason: `its length (${length} characters) is not a multiple of 4` } };
		}
		this.decode(this.pending + '='.repeat(this.padding));
		this.pending = '';
		return { ok: true, data: this.bytes.result() };
	}

	/**
	 * The fast way for what nearly every file is, whole quanta of the alphabet alone: decoded
	 * natively straight into the file's buffer and encoded back; an equal text proves every
	 * character was in the alphabet (the encoder writes nothing else, and a last quantum that
	 * may hold `=` is left to the careful way). The letters held back complete their quantum
	 * with the text's first ones, and the rest of the text's whole quanta is a slice of it, so
	 * no copy of the text is made. Returns what is left for the careful way: all of the text
	 * from the quantum whose check failed, so it finds and names the fault.
	 */
	private takeWholeQuanta(text: string): string {
		this.checkFailed = false;
		const held = this.pending.length;
		const total = held + text.length;
		let end = total - (total % 4);
		if (end > held && text.charCodeAt(end - 1 - held) === EQUALS) end -= 4;
		if (end <= held) return text;
		const added = end - held;
		// Over the limit: the careful way counts the letters and says so.
		if (decodedSizeOf(this.letters + added) > this.maxBytes) return text;
		let from = 0;
		if (held !== 0) {
			from = 4 - held;
			const first = this.decoded(this.pending + text.slice(0, from));
			if (!first) return this.checkFails(text);
			this.take(first, from);
		}
		if (from === added) return text.slice(from);
		const rest = this.decoded(text.slice(from, added));
		if (!rest) return this.checkFails(text.slice(from));
		this.take(rest, added - from);
		return added === text.length ? '' : text.slice(added);
	}

	/** Checked bytes of `letters` letters of the text (with those held back) now count. */
	private take(decoded: Buffer, letters: number): void {
		this.bytes.commit(decoded);
		this.letters += letters;
		this.pending = '';
	}

	/** Whole quanta decoded into the file's next bytes (not yet counted), if they are of the alphabet alone. */
	private decoded(quanta: string): Buffer | undefined {
		const decoded = this.bytes.decode(quanta);
		return decoded.length === decodedSizeOf(quanta.length) && decoded.toString('base64') === quanta ? decoded : undefined;
	}

	/** The check failed: what is left goes the careful way, which finds and names the fault. */
	private checkFails(rest: string): string {
		this.checkFailed = true;
		return rest;
	}

	/** Holds back the start of the text until it is known whether it is a `data:` URL. */
	private takeHead(text: string, ended = false): string {
		this.head += text;
		const start = this.head.slice(0, 5).toLowerCase();
		if (!'data:'.startsWith(start) || (start.length < 5 && ended)) return this.endHead(this.head);
		if (start.length < 5) return '';
		const comma = this.head.indexOf(',');
		if (comma === -1) {
			if (this.head.length > MAX_PREFIX || ended) this.fail('it starts like a data: URL but has no ";base64," part');
			return '';
		}
		if (!DATA_URL.test(this.head.slice(0, comma + 1))) {
			this.fail('it is a data: URL that is not base64 (no ";base64," before the comma)');
			return '';
		}
		return this.endHead(this.head.slice(comma + 1));
	}

	private endHead(rest: string): string {
		this.headDone = true;
		this.head = '';
		if (rest !== '') this.write(rest);
		return '';
	}

	private takeLetters(run: string): void {
		if (this.padding > 0) {
			this.fail('it has characters after its "=" padding');
			return;
		}
		this.letters += run.length;
		if (decodedSizeOf(this.letters) > this.maxBytes) {
			this.problem = { kind: 'tooLarge', bytes: decodedSizeOf(this.letters), size: 'atLeast' };
			this.pending = '';
			return;
		}
		this.pending += run;
		if (this.pending.length >= DECODE_STEP) {
			const whole = this.pending.length - (this.pending.length % 4);
			this.decode(this.pending.slice(0, whole));
			this.pending = this.pending.slice(whole);
		}
	}

	private other(character: string): void {
		if (WHITESPACE.test(character)) return;
		if (character === '=') {
			this.padding += 1;
			if (this.padding > 2) this.fail('it has more than two "=" at its end');
			return;
		}
		const code = character.charCodeAt(0);
		const shown = code >= 0x21 && code < 0x7f ? `"${character}"` : `character ${code}`;
		this.fail(`it holds ${shown} (base64 is A–Z, a–z, 0–9, +, / and = at the end)`);
	}

	private fail(reason: string): void {
		this.problem = { kind: 'invalid', reason };
		this.pending = '';
	}

	private decode(text: string): void {
		if (text !== '') this.bytes.commit(this.bytes.decode(text));
	}
}

/** Bytes of a base64 text without whitespace: its length and its `=` padding say it exactly. */
function exactSizeOf(text: string, from: number): number {
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	return decodedSizeOf(text.length - from) - padding;
}

/** Decodes a whole base64 string (as a delivery carries it) in slices, never copying the text. */
export function decodeBase64Text(text: string, maxBytes: number): { ok: true; data: Buffer } | { ok: false; problem: Base64Problem } {
	const prefix = /^data:[^,]{0,240},/i.exec(text.slice(0, MAX_PREFIX))?.[0].length ?? 0;
	const atMost = decodedSizeOf(text.length - prefix);
	// Without whitespace the size is known from the length: a file over the limit is refused
	// before any of it is decoded.
	// (`atMost` counts the `=` padding as bytes: a file of exactly the limit is not refused for it.)
	if (atMost > maxBytes && !/\s/.test(text)) {
		const bytes = exactSizeOf(text, prefix);
		if (bytes > maxBytes) return { ok: false, problem: { kind: 'tooLarge', bytes, size: 'exact' } };
	}
	const decoder = new Base64Decoder(maxBytes, Math.min(atMost, maxBytes), true);
	for (let from = 0; from < text.length && !decoder.failed; from += DECODE_STEP) {
		decoder.write(text.slice(from, from + DECODE_STEP));
	}
	return decoder.finish();
}
