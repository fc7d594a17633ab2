import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { Base64Text } from '../../../shared/jsonBody';
import { cleanFileName, cleanMimeType, extensionFor, extensionOf, fileNameFromUrl, isMimeType, kindOf, mimeTypeOf, type MediaKind } from '../../../shared/files';
import { recipientProperty } from '../fields';
import { quoted } from '../normalise';
import type { ItemParameters } from '../parameters';
import type { Operation } from '../types';
import { mediaOptionsProperty, messageOptions, withMessageOptions } from './common';
import { messageIdFor, messageIdOption, withMessageId } from './messageId';

/**
 * Where a media send takes its file from — an n8n binary field (the default: what the node
 * before it made), a URL, or base64 text — and the checks a real v2.x server would fail on
 * later or never: it refuses a URL without a top-level domain ("Owned media must be a url or
 * base64") and lets an empty string through.
 */

/**
 * A file to send: a URL the server downloads, or the file itself — its bytes (from binary
 * data) or raw base64 text (no `data:` prefix).
 */
export type MediaFile = { mimeType?: string; fileName?: string } & ({ fromUrl: true; media: string } | { fromUrl: false; media: Buffer | string });

/** The parameters a file source reads: the picker, and the field of each source. */
export interface SourceParameters {
	source: string;
	binary: string;
	url: string;
	base64: string;
}

const SOURCE_PARAMETERS: SourceParameters = { source: 'mediaSource', binary: 'binaryPropertyName', url: 'mediaUrl', base64: 'mediaBase64' };

/** The source picker and its three fields; `what` says what the file is ("image", "voice note"). */
export function mediaSourceProperties(what: string): INodeProperties[] {
	return [
		{
			displayName: 'File Source',
			name: SOURCE_PARAMETERS.source,
			type: 'options',
			default: 'binary',
			options: [
				{ name: 'Binary File', value: 'binary', description: 'A file of the input item (from the node before this one)' },
				{ name: 'URL', value: 'url', description: 'An address on the internet the server downloads the file from' },
				{ name: 'Base64 Text', value: 'base64', description: 'The file as base64 text' },
			],
			description: `Where the ${what} comes from`,
		},
		{
			displayName: 'Input Binary Field',
			name: SOURCE_PARAMETERS.binary,
			type: 'string',
			default: 'data',
			displayOptions: { show: { mediaSource: ['binary'] } },
			hint: 'The name of the input binary field containing the file to be sent',
		},
		{
			displayName: 'URL',
			name: SOURCE_PARAMETERS.url,
			type: 'string',
			default: '',
			placeholder: 'https://example.com/file.pdf',
			displayOptions: { show: { mediaSource: ['url'] } },
			description: `Address of the ${what}. The server downloads it, so it must be reachable from the server and have a domain (not localhost).`,
		},
		{
			displayName: 'Base64 Data',
			name: SOURCE_PARAMETERS.base64,
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			displayOptions: { show: { mediaSource: ['base64'] } },
			description: `The ${what} as base64 text (a data: URL prefix is allowed)`,
		},
	];
}

/** An http(s) address with a top-level domain: the only kind of URL a v2.x server downloads. */
function checkMediaUrl(params: ItemParameters, url: string): void {
	let parsed: URL | undefined;
	try {
		parsed = url.length <= 8_192 ? new URL(url) : undefined;
	} catch {
		parsed = undefined;
	}
	const host = parsed?.hostname ?? '';
	const topLevel = host.slice(host.lastIndexOf('.') + 1);
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !host.includes('.') || !/^[a-z]{2,63}$/i.test(topLevel)) {
		params.fail(
			'URL',
			`must be an http(s) address with a domain, such as https://example.com/file.pdf, not ${quoted(url)}`,
			'The server downloads the file itself and refuses addresses without a top-level domain (localhost, a bare IP address or host name). Send the file as binary data instead.',
		);
	}
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Reads the file of one item from the chosen source and checks it before anything is sent.
 * `names` are the parameters to read (Send Status keeps its URL in `content`).
 */
export async function readMedia(
	params: ItemParameters,
	options: IDataObject,
	names: SourceParameters = SOURCE_PARAMETERS,
): Promise<MediaFile> {
	const source = params.text(names.source, 'File Source');
	let file: MediaFile;
	if (source === 'binary') {
		const binary = await params.binaryFile(names.binary, 'Input Binary Field');
		// The bytes as they are: the transport encodes them into the request body (no base64 copy here).
		// Name and type as another node or a user left them: a header-safe type, a base name.
		file = { media: binary.data, fromUrl: false, mimeType: cleanMimeType(binary.mimeType), fileName: cleanFileName(binary.fileName) };
	} else if (source === 'url') {
		const url = params.text(names.url, 'URL').trim();
		checkMediaUrl(params, url);
		const fileName = fileNameFromUrl(new URL(url));
		file = { media: url, fromUrl: true, fileName, mimeType: fileName ? mimeTypeOf(fileName) : undefined };
	} else if (source === 'base64') {
		const given = params.text(names.base64, 'Base64 Data').trim();
		const prefix = /^data:([^;,]{1,200})?(;[^,]{0,200})?;base64,/.exec(given);
		const media = (prefix ? given.slice(prefix[0].length) : given).replace(/\s+/g, '');
		if (media === '' || media.length % 4 !== 0 || !BASE64.test(media)) {
			params.fail('Base64 Data', 'is not base64 text', 'Give the file as base64 (A–Z, a–z, 0–9, +, / and = padding), with or without a data: URL prefix.');
		}
		file = { media, fromUrl: false, mimeType: prefix?.[1] };
	} else {
		return params.fail('File Source', `must be binary, url or base64, not ${quoted(source)}`);
	}
	const mimeType = params.checkText(options.mimeType, params.label('options.mimeType')).trim();
	const fileName = params.checkText(options.fileName, params.label('options.fileName')).trim();
	if (mimeType !== '') {
		if (!isMimeType(mimeType)) {
			params.fail(params.label('options.mimeType'), `must be a MIME type such as application/pdf, not ${quoted(mimeType)}`);
		}
		file.mimeType = mimeType;
	}
	if (fileName !== '') {
		const clean = cleanFileName(fileName);
		if (clean !== fileName) {
			params.fail(params.label('options.fileName'), `must be a file name without folders or control characters, at most 255 bytes, not ${quoted(fileName.slice(0, 300))}`);
		}
		file.fileName = clean;
	}
	file.mimeType ??= file.fileName ? mimeTypeOf(file.fileName) : undefined;
	return file;
}

/**
 * The file as the body carries it: a URL as text; bytes or base64 text as a Base64Text, which
 * the transport writes into the request as base64 without JSON.stringify copying it.
 */
export function mediaValue(file: MediaFile): IDataObject | string {
	return file.fromUrl ? file.media : (new Base64Text(file.media) as unknown as IDataObject);
}

/** Refuses a file whose MIME type the chosen media type cannot carry; a file of unknown type goes as it is. */
export function checkKind(params: ItemParameters, kind: MediaKind, file: MediaFile, label: string): void {
	if (kind === 'document' || file.mimeType === undefined) return;
	if (kindOf(file.mimeType) !== kind) {
		params.fail(label, `is ${kind}, but the file is ${quoted(file.mimeType)}`, `Choose a ${kindOf(file.mimeType)} type, or send the file as a document.`);
	}
}

/** A file name with the extension of its MIME type when it has none (what the recipient sees). */
export function fileNameFor(file: MediaFile, fallbackBase: string): string | undefined {
	const extension = file.mimeType ? extensionFor(file.mimeType) : undefined;
	if (file.fileName) return extensionOf(file.fileName) || !extension ? file.fileName : `${file.fileName}.${extension}`;
	return extension ? `${fallbackBase}.${extension}` : undefined;
}

/**
 * Voice note, sticker and video note: one file in one field of the body, with the options of
 * a message. `kind` is what the file must be.
 */
export function singleFileSend(spec: {
	value: string;
	name: string;
	action: string;
	description: string;
	path: string;
	field: string;
	kind: MediaKind;
	what: string;
	/** Whether the send takes a message id (see messageId.ts): Evolution API 2.4 reads it on sendPtv and sendSticker. */
	carriesMessageId?: boolean;
}): Operation {
	return {
		resource: 'message',
		value: spec.value,
		name: spec.name,
		action: spec.action,
		description: spec.description,
		v2Only: true,
		properties: [recipientProperty(), ...mediaSourceProperties(spec.what), mediaOptionsProperty(spec.carriesMessageId ? [messageIdOption] : [])],
		path: spec.path,
		// The server shows "recording…" before a voice note, "typing…" before any other file.
		sendsMessage: { toNumber: true, typing: spec.kind === 'audio' ? 'recording' : 'composing' },
		...(spec.carriesMessageId ? { carriesMessageId: true } : {}),
		buildRequest: async (params, dialect, run) => {
			const number = params.recipient('number');
			const options = messageOptions(params);
			const messageId = spec.carriesMessageId ? messageIdFor(params, dialect, run) : undefined;
			const file = await readMedia(params, {});
			checkKind(params, spec.kind, file, 'File');
			return withMessageId(withMessageOptions({ number, [spec.field]: mediaValue(file) }, options), messageId);
		},
	};
}
