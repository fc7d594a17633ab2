import type { IDataObject } from 'n8n-workflow';

/**
 * Bytes encoded per step when a file's base64 is written into a body: a multiple of 3, so the
 * pieces join without padding, and small enough (32 KB of text) that each piece is a short-lived
 * string of V8's young generation instead of one 21 MB string that the garbage collector must
 * mark and move (measured on Node 24: 7 ms against 15–25 ms for a 16 MB file).
 */
const ENCODE_STEP = 3 * 8192;

/**
 * A file to go into a request body as base64: its bytes (from n8n binary data), or base64 text
 * the node checked. Base64 needs no JSON escaping, so the body is written around it instead of
 * through JSON.stringify — which would scan and copy a 21 MB string twice for a 16 MB video —
 * and bytes are encoded straight into the body, piece by piece, never as one string.
 */
export class Base64Text {
	constructor(readonly source: string | Buffer) {}

	/** Characters of base64 (= bytes in the body, without the quotes). */
	get length(): number {
		return typeof this.source === 'string' ? this.source.length : Math.ceil(this.source.length / 3) * 4;
	}

	/** Writes the base64 into `target` at `offset`; returns the bytes written. */
	writeTo(target: Buffer, offset: number): number {
		const source = this.source;
		if (typeof source === 'string') return target.write(source, offset, 'latin1');
		let written = 0;
		for (let start = 0; start < source.length; start += ENCODE_STEP) {
			const piece = source.subarray(start, Math.min(start + ENCODE_STEP, source.length)).toString('base64');
			written += target.write(piece, offset + written, 'latin1');
		}
		return written;
	}

	toJSON(): string {
		return typeof this.source === 'string' ? this.source : this.source.toString('base64');
	}
}

const QUOTE = 0x22;

/**
 * The body as JSON bytes when it carries Base64Text values (top-level fields, where the
 * routes take their media); otherwise the body as it is, for n8n's helper to serialise.
 * The bytes are what JSON.stringify(body) gives — fields in the same order, each other value
 * serialised by JSON.stringify itself, fields it leaves out (undefined) left out — allocated
 * once at their final size, each file written into them once.
 */
export function jsonBody(body: IDataObject): IDataObject | Buffer {
	const entries = Object.entries(body);
	if (!entries.some(([, value]) => value instanceof Base64Text)) return body;
	const parts: Array<string | Base64Text> = [];
	let text = '';
	for (const [key, value] of entries) {
		const field = `${text === '' && parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:`;
		if (value instanceof Base64Text) {
			parts.push(text + field, value);
			text = '';
			continue;
		}
		const json = JSON.stringify(value) as string | undefined;
		if (json !== undefined) text += field + json;
	}
	parts.push(`${text}}`);
	const size = parts.reduce((sum, part) => sum + (typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part.length + 2), 0);
	const bytes = Buffer.allocUnsafe(size);
	let offset = 0;
	for (const part of parts) {
		if (typeof part === 'string') {
			offset += bytes.write(part, offset, 'utf8');
		} else {
			bytes[offset++] = QUOTE;
			offset += part.writeTo(bytes, offset);
			bytes[offset++] = QUOTE;
		}
	}
	if (offset !== size) throw new Error(`request body: wrote ${offset} of ${size} bytes`);
	return bytes;
}
