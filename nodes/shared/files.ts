import type { INodeProperties } from 'n8n-workflow';

import type { Base64Problem, SizeKnown } from './base64';

/**
 * Files, for both nodes: the MIME types known by extension, the names and types a file may
 * carry (whatever a URL, a server or an input item says), the size limit and how its
 * breach and a broken base64 text are told. The decoding itself is in base64.ts (strict, in
 * pieces) and fileAnswer.ts (a file streamed out of a JSON answer).
 */

/** The media type a MIME type carries (what a message of it is shown as). */
export type MediaKind = 'image' | 'video' | 'audio' | 'document';

/** Extensions the MIME type of a file name or URL is read from, and back (the first extension of a type wins). */
const MIME_BY_EXTENSION: Record<string, string> = {
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	gif: 'image/gif',
	webp: 'image/webp',
	mp4: 'video/mp4',
	'3gp': 'video/3gpp',
	mov: 'video/quicktime',
	mp3: 'audio/mpeg',
	ogg: 'audio/ogg',
	opus: 'audio/opus',
	m4a: 'audio/mp4',
	aac: 'audio/aac',
	wav: 'audio/wav',
	amr: 'audio/amr',
	pdf: 'application/pdf',
	txt: 'text/plain',
	csv: 'text/csv',
	json: 'application/json',
	zip: 'application/zip',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	ppt: 'application/vnd.ms-powerpoint',
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

export function extensionOf(name: string): string | undefined {
	const match = /\.([A-Za-z0-9]{1,8})$/.exec(name);
	return match ? match[1].toLowerCase() : undefined;
}

/** The MIME type a file name's extension says, if it is a known one. */
export function mimeTypeOf(name: string): string | undefined {
	const extension = extensionOf(name);
	return extension ? MIME_BY_EXTENSION[extension] : undefined;
}

/** The usual extension of a MIME type, if it is a known one (`bin` for unknown bytes). */
export function extensionFor(mimeType: string): string | undefined {
	const bare = mimeType.split(';')[0].trim().toLowerCase();
	if (bare === UNKNOWN_MIME_TYPE) return 'bin';
	return Object.keys(MIME_BY_EXTENSION).find((extension) => MIME_BY_EXTENSION[extension] === bare);
}

export function kindOf(mimeType: string | undefined): MediaKind {
	const top = mimeType?.split('/')[0].toLowerCase();
	return top === 'image' || top === 'video' || top === 'audio' ? top : 'document';
}

// ------------------------------------------------------------------ names and types

/** Longest file name kept, in UTF-8 bytes (what file systems allow). */
export const MAX_FILE_NAME_BYTES = 255;
/** Longest MIME type kept, parameters included. */
export const MAX_MIME_TYPE_LENGTH = 255;

const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
/** `type/subtype` with `; name=value` parameters (a token or a quoted string), and nothing else. */
const MIME_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*"))*$`);
const MIME_ESSENCE = new RegExp(`^(${TOKEN}/${TOKEN})(?=$|[;\\s\\x00-\\x1f\\x7f])`);

/**
 * A MIME type as a header may carry it: `type/subtype(; name=value)*` kept as it is, a type
 * followed by anything else (a line break and a header, say) cut to `type/subtype`, anything
 * that is not a type at all `undefined`.
 */
export function cleanMimeType(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const trimmed = value.slice(0, 4 * MAX_MIME_TYPE_LENGTH).trim();
	if (trimmed.length <= MAX_MIME_TYPE_LENGTH && MIME_TYPE.test(trimmed)) return trimmed;
	const essence = MIME_ESSENCE.exec(trimmed)?.[1];
	return essence && essence.length <= MAX_MIME_TYPE_LENGTH ? essence : undefined;
}

/** Whether a MIME type a user typed is one as it stands (no cutting for what a user chose). */
export function isMimeType(value: string): boolean {
	return value.length <= MAX_MIME_TYPE_LENGTH && MIME_TYPE.test(value);
}

/** Control characters, and the ones that reorder how a name reads (a `gpj.exe` shown as `exe.jpg`). */
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The first `maxBytes` UTF-8 bytes of a text, never cutting a character in two. */
function utf8Prefix(text: string, maxBytes: number): string {
	if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
	let result = '';
	let bytes = 0;
	for (const character of text) {
		bytes += Buffer.byteLength(character, 'utf8');
		if (bytes > maxBytes) break;
		result += character;
	}
	return result;
}

/**
 * A file name as a recipient's or a disk's file may have it: the base name only (no folder
 * part, whichever slash), without control or reordering characters, at most 255 UTF-8 bytes
 * (the extension kept); `undefined` when nothing of it is left.
 */
export function cleanFileName(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	// Bounded first: a megabyte-long name is cut before any work on it.
	const bounded = value.length > 4 * MAX_FILE_NAME_BYTES ? value.slice(-4 * MAX_FILE_NAME_BYTES) : value;
	const base = bounded.replace(UNSAFE_IN_NAME, '').split(/[/\\]/).pop()?.trim() ?? '';
	if (base === '' || base === '.' || base === '..') return undefined;
	if (Buffer.byteLength(base, 'utf8') <= MAX_FILE_NAME_BYTES) return base;
	const extension = extensionOf(base);
	const tail = extension ? `.${extension}` : '';
	return `${utf8Prefix(base.slice(0, base.length - tail.length), MAX_FILE_NAME_BYTES - tail.length)}${tail}`;
}

/**
 * The file name a URL's last path part gives, decoded. A part that is not valid percent-encoding
 * (`a%E0%A4%A.pdf`) is taken as it is written rather than failing; an encoded folder part
 * (`..%2F..%2Fetc%2Fpasswd`) leaves only the base name.
 */
export function fileNameFromUrl(url: URL): string | undefined {
	const last = url.pathname.split('/').pop() ?? '';
	let decoded: string;
	try {
		decoded = decodeURIComponent(last);
	} catch {
		decoded = last;
	}
	return cleanFileName(decoded);
}

// ------------------------------------------------------------------ size limit

/** The default of both nodes' file size limit, in MB (MiB: 1 MB = 1,048,576 bytes). */
export const DEFAULT_MAX_FILE_MB = 64;
const BYTES_PER_MB = 1024 * 1024;
/** The highest limit a user can set: a file of it fits in memory as a buffer and its base64 as one string. */
export const HIGHEST_MAX_FILE_MB = 1024;

export const MAX_FILE_SIZE_OPTION = 'maxFileSizeMb';
export const MAX_FILE_SIZE_LABEL = 'Max File Size (MB)';

/** The option both nodes show; `what` says which files it bounds. */
export function maxFileSizeProperty(what: string): INodeProperties {
	return {
		displayName: MAX_FILE_SIZE_LABEL,
		name: MAX_FILE_SIZE_OPTION,
		type: 'number',
		typeOptions: { minValue: 1, maxValue: HIGHEST_MAX_FILE_MB },
		default: DEFAULT_MAX_FILE_MB,
		description: `Largest ${what}, in MB (1 MB = 1,048,576 bytes). A larger file is refused before it is decoded: it takes about 2.5 times its size in memory while it is read.`,
	};
}

/** The limit in bytes from the option's value (the default when it is missing or not a number). */
export function maxFileBytes(optionValue: unknown): number {
	const mb = typeof optionValue === 'number' && Number.isFinite(optionValue) && optionValue > 0 ? Math.min(optionValue, HIGHEST_MAX_FILE_MB) : DEFAULT_MAX_FILE_MB;
	return Math.floor(mb * BYTES_PER_MB);
}

function megabytes(bytes: number): string {
	return `${(bytes / BYTES_PER_MB).toFixed(1)} MB`;
}

/** "the file is 400.0 MB (419,430,400 bytes), more than the limit of 64 MB" */
export function tooLargeText(fileBytes: number, size: SizeKnown, maxBytes: number): string {
	const how = size === 'about' ? 'about ' : size === 'atLeast' ? 'more than ' : '';
	return `the file is ${how}${megabytes(fileBytes)} (${fileBytes.toLocaleString('en-US')} bytes), more than the limit of ${megabytes(maxBytes).replace('.0 ', ' ')}`;
}

/** Why a base64 text is not a file, in words. */
export function base64ProblemText(problem: Base64Problem, maxBytes: number): string {
	if (problem.kind === 'empty') return 'the file is empty';
	if (problem.kind === 'tooLarge') return tooLargeText(problem.bytes, problem.size, maxBytes);
	return `the file is not valid base64: ${problem.reason}`;
}

export { decodeBase64Text } from './base64';
