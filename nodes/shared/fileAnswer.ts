import { Base64Decoder, decodedSizeOf, type Base64Problem, type SizeKnown } from './base64';

/**
 * Reads a JSON answer that carries a file as base64 in one top-level field, as the answer
 * streams in: the file's text goes straight into a strict base64 decoder and is never held as
 * text, JSON or a parsed string; the rest of the answer (a few fields: type, name, size) is
 * kept and parsed at the end. So a file costs its decoded bytes, not the 5–8 copies that
 * reading the whole answer as text, parsing it and decoding the string would make.
 */

/** What the answer may hold besides the file. */
export const MAX_ANSWER_WITHOUT_FILE = 1024 * 1024;

export interface FileAnswerSpec {
	/** The top-level field with the file as base64. */
	fileField: string;
	/** Top-level fields read past and left out (a server's second copy of the file). */
	dropFields: readonly string[];
	/** Larger files are refused. */
	maxBytes: number;
	/** The answer's length in bytes, when the server said it (Content-Length). */
	answerBytes?: number;
}

export type FileAnswer =
	| { ok: true; json: unknown; file: { ok: true; data: Buffer } | { ok: false; problem: Base64Problem } | undefined }
	| { ok: false; problem: 'notJson' | 'tooLargeWithoutFile' }
	/** The file's size: about (from the answer's length) or at least (the rest left unread). */
	| { ok: false; problem: 'tooLarge'; fileBytes: number; size: SizeKnown };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** JSON's escapes: `\/` and line breaks (`\n`) are what a JSON writer may put into base64 text; the others are refused by the decoder. */
const ESCAPED: Record<string, string> = { '/': '/', n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', b: '\b', f: '\f' };

/** The answer's length, when it says a file beyond the limit before a byte is read. */
export function answerTooLarge(answerBytes: number | undefined, maxBytes: number): boolean {
	return answerBytes !== undefined && decodedSizeOf(answerBytes - MAX_ANSWER_WITHOUT_FILE) > maxBytes;
}

class AnswerScanner {
	private readonly kept: Buffer[] = [];
	private keptBytes = 0;
	private consumed = 0;
	private depth = 0;
	private inString = false;
	private escaped = false;
	private readingKey = false;
	private expectKey = false;
	private expectValue = false;
	private key = '';
	private dropping = false;
	private inFile = false;
	private fileEscape: string | undefined;
	private fileSeen = false;
	tooLargeWithoutFile = false;
	decoder: Base64Decoder | undefined;

	constructor(private readonly spec: FileAnswerSpec) {}

	take(chunk: Buffer): void {
		let index = 0;
		let keptFrom = 0;
		while (index < chunk.length && !this.tooLargeWithoutFile) {
			if (this.inFile) {
				index = this.fileText(chunk, index);
				keptFrom = index;
				continue;
			}
			const byte = chunk[index];
			const startsFile = this.step(byte);
			if (startsFile || this.dropping) {
				this.keep(chunk.subarray(keptFrom, index));
				if (startsFile || this.dropStarted) this.keep(Buffer.from('null'));
				this.dropStarted = false;
				keptFrom = index + 1;
				if (startsFile) this.startFile(this.consumed + index + 1);
			}
			index++;
		}
		if (!this.inFile && !this.dropping) this.keep(chunk.subarray(keptFrom, index));
		this.consumed += chunk.length;
	}

	private dropStarted = false;

	/** Follows the JSON one byte at a time outside the file; true when the file's text starts. */
	private step(byte: number): boolean {
		if (this.inString) {
			if (this.escaped) this.escaped = false;
			else if (byte === BACKSLASH) this.escaped = true;
			else if (byte === QUOTE) {
				this.inString = false;
				if (this.readingKey) this.readingKey = false;
			} else if (this.readingKey && this.key.length < 256) this.key += String.fromCharCode(byte);
			return false;
		}
		if (WHITESPACE.has(byte)) return false;
		if (this.expectValue && this.depth === 1) {
			this.expectValue = false;
			const isFile = this.key === this.spec.fileField && !this.fileSeen;
			if (isFile && byte === QUOTE) return true;
			if (this.spec.dropFields.includes(this.key) || (this.key === this.spec.fileField && this.fileSeen)) {
				this.dropping = true;
				this.dropStarted = true;
			}
		}
		if (this.dropping && this.depth === 1 && (byte === 0x2c || byte === 0x7d)) this.dropping = false;
		switch (byte) {
			case QUOTE:
				this.inString = true;
				if (this.depth === 1 && this.expectKey) {
					this.readingKey = true;
					this.expectKey = false;
					this.key = '';
				}
				break;
			case 0x7b: // {
				this.depth++;
				if (this.depth === 1) this.expectKey = true;
				break;
			case 0x5b: // [
				this.depth++;
				break;
			case 0x7d: // }
			case 0x5d: // ]
				this.depth--;
				break;
			case 0x3a: // :
				if (this.depth === 1) this.expectValue = true;
				break;
			case 0x2c: // ,
				if (this.depth === 1) this.expectKey = true;
				break;
		}
		return false;
	}

	private startFile(textStart: number): void {
		this.inFile = true;
		this.fileSeen = true;
		// The answer's length, when said, bounds the file (else the limit does): decoded into one
		// buffer that grows in place up to that bound, never copied or joined.
		const left = this.spec.answerBytes === undefined ? undefined : decodedSizeOf(Math.max(0, this.spec.answerBytes - textStart));
		this.decoder = new Base64Decoder(this.spec.maxBytes, left === undefined ? undefined : Math.min(left, this.spec.maxBytes));
	}

	/** The file's text up to its closing quote, into the decoder; returns where the JSON goes on. */
	private fileText(chunk: Buffer, from: number): number {
		const decoder = this.decoder as Base64Decoder;
		let index = from;
		while (index < chunk.length) {
			if (this.fileEscape !== undefined) {
				index = this.escape(chunk, index, decoder);
				continue;
			}
			const quote = chunk.indexOf(QUOTE, index);
			const backslash = chunk.indexOf(BACKSLASH, index);
			const end = Math.min(quote === -1 ? chunk.length : quote, backslash === -1 ? chunk.length : backslash);
			if (end > index && !decoder.failed) decoder.write(chunk.toString('latin1', index, end));
			if (end === chunk.length) return end;
			if (chunk[end] === QUOTE) {
				this.inFile = false;
				return end + 1;
			}
			this.fileEscape = '';
			index = end + 1;
		}
		return index;
	}

	/** One JSON escape inside the file's text (it may be cut by a chunk's end). */
	private escape(chunk: Buffer, index: number, decoder: Base64Decoder): number {
		this.fileEscape += String.fromCharCode(chunk[index]);
		const escape = this.fileEscape as string;
		if (escape[0] === 'u' && escape.length < 5) return index + 1;
		this.fileEscape = undefined;
		const character = escape[0] === 'u' ? String.fromCharCode(parseInt(escape.slice(1), 16) || 0) : (ESCAPED[escape] ?? `\\${escape}`);
		decoder.write(character);
		return index + 1;
	}

	private keep(bytes: Buffer): void {
		if (bytes.length === 0) return;
		this.keptBytes += bytes.length;
		if (this.keptBytes > MAX_ANSWER_WITHOUT_FILE) {
			this.tooLargeWithoutFile = true;
			return;
		}
		// A copy: the chunk it comes from may be large and is let go.
		this.kept.push(Buffer.from(bytes));
	}

	result(): FileAnswer {
		if (this.tooLargeWithoutFile) return { ok: false, problem: 'tooLargeWithoutFile' };
		const failed = this.decoder?.failed;
		if (failed?.kind === 'tooLarge') return { ok: false, problem: 'tooLarge', fileBytes: failed.bytes, size: 'atLeast' };
		let json: unknown;
		try {
			json = JSON.parse(Buffer.concat(this.kept).toString('utf8'));
		} catch {
			return { ok: false, problem: 'notJson' };
		}
		if (this.inFile) return { ok: false, problem: 'notJson' };
		return { ok: true, json, file: this.decoder?.finish() };
	}

}

/**
 * Reads the answer. A file over the limit is refused before a byte is read when the answer's
 * length says so, else as soon as its text passes the limit (the rest is not read).
 */
export async function readFileAnswer(body: AsyncIterable<Buffer>, spec: FileAnswerSpec): Promise<FileAnswer> {
	if (spec.answerBytes !== undefined && answerTooLarge(spec.answerBytes, spec.maxBytes)) {
		return { ok: false, problem: 'tooLarge', fileBytes: decodedSizeOf(spec.answerBytes), size: 'about' };
	}
	const scanner = new AnswerScanner(spec);
	for await (const chunk of body) {
		scanner.take(chunk);
		if (scanner.tooLargeWithoutFile || scanner.decoder?.failed?.kind === 'tooLarge') break;
	}
	return scanner.result();
}
