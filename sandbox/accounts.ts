/**
 * The sandbox's model of what a real server keeps beyond sending: each instance's connection
 * (QR code, pairing code, state), its groups with participants and invite codes, its labels
 * and which chats carry them, blocked numbers, and the message history the chat log already
 * holds (sends and injections), read as Find Messages, Find Chats and Find Contacts answer.
 * Pure state and answers; the routes in ./routes/ turn them into HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

import type { ChatEntry } from './types';
import { deviceOf } from './messages';

export type ConnectionState = 'open' | 'connecting' | 'close';

export interface QrCode {
	pairingCode: string | null;
	code: string;
	base64: string;
	count: number;
}

export interface Group {
	id: string;
	subject: string;
	description: string;
	owner: string;
	creation: number;
	announce: boolean;
	restrict: boolean;
	ephemeral: number;
	inviteCode: string;
	participants: Array<{ id: string; admin: 'superadmin' | 'admin' | null }>;
}

export interface Label {
	id: string;
	name: string;
	color: number;
	predefinedId: string | null;
}

export interface Account {
	state: ConnectionState;
	qr?: QrCode;
	groups: Map<string, Group>;
	labels: Map<string, Label>;
	/** chat JID → label ids */
	chatLabels: Map<string, Set<string>>;
	blocked: Set<string>;
	/** message ids read (Mark as Read), deleted for everyone, and chats marked unread */
	read: Set<string>;
	deleted: Set<string>;
	unread: Set<string>;
	presence: 'available' | 'unavailable';
}

export function newAccount(state: ConnectionState = 'open'): Account {
	return {
		state,
		groups: new Map(),
		labels: new Map([
			['1', { id: '1', name: 'New customer', color: 1, predefinedId: '1' }],
			['2', { id: '2', name: 'Paid', color: 4, predefinedId: '5' }],
		]),
		chatLabels: new Map(),
		blocked: new Set(),
		read: new Set(),
		deleted: new Set(),
		unread: new Set(),
		presence: 'available',
	};
}

// ---------------------------------------------------------------------------- the QR code

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

/** A black-and-white PNG of `size` × `size` modules (4 px each) drawn from the code's hash: a stand-in QR code. */
export function qrPng(code: string, size = 25): Buffer {
	const scale = 4;
	const pixels = size * scale;
	const bits = createHash('sha512').update(code).digest();
	const rows: Buffer[] = [];
	for (let y = 0; y < pixels; y++) {
		const row = Buffer.alloc(1 + pixels);
		for (let x = 0; x < pixels; x++) {
			const mx = Math.floor(x / scale);
			const my = Math.floor(y / scale);
			const finder = (mx < 7 && my < 7) || (mx >= size - 7 && my < 7) || (mx < 7 && my >= size - 7);
			const dark = finder
				? Math.max(Math.abs((mx % (size - 7)) - 3), Math.abs((my % (size - 7)) - 3)) !== 2
				: (bits[(mx * size + my) % bits.length] >> ((mx + my) % 8)) & 1;
			row[1 + x] = dark ? 0 : 255;
		}
		rows.push(row);
	}
	const header = Buffer.alloc(13);
	header.writeUInt32BE(pixels, 0);
	header.writeUInt32BE(pixels, 4);
	header[8] = 8; // bit depth
	header[9] = 0; // greyscale
	return Buffer.concat([
		Buffer.from('89504e470d0a1a0a', 'hex'),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(Buffer.concat(rows))),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/** Starts connecting: a fresh QR code (and a pairing code when a number is given). */
export function startConnecting(account: Account, number?: string): QrCode {
	account.state = 'connecting';
	const code = `2@${randomBytes(24).toString('base64')},${randomBytes(16).toString('base64')}`;
	account.qr = {
		pairingCode: number ? randomBytes(4).toString('hex').toUpperCase() : null,
		code,
		base64: `data:image/png;base64,${qrPng(code).toString('base64')}`,
		count: (account.qr?.count ?? 0) + 1,
	};
	return account.qr;
}

/** The phone scanned the code (a control route or the chat page's button). */
export function scan(account: Account): boolean {
	if (account.state !== 'connecting') return false;
	account.state = 'open';
	account.qr = undefined;
	return true;
}

// ------------------------------------------------------------------------------- groups

export function groupJidOf(given: string): string {
	return given.endsWith('@g.us') ? given : `${given}@g.us`;
}

export function newGroup(ownerJid: string, subject: string, description: string, participants: string[], promote: boolean): Group {
	const id = `120363${String(Date.now()).slice(-6)}${randomBytes(3).readUIntBE(0, 3).toString().padStart(6, '0')}@g.us`;
	return {
		id,
		subject,
		description,
		owner: ownerJid,
		creation: Math.floor(Date.now() / 1000),
		announce: false,
		restrict: false,
		ephemeral: 0,
		inviteCode: inviteCode(),
		participants: [
			{ id: ownerJid, admin: 'superadmin' },
			...participants.map((number) => ({ id: `${number.replace(/\D/g, '')}@s.whatsapp.net`, admin: promote ? ('admin' as const) : null })),
		],
	};
}

export function inviteCode(): string {
	return randomBytes(16).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(22, 'A').slice(0, 22);
}

/** A group as Find Group Infos answers it. */
export function groupInfo(group: Group, withParticipants = true): Record<string, unknown> {
	return {
		id: group.id,
		subject: group.subject,
		subjectOwner: group.owner,
		subjectTime: group.creation,
		pictureUrl: null,
		size: group.participants.length,
		creation: group.creation,
		owner: group.owner,
		desc: group.description,
		descId: group.description ? 'DESC1' : undefined,
		restrict: group.restrict,
		announce: group.announce,
		...(withParticipants ? { participants: group.participants } : {}),
	};
}

// ------------------------------------------------------------------------------ history

/**
 * How a server stamps and answers its stored history when it is not the real one of the
 * release (Sandbox.historyQuirks): each is a way a server, a proxy or a machine has been seen
 * to differ, for the readers of a chat's history to be tried against.
 */
export interface HistoryQuirks {
	/** The server's clock runs this many ms ahead of the host's (behind when negative): its stored messages are stamped so. */
	clockSkewMs?: number;
	/** `messageTimestamp` in milliseconds instead of seconds. */
	milliseconds?: boolean;
	/** Find Messages ignores its `where` filter: every chat's messages, newest first (users have reported it of real servers). */
	ignoresWhere?: boolean;
	/** Entries Find Messages answers before its records on every page (a text, a number, a record of the reader's choosing). */
	extraEntries?: readonly unknown[];
}

/** One message as Find Messages answers it, from a line of the chat log. */
export function messageRecord(entry: ChatEntry, instanceId: string, quirks: HistoryQuirks = {}): Record<string, unknown> {
	const stampedAt = entry.at + (quirks.clockSkewMs ?? 0);
	const body = (entry.body ?? {}) as Record<string, unknown>;
	const fromMe = entry.direction === 'out';
	const message =
		entry.direction === 'in'
			? (body.message as Record<string, unknown> | undefined) ?? { conversation: entry.text }
			: { conversation: typeof body.text === 'string' ? body.text : entry.text };
	const key = entry.key ? { ...entry.key } : { id: entry.messageId, fromMe, remoteJid: entry.chat };
	return {
		// The server's row id (a cuid): it grows with the order messages were stored in, which
		// orders messages of the same second (`messageTimestamp` counts whole seconds).
		id: `c${entry.at.toString(36).padStart(9, '0')}${entry.seq.toString(36).padStart(7, '0')}`,
		key,
		pushName: fromMe ? null : entry.pushName ?? null,
		// a message with only messageContextInfo has no content type: the server stores `unknown`
		messageType: body.contextInfoOnly === true ? 'unknown' : (Object.keys(message)[0] ?? 'conversation'),
		message,
		messageTimestamp: quirks.milliseconds === true ? stampedAt : Math.floor(stampedAt / 1000),
		instanceId,
		source: deviceOf(String(key.id ?? '')),
		contextInfo: null,
		MessageUpdate: [],
	};
}

export interface MessageFilter {
	id?: string;
	remoteJid?: string;
	remoteJidAlt?: string;
	/**
	 * 2.3.6 also requires `key.remoteJid` on its own when it is given, so `remoteJidAlt`
	 * widens nothing then; 2.3.7 and later match either (the given ones, ORed).
	 */
	remoteJidAlone?: boolean;
	/** `key.participant` (a group message's author), matched exactly by every release */
	participant?: string;
	fromMe?: boolean;
	messageType?: string;
	from?: number;
	to?: number;
}

/** Find Messages: newest first, `offset` a page (default 50), pages from 1 — as the real server counts them. */
export function findMessages(entries: ChatEntry[], instanceId: string, deleted: Set<string>, filter: MessageFilter, page = 1, offset = 50, quirks: HistoryQuirks = {}) {
	const records = entries
		.filter((entry) => entry.messageId && !deleted.has(entry.messageId) && entry.kind !== 'presence' && entry.kind !== 'archive')
		.map((entry) => messageRecord(entry, instanceId, quirks))
		.filter((record) => {
			if (quirks.ignoresWhere === true) return true;
			const key = record.key as { id: string; fromMe: boolean; remoteJid: string; remoteJidAlt?: string; participant?: string };
			if (filter.id && key.id !== filter.id) return false;
			if (filter.participant && key.participant !== filter.participant) return false;
			if (filter.remoteJidAlone && filter.remoteJid && key.remoteJid !== filter.remoteJid) return false;
			// The server's OR of the chat filters given (an empty branch is dropped, as Prisma does).
			const chat = [
				...(filter.remoteJid ? [key.remoteJid === filter.remoteJid] : []),
				...(filter.remoteJidAlt ? [key.remoteJidAlt === filter.remoteJidAlt] : []),
			];
			if (chat.length > 0 && !chat.includes(true)) return false;
			if (filter.fromMe && !key.fromMe) return false;
			if (filter.messageType && record.messageType !== filter.messageType) return false;
			const at = quirks.milliseconds === true ? Math.floor((record.messageTimestamp as number) / 1000) : (record.messageTimestamp as number);
			if (filter.from !== undefined && filter.to !== undefined && (at < filter.from || at > filter.to)) return false;
			return true;
		})
		.reverse();
	const size = Math.max(1, offset);
	const current = Math.max(1, page);
	return {
		messages: {
			total: records.length,
			pages: Math.ceil(records.length / size),
			currentPage: current,
			records: [...(quirks.extraEntries ?? []), ...records.slice(size * (current - 1), size * current)],
		},
	};
}

/** Find Chats: one per chat, most recent first, with its last message. */
export function findChats(entries: ChatEntry[], instanceId: string, account: Account, remoteJid?: string) {
	const last = new Map<string, ChatEntry>();
	for (const entry of entries) {
		if (!entry.messageId || (remoteJid && entry.chat !== remoteJid)) continue;
		last.set(entry.chat, entry);
	}
	return [...last.values()]
		.sort((a, b) => b.at - a.at)
		.map((entry) => ({
			id: createHash('sha1').update(`${instanceId}|${entry.chat}`).digest('hex').slice(0, 24),
			remoteJid: entry.chat,
			pushName: entry.pushName ?? null,
			profilePicUrl: null,
			updatedAt: new Date(entry.at).toISOString(),
			unreadMessages: account.unread.has(entry.chat) ? 1 : 0,
			labels: [...(account.chatLabels.get(entry.chat) ?? [])],
			lastMessage: messageRecord(entry, instanceId),
		}));
}

/** Find Contacts: everyone who wrote or was written to, groups apart. */
export function findContacts(entries: ChatEntry[], instanceId: string, remoteJid?: string) {
	const contacts = new Map<string, { pushName: string | null; at: number }>();
	for (const entry of entries) {
		if (entry.chat === 'status@broadcast' || (remoteJid && entry.chat !== remoteJid)) continue;
		const known = contacts.get(entry.chat);
		contacts.set(entry.chat, { pushName: entry.pushName ?? known?.pushName ?? null, at: entry.at });
	}
	return [...contacts.entries()].map(([jid, contact]) => {
		const isGroup = jid.endsWith('@g.us');
		return {
			id: createHash('sha1').update(`${instanceId}|c|${jid}`).digest('hex').slice(0, 24),
			remoteJid: jid,
			pushName: contact.pushName,
			profilePicUrl: null,
			updatedAt: new Date(contact.at).toISOString(),
			instanceId,
			isGroup,
			isSaved: !!contact.pushName,
			type: isGroup ? 'group' : contact.pushName ? 'contact' : 'group_member',
		};
	});
}

/** A page of a list: Find Contacts counts `page`/`offset`, Find Chats `skip`/`take`. */
export function pageOf<T>(list: T[], start: number, size: number | undefined): T[] {
	return size === undefined ? list.slice(start) : list.slice(start, start + size);
}
