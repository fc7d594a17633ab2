import type { IDataObject } from 'n8n-workflow';

import { countedPage } from '../../pages';
import type { Exchange } from '../../types';
import { storedMessageOf, type StoredMessage } from './burst';

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
	exchange: Exchange,
	jid: string,
	read: ReadMessages,
	enough: () => boolean,
	fail: (problem: string) => never,
): Promise<void> {
	for (let page = 1; page <= HISTORY_LIMITS.pages; page++) {
		const { records, more } = recordsOf(await exchange.ask({ body: chatQuery(jid, page) }), fail);
		read.add(records);
		if (enough() || !more || records.length === 0) return;
	}
}

/** The stored message with this id, wherever it is (its key names its chat's JIDs). */
export async function findById(exchange: Exchange, messageId: string, fail: (problem: string) => never): Promise<StoredMessage | undefined> {
	const answer = await exchange.ask({ body: { where: { key: { id: messageId } }, page: 1, offset: 10 } });
	return recordsOf(answer, fail)
		.records.map(storedMessageOf)
		.find((message) => message?.messageId === messageId);
}
