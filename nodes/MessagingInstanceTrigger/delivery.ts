import type { IDataObject } from 'n8n-workflow';

import { redactDeep } from '../shared/secret';
import { SECRET_PARAM } from './registration';

/**
 * What a delivery carries and how it becomes an output item. Pure functions: no request,
 * no n8n context, so each rule can be read (and tested) on its own.
 */

export interface Envelope extends IDataObject {
	event: string;
	instance: string;
	data: IDataObject | IDataObject[];
}

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A delivery body the trigger understands, or undefined (answered with 400). */
export function asEnvelope(body: unknown): Envelope | undefined {
	if (!isRecord(body)) return undefined;
	if (typeof body.event !== 'string' || body.event.trim() === '') return undefined;
	if (body.instance !== undefined && typeof body.instance !== 'string') return undefined;
	if (!isRecord(body.data) && !Array.isArray(body.data)) return undefined;
	return body as Envelope;
}

/** The `key` of a message event: `{remoteJid, fromMe, id, participant?}`. */
export interface MessageKey {
	remoteJid: string;
	fromMe: boolean;
	id: string;
	participant?: string;
}

export function messageKeyOf(data: Envelope['data']): MessageKey | undefined {
	if (!isRecord(data) || !isRecord(data.key)) return undefined;
	const key = data.key;
	if (typeof key.remoteJid !== 'string') return undefined;
	return {
		remoteJid: key.remoteJid,
		fromMe: key.fromMe === true,
		id: typeof key.id === 'string' ? key.id : '',
		...(typeof key.participant === 'string' && key.participant !== ''
			? { participant: key.participant }
			: {}),
	};
}

export function isGroupJid(jid: string): boolean {
	return jid.endsWith('@g.us');
}

/**
 * The envelope without what must never reach the output: the instance token (`apikey`),
 * the secret in `destination`, and any other copy of a secret (replaced wherever it is).
 */
export function withoutSecrets(envelope: Envelope, secrets: readonly string[]): IDataObject {
	const { apikey: _token, ...rest } = envelope;
	const clean: IDataObject = { ...rest };
	if (typeof clean.destination === 'string') {
		try {
			const url = new URL(clean.destination);
			url.searchParams.delete(SECRET_PARAM);
			clean.destination = url.toString();
		} catch {
			delete clean.destination;
		}
	}
	const hidden = typeof _token === 'string' ? [...secrets, _token] : [...secrets];
	return redactDeep(clean, hidden);
}

const WRAPPERS = [
	'ephemeralMessage',
	'viewOnceMessage',
	'viewOnceMessageV2',
	'viewOnceMessageV2Extension',
	'documentWithCaptionMessage',
	'editedMessage',
];

/** The message content without the wrappers that only say how it is shown. */
function unwrap(message: IDataObject): IDataObject {
	let current = message;
	for (let depth = 0; depth < 5; depth++) {
		const wrapper = WRAPPERS.find((name) => isRecord(current[name]));
		if (!wrapper) break;
		const inner = (current[wrapper] as IDataObject).message;
		if (!isRecord(inner)) break;
		current = inner;
	}
	return current;
}

function str(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The readable text of a message, whatever its kind ('' when it has none). */
export function textOf(message: unknown): string {
	if (!isRecord(message)) return '';
	const m = unwrap(message);
	const field = (name: string): IDataObject =>
		isRecord(m[name]) ? (m[name] as IDataObject) : {};
	const protocol = field('protocolMessage');
	const edited = isRecord(protocol.editedMessage) ? textOf(protocol.editedMessage) : '';
	const interactive = field('interactiveResponseMessage');
	const interactiveBody = isRecord(interactive.body) ? interactive.body : {};
	const list = field('listResponseMessage');
	const location = field('locationMessage');
	return (
		str(m.conversation) ??
		str(field('extendedTextMessage').text) ??
		str(field('imageMessage').caption) ??
		str(field('videoMessage').caption) ??
		str(field('documentMessage').caption) ??
		str(list.title) ??
		str(isRecord(list.singleSelectReply) ? list.singleSelectReply.selectedRowId : undefined) ??
		str(field('buttonsResponseMessage').selectedDisplayText) ??
		str(field('templateButtonReplyMessage').selectedDisplayText) ??
		str(interactiveBody.text) ??
		str(field('reactionMessage').text) ??
		str(field('pollCreationMessage').name) ??
		str(field('pollCreationMessageV3').name) ??
		str(field('contactMessage').displayName) ??
		str(location.name) ??
		str(location.address) ??
		str(field('documentMessage').fileName) ??
		(edited || '')
	);
}

const NOT_CONTENT = new Set(['base64', 'messageContextInfo', 'mediaUrl']);

export function messageTypeOf(data: IDataObject): string {
	if (typeof data.messageType === 'string' && data.messageType !== '') return data.messageType;
	if (!isRecord(data.message)) return '';
	return Object.keys(unwrap(data.message)).find((key) => !NOT_CONTENT.has(key)) ?? '';
}

/** `messageTimestamp` (seconds, as a number, a text or a protobuf Long) as an ISO date. */
export function timestampOf(value: unknown, fallback: unknown): string | undefined {
	let seconds: number | undefined;
	if (typeof value === 'number') seconds = value;
	else if (typeof value === 'string' && /^\d+$/.test(value)) seconds = Number(value);
	else if (isRecord(value) && typeof value.low === 'number') {
		seconds = (value.low >>> 0) + (typeof value.high === 'number' ? value.high * 2 ** 32 : 0);
	}
	if (seconds !== undefined && Number.isFinite(seconds) && seconds > 0) {
		return new Date(seconds * 1000).toISOString();
	}
	if (typeof fallback === 'string' && !Number.isNaN(Date.parse(fallback))) {
		return new Date(fallback).toISOString();
	}
	return undefined;
}

/** The media part of a message: which kind, its MIME type, file name and caption. */
export interface MediaInfo {
	kind: string;
	mimeType: string;
	fileName?: string;
}

const MEDIA_KINDS = ['imageMessage', 'videoMessage', 'audioMessage', 'documentMessage', 'stickerMessage'];

export function mediaOf(message: unknown): MediaInfo | undefined {
	if (!isRecord(message)) return undefined;
	const m = unwrap(message);
	const kind = MEDIA_KINDS.find((name) => isRecord(m[name]));
	if (!kind) return undefined;
	const media = m[kind] as IDataObject;
	const mimeType = (str(media.mimetype) ?? 'application/octet-stream').split(';')[0].trim();
	return { kind: kind.replace(/Message$/, ''), mimeType, fileName: str(media.fileName) };
}

const EXTENSIONS: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'video/mp4': 'mp4',
	'video/3gpp': '3gp',
	'audio/ogg': 'ogg',
	'audio/mpeg': 'mp3',
	'audio/mp4': 'm4a',
	'audio/aac': 'aac',
	'application/pdf': 'pdf',
	'text/plain': 'txt',
	'application/octet-stream': 'bin',
};

/** The file's own name, or one made of the message id and the MIME type's usual extension. */
export function fileNameOf(media: MediaInfo, messageId: string): string {
	if (media.fileName) return media.fileName;
	const subtype = media.mimeType.split('/')[1] ?? 'bin';
	const extension = EXTENSIONS[media.mimeType] ?? subtype.replace(/[^a-z0-9]/gi, '').slice(0, 8);
	return `${messageId || media.kind}.${extension || 'bin'}`;
}

/** The clean item of a message event (MESSAGES_UPSERT, SEND_MESSAGE, …). */
export function simplifiedMessage(envelope: Envelope, data: IDataObject, key: MessageKey): IDataObject {
	const isGroup = isGroupJid(key.remoteJid);
	const media = mediaOf(data.message);
	return {
		event: envelope.event,
		instance: envelope.instance,
		chatId: key.remoteJid,
		remoteJid: key.remoteJid,
		sender: isGroup && key.participant ? key.participant : key.remoteJid,
		fromMe: key.fromMe,
		messageId: key.id,
		pushName: typeof data.pushName === 'string' ? data.pushName : '',
		messageType: messageTypeOf(data),
		text: textOf(data.message),
		isGroup,
		timestamp: timestampOf(data.messageTimestamp, envelope.date_time) ?? null,
		...(media ? { media: { kind: media.kind, mimeType: media.mimeType, ...(media.fileName ? { fileName: media.fileName } : {}) } } : {}),
	};
}

/** The clean item of any other event: its data fields next to `event` and `instance`. */
export function simplifiedEvent(envelope: Envelope): IDataObject {
	const fields = isRecord(envelope.data) ? envelope.data : { data: envelope.data };
	return { ...fields, event: envelope.event, instance: envelope.instance };
}
