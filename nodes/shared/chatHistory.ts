import type { IDataObject } from 'n8n-workflow';

import { countedPage, ListShapeError, strictRecords } from './answerShapes';
import { epochSecondsOf, isGroupJid, isRecord } from './messageContent';
import { sentByOfRecord, type SentBy } from './sentBy';

/**
 * A chat's stored history as Find Messages (`POST /chat/findMessages/{instance}`) answers it,
 * read the same way by every node that reads it (Collect Burst, the chat memory, the
 * trigger's catch-up): records reduced to stored messages, pages bounded, and every answer
 * read strictly — each entry a stored message of the chat (or the message) asked for, else
 * the read fails naming the entry. Never "skip what looks odd": a reader that skips decides
 * from an answer that is not the chat's history, and loses or mixes messages without a word.
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
	/** `messageTimestamp`, whole seconds (milliseconds read as such, see messageContent's epochSecondsOf). */
	seconds: number;
	messageType: string;
	message: IDataObject;
	/** Who wrote it, from `key.fromMe`, the id and the stored `source` (sentBy.ts). */
	sentBy: SentBy;
}

/** Longest id, JID or type taken from a record; a longer one is not a message key of any server. */
const MAX_FIELD_CHARS = 256;

function field(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' && value.length <= MAX_FIELD_CHARS ? value : undefined;
}

/**
 * A record of Find Messages as a stored message, or what keeps it from being one (words that
 * follow "entry N"). Nothing is dropped quietly: a record without a usable key or time, or a
 * group member's message that does not name its author (it could go in no member's burst),
 * is an answer the reader cannot decide from.
 */
export function readRecord(record: IDataObject): StoredMessage | string {
	const key: IDataObject = isRecord(record.key) ? record.key : {};
	const messageId = field(key.id);
	const remoteJid = field(key.remoteJid);
	if (!messageId || !remoteJid) return 'is not a stored message: its key has no id and chat (key.id, key.remoteJid)';
	const time = epochSecondsOf(record.messageTimestamp);
	if (time === undefined) return `(message ${messageId}) has no messageTimestamp that is a time`;
	const fromMe = key.fromMe === true;
	const authorJids = [field(key.participant), field(key.participantAlt)].filter((jid): jid is string => jid !== undefined);
	if (isGroupJid(remoteJid) && !fromMe && authorJids.length === 0) {
		return `(message ${messageId} of the group ${remoteJid}) does not name its author (key.participant)`;
	}
	const message = isRecord(record.message) ? record.message : {};
	return {
		recordId: field(record.id) ?? messageId,
		messageId,
		fromMe,
		chatJids: [remoteJid, field(key.remoteJidAlt)].filter((jid): jid is string => jid !== undefined),
		authorJids,
		// Whole seconds, as servers stamp them; a server stamping milliseconds has them cut, not a burst per message.
		seconds: Math.floor(time),
		messageType: field(record.messageType) ?? Object.keys(message)[0] ?? '',
		message,
		sentBy: sentByOfRecord(key.fromMe, messageId, record.source),
	};
}

/** A record of Find Messages as a stored message; undefined for anything readRecord refuses. */
export function storedMessageOf(record: unknown): StoredMessage | undefined {
	const read = isRecord(record) ? readRecord(record) : undefined;
	return typeof read === 'object' ? read : undefined;
}

/**
 * Whether a stored message is of the chat `jid` names: the JID is its key's `remoteJid` or
 * `remoteJidAlt`, which is exactly what Find Messages' chat filter matches (2.3.6–2.4: JSON
 * equality on those fields). Anything else in a chat's answer means the server did not
 * filter: the answer is not the chat's history.
 */
export function isOfChat(message: StoredMessage, jid: string): boolean {
	return message.chatJids.includes(jid);
}

/**
 * One answer's records as stored messages, read strictly: every entry a record
 * (answerShapes' strictRecords) that readRecord reads; else a ListShapeError naming the entry.
 */
export function messagesOf(records: readonly unknown[]): StoredMessage[] {
	// strictRecords only reads the list.
	return strictRecords(records as unknown[]).map((record, index) => {
		const read = readRecord(record);
		if (typeof read === 'string') throw new ListShapeError(`got a list whose entry ${index + 1} ${read}`);
		return read;
	});
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

	/** An answer's records, read strictly (messagesOf): a ListShapeError names an entry that is not a stored message. */
	add(records: readonly unknown[]): void {
		for (const message of messagesOf(records)) this.put(message);
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

/**
 * One answer of Find Messages as the messages `asked` wants, read strictly: a counted page no
 * larger than asked, every entry a stored message (messagesOf), every message one the filter
 * asked for (`belongs`). Anything else fails naming the entry: a server that ignores the
 * filter answers other chats' messages, and a burst decided from them would answer one
 * contact with another's text, or end it with a reply sent elsewhere.
 */
function pageOf(
	answer: unknown,
	asked: string,
	belongs: (message: StoredMessage) => string | undefined,
	fail: (problem: string) => never,
): { messages: StoredMessage[]; more: boolean } {
	const read = strictPage(answer);
	if (typeof read === 'string') return fail(`answered ${asked}: ${read}`);
	read.messages.forEach((message, index) => {
		const stranger = belongs(message);
		if (stranger !== undefined) {
			fail(`answered ${asked} with message ${message.messageId} ${stranger} (entry ${index + 1}): the server did not apply the filter, so the answer is not what was asked and nothing is decided from it`);
		}
	});
	return read;
}

/** A counted page no larger than asked, of stored messages (messagesOf); else what it is instead. */
function strictPage(answer: unknown): { messages: StoredMessage[]; more: boolean } | string {
	try {
		const page = countedPage((answer as MessagePage | null)?.messages);
		if (page.records.length > HISTORY_LIMITS.pageSize) {
			return `${page.records.length} messages for a page of ${HISTORY_LIMITS.pageSize}: the server does not page Find Messages as asked`;
		}
		return { messages: messagesOf(page.records), more: page.more };
	} catch (error) {
		return error instanceof ListShapeError ? error.problem : 'an answer that cannot be read';
	}
}

/**
 * Why page `page` of a read is not the next page, if it is not: a full page whose every
 * message was on the full page before (a server or proxy that answers the same page whatever
 * page is asked, even saying it is the page asked). Reading on would read the same messages
 * again and never the older ones. Messages stored meanwhile move the pages by as many: a short
 * last page may repeat, a whole page only if a page's worth came in between two requests.
 */
export function repeatedPage(page: number, previous: readonly StoredMessage[], messages: readonly StoredMessage[]): string | undefined {
	const full = HISTORY_LIMITS.pageSize;
	if (page < 2 || messages.length < full || previous.length < full) return undefined;
	const before = new Set(previous.map((message) => message.messageId));
	return messages.every((message) => before.has(message.messageId)) ? `page ${page} with the messages of page ${page - 1}: a page that does not advance` : undefined;
}

/** Reads the chat's pages, newest first, until `enough` says the burst is decided (or the pages end). */
export async function readChat(
	ask: AskFindMessages,
	jid: string,
	read: ReadMessages,
	enough: () => boolean,
	fail: (problem: string) => never,
): Promise<void> {
	let previous: StoredMessage[] = [];
	for (let page = 1; page <= HISTORY_LIMITS.pages; page++) {
		const { messages, more } = pageOf(
			await ask(chatQuery(jid, page)),
			`page ${page} of the chat ${jid}`,
			(message) => (isOfChat(message, jid) ? undefined : `of the chat ${message.chatJids[0]}`),
			fail,
		);
		const repeated = repeatedPage(page, previous, messages);
		if (repeated !== undefined) fail(`answered the chat ${jid} ${repeated}`);
		previous = messages;
		for (const message of messages) read.put(message);
		if (enough() || !more || messages.length === 0) return;
	}
}

/** The stored message with this id, wherever it is (its key names its chat's JIDs). */
export async function findById(ask: AskFindMessages, messageId: string, fail: (problem: string) => never): Promise<StoredMessage | undefined> {
	const answer = await ask({ where: { key: { id: messageId } }, page: 1, offset: 10 });
	const { messages } = pageOf(answer, `the look-up of message ${messageId}`, (message) => (message.messageId === messageId ? undefined : `of the chat ${message.chatJids[0]}`), fail);
	return messages[0];
}
