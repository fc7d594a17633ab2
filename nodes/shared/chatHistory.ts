import type { IDataObject } from 'n8n-workflow';

import { countedPage } from './answerShapes';
import { sentByOfRecord, type SentBy } from './sentBy';

/**
 * A chat's stored history as Find Messages (`POST /chat/findMessages/{instance}`) answers it,
 * read the same way by every node that reads it (Collect Burst, the chat memory, the
 * trigger's catch-up): records reduced to stored messages, pages bounded.
 */

/** Sends one Find Messages request with this body, the caller's way (errors, secrets, timeout), and answers its JSON. */
export type AskFindMessages = (body: IDataObject) => Promise<unknown>;

/** One stored message as Find Messages answers it, reduced to what a burst needs. */
export interface StoredMessage {
	/** The server's own row id: it orders messages stored in the same second. */
	recordId: string;
	messageId: string;
	fromMe: boolean;
	/** The chat's JIDs in the key: `remoteJid`, and `remoteJidAlt` when there is one. */
	chatJids: string[];
	/** A group message's author: `participant`, and `participantAlt` when there is one. */
	authorJids: string[];
	/** `messageTimestamp`, whole seconds. */
	seconds: number;
	messageType: string;
	message: IDataObject;
	/** Who wrote it, from `key.fromMe`, the id and the stored `source` (sentBy.ts). */
	sentBy: SentBy;
}

/** Longest id, JID or type taken from a record; a longer one is not a message key of any server. */
const MAX_FIELD_CHARS = 256;

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' && value.length <= MAX_FIELD_CHARS ? value : undefined;
}

function secondsOf(value: unknown): number | undefined {
	const parsed = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
	return typeof parsed === 'number' && Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

/** A record of Find Messages as a stored message; undefined for anything without a usable key and time. */
export function storedMessageOf(record: unknown): StoredMessage | undefined {
	if (!isRecord(record) || !isRecord(record.key)) return undefined;
	const key = record.key;
	const messageId = field(key.id);
	const remoteJid = field(key.remoteJid);
	const seconds = secondsOf(record.messageTimestamp);
	if (!messageId || !remoteJid || seconds === undefined) return undefined;
	const message = isRecord(record.message) ? record.message : {};
	return {
		recordId: field(record.id) ?? messageId,
		messageId,
		fromMe: key.fromMe === true,
		chatJids: [remoteJid, field(key.remoteJidAlt)].filter((jid): jid is string => jid !== undefined),
		authorJids: [field(key.participant), field(key.participantAlt)].filter((jid): jid is string => jid !== undefined),
		seconds,
		messageType: field(record.messageType) ?? Object.keys(message)[0] ?? '',
		message,
		sentBy: sentByOfRecord(key.fromMe, messageId, record.source),
	};
}

/** Oldest first; messages of one second in the order the server stored them. One copy of each message id. */
export function inOrder(messages: readonly StoredMessage[]): StoredMessage[] {
	const sorted = [...messages].sort((a, b) => a.seconds - b.seconds || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0));
	const seen = new Set<string>();
	return sorted.filter((message) => !seen.has(message.messageId) && seen.add(message.messageId));
}

/**
 * Reading a chat's recent history, newest first, as little of it as decides the burst: most
 * runs need one page. Everything here is bounded: pages per chat, chats per run.
 */
export const HISTORY_LIMITS = {
	/** Messages per page (Find Messages' `offset`); the real server's default page. */
	pageSize: 50,
	/** Pages of one chat a run reads at most. */
	pages: 5,
} as const;

interface MessagePage {
	messages?: { pages?: unknown; currentPage?: unknown; records?: unknown };
}

/** The messages read so far, one per stored row (the phone JID's and the LID's answers overlap). */
export class ReadMessages {
	private readonly rows = new Map<string, StoredMessage>();

	add(records: readonly unknown[]): void {
		for (const record of records) {
			const message = storedMessageOf(record);
			if (message) this.put(message);
		}
	}

	put(message: StoredMessage): void {
		this.rows.set(`${message.recordId}\u0000${message.messageId}`, message);
	}

	all(): StoredMessage[] {
		return [...this.rows.values()];
	}

	has(messageId: string): boolean {
		return this.all().some((message) => message.messageId === messageId);
	}
}

/** Find Messages' filter for one chat: 2.3.7 and later match the JID in `remoteJid` or `remoteJidAlt`. */
function chatFilter(jid: string): IDataObject {
	return { key: { remoteJid: jid, remoteJidAlt: jid } };
}

export function chatQuery(jid: string, page: number): IDataObject {
	return { where: chatFilter(jid), page, offset: HISTORY_LIMITS.pageSize };
}

/** The records of one answer; a page larger than asked is not the server's paging, so it is refused. */
function recordsOf(answer: unknown, fail: (problem: string) => never): { records: unknown[]; more: boolean } {
	const page = countedPage((answer as MessagePage | null)?.messages);
	if (page.records.length > HISTORY_LIMITS.pageSize) {
		fail(`answered ${page.records.length} messages for a page of ${HISTORY_LIMITS.pageSize}: the server does not page Find Messages as asked`);
	}
	return page;
}

/** Reads the chat's pages, newest first, until `enough` says the burst is decided (or the pages end). */
export async function readChat(
	ask: AskFindMessages,
	jid: string,
	read: ReadMessages,
	enough: () => boolean,
	fail: (problem: string) => never,
): Promise<void> {
	for (let page = 1; page <= HISTORY_LIMITS.pages; page++) {
		const { records, more } = recordsOf(await ask(chatQuery(jid, page)), fail);
		read.add(records);
		if (enough() || !more || records.length === 0) return;
	}
}

/** The stored message with this id, wherever it is (its key names its chat's JIDs). */
export async function findById(ask: AskFindMessages, messageId: string, fail: (problem: string) => never): Promise<StoredMessage | undefined> {
	const answer = await ask({ where: { key: { id: messageId } }, page: 1, offset: 10 });
	return recordsOf(answer, fail)
		.records.map(storedMessageOf)
		.find((message) => message?.messageId === messageId);
}
