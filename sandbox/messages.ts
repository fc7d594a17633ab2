/**
 * Message building blocks of the sandbox: ids, JIDs, the "has an account" rule, send
 * results as the contract shows them, incoming MESSAGES_UPSERT data and chat summaries.
 */
import { createHash, randomBytes } from 'crypto';
import { incomingKeyAddress, storedKeyAddress } from './lid';
import { DEFAULT_SERVER_VERSION, ServerVersion } from './versions';

/** A message id as the server's Baileys makes one for an API send: `3EB0` + 18 upper-case hex digits. */
export function messageId(): string {
	return '3EB0' + randomBytes(9).toString('hex').toUpperCase();
}

/**
 * The `source` every release stores with a message (and puts in its MESSAGES_UPSERT and
 * SEND_MESSAGE data): Baileys' guess of the device from the id's form. An API send's id and a
 * WhatsApp Web id are both `3EB0…` of 22 characters, `web`; the phone apps' and WhatsApp
 * Desktop's have forms of their own.
 */
export function deviceOf(id: string): 'ios' | 'web' | 'android' | 'desktop' | 'unknown' {
	if (id.length === 20 && id.startsWith('3A')) return 'ios';
	if (id.length === 22 && id.startsWith('3E')) return 'web';
	if (id.length === 21 || id.length === 32) return 'android';
	if (id.startsWith('3F') || id.length === 18) return 'desktop';
	return 'unknown';
}

/** Ids of messages the account's phone makes: an iPhone's (`3A` + 18 hex digits) by default, an Android's (32) when asked. */
export function phoneMessageId(device: 'ios' | 'android' = 'ios'): string {
	return device === 'ios' ? '3A' + randomBytes(9).toString('hex').toUpperCase() : randomBytes(16).toString('hex').toUpperCase();
}

/** The server's clock: tests set it ahead of or behind the machine's (a server whose clock is off). */
export const serverClock = { offsetMs: 0 };

/** Now on the server's clock, in milliseconds. */
export function serverNow(): number {
	return Date.now() + serverClock.offsetMs;
}

export function nowSeconds(): number {
	return Math.floor(serverNow() / 1000);
}

/** The JID a `number` addresses: a JID stays as it is; a phone number becomes `<digits>@s.whatsapp.net`. */
export function toJid(number: string | number): string {
	const s = String(number).trim();
	if (s.includes('@')) return s;
	return `${s.replace(/\D/g, '')}@s.whatsapp.net`;
}

/**
 * Sandbox rule for "number without an account": a phone number (or a user JID) whose
 * digits start with 0 has no account. Groups (`@g.us`) always exist. Real servers ask the
 * network; no real phone number with its country code starts with 0, so this is a safe,
 * predictable way for tests to reach the "exists": false answers.
 */
export function hasAccount(number: string | number): boolean {
	const jid = toJid(number);
	if (jid.endsWith('@g.us')) return true;
	return !jid.split('@')[0].startsWith('0');
}

/** The numbers check of one number; every release counts a `…@lid` JID as existing and marks it `lid`. */
export function numberCheck(number: string): { exists: boolean; jid: string; number: string; lid?: string } {
	const jid = toJid(number);
	return { exists: hasAccount(number), jid, number, ...(jid.endsWith('@lid') ? { lid: 'lid' } : {}) };
}

export interface MessageResult {
	key: { remoteJid: string; fromMe: boolean; id: string };
	message: Record<string, unknown>;
	messageTimestamp: string;
	status: 'PENDING';
	participant?: string;
}

export function messageResult(remoteJid: string, content: Record<string, unknown>): MessageResult {
	return {
		key: { remoteJid, fromMe: true, id: messageId() },
		message: content,
		messageTimestamp: String(nowSeconds()),
		status: 'PENDING',
	};
}

export function pollCreation(name: string, options: string[]): Record<string, unknown> {
	return {
		pollCreationMessage: {
			messageContextInfo: { messageSecret: randomBytes(32).toString('base64') },
			name,
			options: options.map((optionName) => ({ optionName })),
			selectableOptionsCount: 1,
		},
	};
}

export const FONTS = ['SERIF', 'NORICAN_REGULAR', 'BRYNDAN_WRITE', 'BEBASNEUE_REGULAR', 'OSWALD_HEAVY'];

/** `#RGB`, `#RRGGBB` or `#AARRGGBB` to the ARGB number a status post carries (opaque unless given). */
export function colorToArgb(color: string): number {
	let hex = color.replace(/^#/, '');
	if (hex.length === 3) hex = hex.split('').map((c) => c + c).join('');
	if (hex.length === 6) hex = 'FF' + hex;
	return parseInt(hex, 16);
}

export const COLOR_PATTERN = /^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;

/** One emoji (one grapheme that is pictographic) or "" — what a reaction may be. */
export function isReaction(value: string): boolean {
	if (value === '') return true;
	const segments = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(value)];
	return segments.length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(value);
}

export interface IncomingMedia {
	kind: 'image' | 'audio' | 'video' | 'document' | 'sticker';
	mimetype: string;
	base64: string;
	fileName?: string;
	caption?: string;
	/** what a voice note says: the server stores it as its transcription when its OpenAI speech-to-text is on */
	transcript?: string;
}

export interface IncomingMessage {
	from: string;
	text?: string;
	pushName?: string;
	fromMe?: boolean;
	id?: string;
	group?: string;
	media?: IncomingMedia;
	/** the contact's LID (`…@lid`): the key then carries it as the server release does */
	lid?: string;
	/** a group's addressing mode for a LID author (default 'lid': `participant` = the LID) */
	groupAddressing?: 'lid' | 'pn';
	/**
	 * a message with no content but its `messageContextInfo` (no text, no file), as the server
	 * stores some it receives: `messageType` `unknown`
	 */
	contextInfoOnly?: boolean;
	/**
	 * when the phone sent it (ms): WhatsApp stamps a message when it is sent, so one that
	 * arrives late (its phone was offline) carries an older `messageTimestamp`; default now
	 */
	sentAt?: number;
}

/** Who an incoming message is from and in which chat, as JIDs. */
function addressOf(msg: IncomingMessage): { fromJid: string; lid?: string; group?: string; groupAddressing?: 'lid' | 'pn' } {
	return {
		fromJid: toJid(msg.from),
		lid: msg.lid ? toJid(msg.lid) : undefined,
		group: msg.group ? toJid(msg.group) : undefined,
		groupAddressing: msg.groupAddressing,
	};
}

/** The key of an incoming message as the server stores it (Baileys' key; see lid.ts). */
export function storedKey(msg: IncomingMessage, id: string): Record<string, unknown> {
	const { remoteJid, ...rest } = storedKeyAddress(addressOf(msg));
	return { remoteJid, fromMe: msg.fromMe ?? false, id, ...rest };
}

/** The `data` of a MESSAGES_UPSERT for an injected incoming message. */
export function upsertData(
	msg: IncomingMessage,
	instanceId: string,
	withBase64: boolean,
	version: ServerVersion = DEFAULT_SERVER_VERSION,
	speechToText = false,
): Record<string, unknown> {
	const fromJid = toJid(msg.from);
	const id = msg.id ?? phoneMessageId();
	const address = incomingKeyAddress(version, addressOf(msg));
	const { remoteJid, ...rest } = address;
	const key: Record<string, unknown> = { remoteJid, fromMe: msg.fromMe ?? false, id, ...rest };
	let message: Record<string, unknown>;
	let messageType: string;
	if (msg.media) {
		const m = msg.media;
		const bytes = Buffer.from(m.base64, 'base64');
		const sha = createHash('sha256').update(bytes).digest('base64');
		const path = `/v/t62.7118-24/sandbox_${id}.enc`;
		const content: Record<string, unknown> = {
			url: `https://mmg.whatsapp.net${path}?ccb=11-4&mms3=true`,
			mimetype: m.mimetype,
			fileSha256: sha,
			fileLength: String(bytes.length),
			mediaKey: randomBytes(32).toString('base64'),
			directPath: path,
			mediaKeyTimestamp: String(nowSeconds()),
		};
		const caption = m.caption ?? msg.text;
		if (m.kind === 'document') {
			content.fileName = m.fileName ?? 'document';
			content.title = m.fileName ?? 'document';
		}
		if (m.kind === 'audio') {
			content.seconds = 1;
			content.ptt = m.mimetype.includes('ogg');
		} else if (caption !== undefined) {
			content.caption = caption;
		}
		if (m.kind === 'video') content.seconds = 1;
		messageType = `${m.kind}Message`;
		message = { [messageType]: content };
		// Every release: OpenAI's text of a voice note next to it, before it is stored and posted (what the sandbox "hears" is `transcript`).
		if (speechToText && m.kind === 'audio') message.speechToText = `[audio] ${m.transcript ?? 'sandbox transcription'}`;
		if (withBase64) message.base64 = m.base64;
	} else if (msg.contextInfoOnly) {
		messageType = 'unknown';
		message = { messageContextInfo: { deviceListMetadata: {}, deviceListMetadataVersion: 2 } };
	} else {
		messageType = 'conversation';
		message = { conversation: msg.text ?? '' };
	}
	return {
		key,
		// the account's own message without a push name: the server's word for "you"
		pushName: msg.pushName ?? (msg.fromMe ? 'Você' : `Contact ${fromJid.split('@')[0].slice(-4)}`),
		status: 'DELIVERY_ACK',
		message,
		messageType,
		messageTimestamp: msg.sentAt !== undefined ? Math.floor(msg.sentAt / 1000) : nowSeconds(),
		instanceId,
		source: deviceOf(id),
	};
}

/** A 1x1 PNG, used for QR code events and as the default image of the CLI. */
export const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
