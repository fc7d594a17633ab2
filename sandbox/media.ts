/**
 * Media the sandbox received or was given: sends with a file (/message/sendMedia and friends)
 * and incoming messages injected with media. Stored as received, so tests can assert the exact
 * bytes, and served back by /chat/getBase64FromMediaMessage and GET /_sandbox/media/….
 *
 * The acceptance rules follow the real v2.3.6 server (src/api/controllers/sendMessage.controller.ts:
 * class-validator's isURL and isBase64): a URL needs a top-level domain or an IP address, and
 * http, https or ftp; base64 is raw (no `data:` prefix).
 */
import { createHash, randomBytes } from 'crypto';
import { nowSeconds } from './messages';

/** WhatsApp's media message types (the real server's TypeMediaMessage). */
export type MediaMessageType = 'imageMessage' | 'documentMessage' | 'audioMessage' | 'videoMessage' | 'stickerMessage' | 'ptvMessage';

export interface StoredMedia {
	instance: string;
	messageId: string;
	mediaType: MediaMessageType;
	mimetype: string;
	fileName?: string;
	caption?: string;
	/** the bytes as received (base64 decoded); undefined when sent as a URL */
	bytes?: Buffer;
	/** the URL it was sent as, when it was */
	url?: string;
	/** true for a message received from a contact (injected) */
	incoming: boolean;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const TLD = /^([a-z\u00a1-\uffff]{2,}|xn--[a-z0-9-]{2,})$/i;
const LABEL = /^[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?$/i;

/** class-validator's isURL with its defaults, as far as the sandbox needs it. */
export function isMediaUrl(value: unknown): boolean {
	if (typeof value !== 'string' || value.length === 0 || value.length >= 2083 || /[\s<>]/.test(value)) return false;
	if (/^mailto:/i.test(value)) return false;
	let rest = value;
	const proto = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
	if (proto) {
		if (!['http', 'https', 'ftp'].includes(proto[1].toLowerCase())) return false;
		rest = rest.slice(proto[0].length);
	} else if (rest.startsWith('//')) {
		return false;
	}
	const hostPart = rest.split(/[/?#]/)[0];
	const afterAuth = hostPart.includes('@') ? hostPart.slice(hostPart.lastIndexOf('@') + 1) : hostPart;
	let host = afterAuth;
	const ipv6 = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(afterAuth);
	if (ipv6) return ipv6[2] === undefined || (Number(ipv6[2]) > 0 && Number(ipv6[2]) <= 65535);
	const port = /:(\d*)$/.exec(afterAuth);
	if (port) {
		if (port[1] === '' || Number(port[1]) <= 0 || Number(port[1]) > 65535) return false;
		host = afterAuth.slice(0, port.index);
	}
	if (IPV4.test(host)) return true;
	const labels = host.replace(/\.$/, '').split('.');
	if (labels.length < 2) return false;
	if (!TLD.test(labels[labels.length - 1])) return false;
	return labels.every((l) => l.length > 0 && l.length <= 63 && LABEL.test(l));
}

/** validator.js isBase64 (standard alphabet, padded, length a multiple of 4). */
export function isBase64(value: unknown): boolean {
	if (typeof value !== 'string' || value.length === 0 || value.length % 4 !== 0) return false;
	return /^[A-Za-z0-9+/]*={0,2}$/.test(value) && !/=[^=]/.test(value);
}

const EXTENSIONS: Record<string, string> = {
	'image/jpeg': 'jpeg',
	'image/png': 'png',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'video/mp4': 'mp4',
	'video/3gpp': '3gp',
	'audio/mp4': 'm4a',
	'audio/mpeg': 'mpga',
	'audio/ogg': 'oga',
	'audio/wav': 'wav',
	'application/pdf': 'pdf',
	'text/plain': 'txt',
	'application/zip': 'zip',
};

/** The extension the real server's mime library gives a MIME type (`false` when it knows none, as it prints). */
export function extensionOf(mimetype: string): string {
	return EXTENSIONS[mimetype.split(';')[0].trim().toLowerCase()] ?? 'false';
}

const BY_EXTENSION: Record<string, string> = Object.fromEntries(
	Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime]).concat([
		['jpg', 'image/jpeg'],
		['mp3', 'audio/mpeg'],
		['ogg', 'audio/ogg'],
		['m4a', 'audio/mp4'],
	]),
);

/** MIME type of a file name by its extension, as the real server looks it up; undefined when unknown. */
export function mimeOfName(name: string | undefined): string | undefined {
	const m = /\.([a-z0-9]+)$/i.exec(name ?? '');
	return m ? BY_EXTENSION[m[1].toLowerCase()] : undefined;
}

/** The fields a media message carries (as in a send result or a MESSAGES_UPSERT). */
export function mediaFields(id: string, mimetype: string, bytes: Buffer | undefined): Record<string, unknown> {
	const path = `/v/t62.7118-24/sandbox_${id}.enc`;
	return {
		url: `https://mmg.whatsapp.net${path}?ccb=11-4&mms3=true`,
		mimetype,
		fileSha256: createHash('sha256')
			.update(bytes ?? Buffer.alloc(0))
			.digest('base64'),
		fileLength: String(bytes?.length ?? 0),
		mediaKey: randomBytes(32).toString('base64'),
		directPath: path,
		mediaKeyTimestamp: String(nowSeconds()),
	};
}

/** Media of every instance, by message id. Bounded: the oldest go first past `maxBytes`. */
export class MediaStore {
	private readonly byKey = new Map<string, StoredMedia>();
	private total = 0;

	constructor(private readonly maxBytes = 256 * 1024 * 1024) {}

	put(media: StoredMedia): void {
		const key = `${media.instance}\u0000${media.messageId}`;
		this.remove(key);
		this.byKey.set(key, media);
		this.total += media.bytes?.length ?? 0;
		for (const [k] of this.byKey) {
			if (this.total <= this.maxBytes || k === key) break;
			this.remove(k);
		}
	}

	get(instance: string, messageId: string): StoredMedia | undefined {
		return this.byKey.get(`${instance}\u0000${messageId}`);
	}

	all(): StoredMedia[] {
		return [...this.byKey.values()];
	}

	clear(): void {
		this.byKey.clear();
		this.total = 0;
	}

	private remove(key: string): void {
		const old = this.byKey.get(key);
		if (!old) return;
		this.total -= old.bytes?.length ?? 0;
		this.byKey.delete(key);
	}
}
