import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

/**
 * A file as base64 text that the node made itself (or checked to be base64): it needs no JSON
 * escaping, so the request body is written around it instead of through JSON.stringify —
 * which would scan and copy a 21 MB string twice for a 16 MB video.
 */
export class Base64Text {
	constructor(readonly text: string) {}

	toJSON(): string {
		return this.text;
	}
}

/**
 * Where a file goes, as JSON.stringify writes it: with a random nonce per body, so that no
 * text of the user's can look like one.
 */
const MARK = (nonce: string, index: number) => `\u0000base64:${nonce}:${index}\u0000`;
const markJson = (nonce: string) => new RegExp(`"\\\\u0000base64:${nonce}:(\\d+)\\\\u0000"`, 'g');

/**
 * The body as JSON bytes when it carries Base64Text values (top-level fields, where the
 * routes take their media); otherwise the body as it is, for n8n's helper to serialise.
 */
export function jsonBody(body: IDataObject): IDataObject | Buffer {
	const files: string[] = [];
	const nonce = randomUUID();
	const marked: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		if (value instanceof Base64Text) {
			marked[key] = MARK(nonce, files.length);
			files.push(value.text);
		} else {
			marked[key] = value;
		}
	}
	if (files.length === 0) return body;
	const json = JSON.stringify(marked);
	const parts: Array<{ text: string; encoding: 'utf8' | 'latin1' }> = [];
	let last = 0;
	for (const match of json.matchAll(markJson(nonce))) {
		parts.push({ text: json.slice(last, match.index), encoding: 'utf8' }, { text: `"${files[Number(match[1])]}"`, encoding: 'latin1' });
		last = (match.index ?? 0) + match[0].length;
	}
	parts.push({ text: json.slice(last), encoding: 'utf8' });
	const bytes = Buffer.allocUnsafe(parts.reduce((sum, part) => sum + Buffer.byteLength(part.text, part.encoding), 0));
	let offset = 0;
	for (const part of parts) offset += bytes.write(part.text, offset, part.encoding);
	return bytes;
}
