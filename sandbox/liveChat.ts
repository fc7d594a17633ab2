/**
 * The chat log of all instances and its live readers: the chat page's server-sent-event
 * streams get each new entry (of their instance, or all), a reset, and a keep-alive comment
 * that stops proxies from closing an idle stream.
 */
import type { ServerResponse } from 'http';
import type { ChatEntry } from './types';
import { serverNow } from './messages';

/** A chat entry as one server-sent event; its id is the entry's `seq` (Last-Event-ID resumes after it). */
export function sseFrame(entry: ChatEntry): string {
	return `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
}

interface StreamClient {
	res: ServerResponse;
	instance?: string;
}

export class LiveChat {
	/** oldest first */
	readonly entries: ChatEntry[] = [];
	private seq = 0;
	private readonly clients = new Set<StreamClient>();
	private keepAlive?: NodeJS.Timeout;

	/** @param changed called after each new entry (the state file is written shortly) */
	constructor(private readonly changed: () => void) {}

	/** The entries of a saved state; new entries number on from the highest. */
	restore(entries: ChatEntry[]): void {
		this.entries.push(...entries);
		this.seq = this.entries.reduce((max, e) => Math.max(max, e.seq), 0);
	}

	/** @param e the entry; `at` only for a message sent earlier than it arrives (default the server's now) */
	add(e: Omit<ChatEntry, 'seq' | 'at' | 'time'> & { at?: number }): ChatEntry {
		const at = e.at ?? serverNow();
		const entry: ChatEntry = { ...e, seq: ++this.seq, at, time: new Date(at).toISOString() };
		this.entries.push(entry);
		this.changed();
		for (const c of this.clients) {
			if (!c.instance || c.instance === entry.instance) c.res.write(sseFrame(entry));
		}
		return entry;
	}

	/** Adds a live reader (of one instance, or all); returns the function that removes it. */
	addStream(res: ServerResponse, instance: string | undefined): () => void {
		const client = { res, instance };
		this.clients.add(client);
		return () => this.clients.delete(client);
	}

	/** Forgets every entry; live readers are told to start over. */
	reset(): void {
		this.entries.length = 0;
		for (const c of this.clients) c.res.write('event: reset\ndata: {}\n\n');
	}

	startKeepAlive(): void {
		this.keepAlive = setInterval(() => {
			for (const c of this.clients) c.res.write(': keep-alive\n\n');
		}, 15000);
		this.keepAlive.unref();
	}

	/** Ends every stream. */
	close(): void {
		if (this.keepAlive) clearInterval(this.keepAlive);
		for (const c of this.clients) c.res.end();
		this.clients.clear();
	}
}
