import type { IDataObject } from 'n8n-workflow';

import { cleanFileName, cleanMimeType, extensionFor, UNKNOWN_MIME_TYPE } from './files';

/**
 * A message as the server stores and delivers it (a Find Messages record, a webhook event's
 * `data`): who it is from and in which chat, its readable text, its kind, its time and its
 * file. One reading for the trigger, Collect Burst and everything else that reads messages.
 * Pure functions: no request, no n8n context.
 */

/**
 * The `key` of a message event as delivered (`remoteJid`, `fromMe`, `id`, and the optional
 * `participant` and the `…Alt` twins servers add for contacts known by LID), with who the
 * chat and the author are, worked out once here.
 */
export interface MessageKey {
	remoteJid: string;
	fromMe: boolean;
	id: string;
	participant?: string;
	remoteJidAlt?: string;
	participantAlt?: string;
	isGroup: boolean;
	/** Where a reply goes: the group, else the contact's phone JID when the key carries one, else its LID. */
	chatId: string;
	/** Who wrote it: the author's phone JID when the key carries one, else the author's LID. */
	sender: string;
	/** The author's `…@lid` JID when the key carries one, else null. */
	senderLid: string | null;
}

/** The media part of a message: which kind, its MIME type, file name and the file itself. */
export interface MediaInfo {
	kind: string;
	mimeType: string;
	fileName?: string;
}

export function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

export function isPhoneJid(jid: string | undefined): jid is string {
	return jid !== undefined && jid.endsWith('@s.whatsapp.net');
}

export function isLidJid(jid: string | undefined): jid is string {
	return jid !== undefined && jid.endsWith('@lid');
}

/**
 * Servers name a contact known by LID in two fields whose roles change with the version: a
 * direct chat's LID is in `remoteJid` with the phone JID in `remoteJidAlt` (2.3.6), both hold
 * the phone JID (2.3.7), or the other way round (2.4); a group's author is the
 * `participant`/`participantAlt` pair in either order. So each JID is found by what it is,
 * not by which field holds it.
 */
export function identitiesOf(
	remoteJid: string,
	participant: string | undefined,
	remoteJidAlt: string | undefined,
	participantAlt: string | undefined,
): Pick<MessageKey, 'isGroup' | 'chatId' | 'sender' | 'senderLid'> {
	const isGroup = isGroupJid(remoteJid);
	const contact = [remoteJid, remoteJidAlt];
	const chatId = isGroup ? remoteJid : (contact.find(isPhoneJid) ?? remoteJid);
	const author = isGroup ? [participant, participantAlt] : contact;
	const senderLid = author.find(isLidJid) ?? null;
	const sender = isGroup ? (author.find(isPhoneJid) ?? senderLid ?? participant ?? remoteJid) : chatId;
	return { isGroup, chatId, sender, senderLid };
}

export function messageKeyOf(data: IDataObject): MessageKey | undefined {
	if (!isRecord(data.key)) return undefined;
	const key = data.key;
	if (typeof key.remoteJid !== 'string') return undefined;
	const participant = str(key.participant);
	const remoteJidAlt = str(key.remoteJidAlt);
	const participantAlt = str(key.participantAlt);
	return {
		remoteJid: key.remoteJid,
		fromMe: key.fromMe === true,
		id: typeof key.id === 'string' ? key.id : '',
		...(participant ? { participant } : {}),
		...(remoteJidAlt ? { remoteJidAlt } : {}),
		...(participantAlt ? { participantAlt } : {}),
		...identitiesOf(key.remoteJid, participant, remoteJidAlt, participantAlt),
	};
}

export function isGroupJid(jid: string): boolean {
	return jid.endsWith('@g.us');
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
export function unwrap(message: IDataObject): IDataObject {
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

/** The readable text of a message, whatever its kind ('' when it has none). */
export function textOf(message: unknown, depth = 0): string {
	return isRecord(message) && depth <= 3 ? contentTextOf(unwrap(message), depth) : '';
}

/** The same for content already unwrapped. */
export function contentTextOf(m: IDataObject, depth: number): string {
	const field = (name: string): IDataObject => (isRecord(m[name]) ? (m[name] as IDataObject) : {});
	const protocol = field('protocolMessage');
	const edited = isRecord(protocol.editedMessage) ? textOf(protocol.editedMessage, depth + 1) : '';
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

/** Where a message's readable text comes from: its own content, or the server's transcription of a voice note. */
export type TextFrom = 'message' | 'transcription';

/** What the server writes before a transcription, and what it writes when OpenAI gave none. */
const TRANSCRIPTION_PREFIX = '[audio] ';
const NO_TRANSCRIPTION = new Set(['', 'null', 'undefined']);

/**
 * The server's transcription of a voice note: with its OpenAI setting `speechToText` on (and
 * OPENAI_ENABLED), every release stores `message.speechToText` = `[audio] <text>` next to
 * `audioMessage`, before it stores the message and posts it; undefined when there is none.
 */
export function transcriptionOf(message: unknown): string | undefined {
	if (!isRecord(message) || typeof message.speechToText !== 'string') return undefined;
	if (!message.speechToText.startsWith(TRANSCRIPTION_PREFIX)) return undefined;
	const text = message.speechToText.slice(TRANSCRIPTION_PREFIX.length).trim();
	return NO_TRANSCRIPTION.has(text) ? undefined : text;
}

/** A message's readable text and where it comes from: its content's text, else the transcription of its voice note. */
export function readableTextOf(message: unknown): { text: string; textFrom: TextFrom } {
	const text = textOf(message);
	const transcription = text === '' ? transcriptionOf(message) : undefined;
	return transcription === undefined ? { text, textFrom: 'message' } : { text: transcription, textFrom: 'transcription' };
}

const NOT_CONTENT = new Set(['base64', 'messageContextInfo', 'mediaUrl', 'speechToText']);

/** `messageType` as delivered, else the first key of the unwrapped content that is content. */
export function messageTypeOf(data: IDataObject, inner: IDataObject): string {
	if (typeof data.messageType === 'string' && data.messageType !== '') return data.messageType;
	return Object.keys(inner).find((key) => !NOT_CONTENT.has(key)) ?? '';
}

/** Seconds before the year 10000: a later "time" is not one (and ISO dates end there). */
const LAST_SECOND = 253_402_300_799;
/** A value this large is milliseconds, not seconds (seconds reach it in the year 5138). */
const MILLISECONDS_FROM = 100_000_000_000;

function secondsOf(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && /^\d{1,16}$/.test(value)) return Number(value);
	// A protobuf Long, as some servers serialise it: {low, high, unsigned}.
	if (isRecord(value) && typeof value.low === 'number' && Number.isInteger(value.low)) {
		const high = typeof value.high === 'number' && Number.isInteger(value.high) ? value.high : 0;
		if (high < 0 && value.unsigned !== true) return undefined;
		return (high >>> 0) * 2 ** 32 + (value.low >>> 0);
	}
	return undefined;
}

/**
 * `messageTimestamp` as seconds since 1970 (a number, a text or a protobuf Long; a server that
 * stamps milliseconds is read as such), or undefined when it is no time: every reader of a
 * message's time reads it here, so one server's stamps never mean two different times.
 */
export function epochSecondsOf(value: unknown): number | undefined {
	const raw = secondsOf(value);
	const seconds = raw !== undefined && raw >= MILLISECONDS_FROM ? raw / 1000 : raw;
	return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 && seconds <= LAST_SECOND ? seconds : undefined;
}

/**
 * `messageTimestamp` (see epochSecondsOf) as an ISO date, else the delivery's own
 * `date_time`, else null: never an error.
 */
export function timestampOf(value: unknown, fallback: unknown): string | null {
	const seconds = epochSecondsOf(value);
	if (seconds !== undefined) return new Date(seconds * 1000).toISOString();
	if (typeof fallback === 'string' && fallback.length <= 64) {
		const ms = Date.parse(fallback);
		if (Number.isFinite(ms) && ms > 0 && ms <= LAST_SECOND * 1000) return new Date(ms).toISOString();
	}
	return null;
}

const MEDIA_KINDS = ['imageMessage', 'videoMessage', 'audioMessage', 'documentMessage', 'stickerMessage'];

/** The media part of unwrapped content, if it is a media message. */
export function mediaOf(m: IDataObject): MediaInfo | undefined {
	const kind = MEDIA_KINDS.find((name) => isRecord(m[name]));
	if (!kind) return undefined;
	const media = m[kind] as IDataObject;
	// As a header would carry them: a type without parameters, a base name without control characters.
	const mimeType = cleanMimeType(media.mimetype)?.split(';')[0].trim() ?? UNKNOWN_MIME_TYPE;
	const fileName = cleanFileName(media.fileName);
	return { kind: kind.replace(/Message$/, ''), mimeType, ...(fileName ? { fileName } : {}) };
}

/** The file's own name, or one made of the message id and the MIME type's usual extension. */
export function fileNameOf(media: MediaInfo, messageId: string): string {
	if (media.fileName) return media.fileName;
	const subtype = media.mimeType.split('/')[1] ?? 'bin';
	const extension = extensionFor(media.mimeType) ?? subtype.replace(/[^a-z0-9]/gi, '').slice(0, 8);
	return cleanFileName(`${messageId || media.kind}.${extension || 'bin'}`) ?? `${media.kind}.bin`;
}
