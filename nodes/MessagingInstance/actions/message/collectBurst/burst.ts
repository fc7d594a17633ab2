import type { IDataObject } from 'n8n-workflow';

import { textOf, timestampOf } from '../../../../MessagingInstanceTrigger/delivery';

/**
 * A burst is worked out from the server's stored history alone, the same way by every run
 * that reads it, in any process: that is what makes one answer per burst without a store of
 * our own. The contact's messages of a chat, oldest first, fall into bursts; a new burst
 * starts at a message
 * - after one the instance wrote in the chat (its own messages end a burst),
 * - more than `quietSeconds` after the contact's previous message (a run of that message
 *   waited that long, saw nothing newer, and answered), or
 * - `maxWaitSeconds` or more after the first message of the burst (a contact who never stops
 *   still gets answers, one per window).
 * The run of a burst's last message answers it; the runs of its other messages output nothing.
 */

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
}

export interface BurstRules {
	quietSeconds: number;
	maxWaitSeconds: number;
	/** When this run started (ms, n8n's clock). */
	startedAt: number;
}

/** Longest id, JID or type taken from a record; a longer one is not a message key of any server. */
const MAX_FIELD_CHARS = 256;

/** Stored kinds that are about another message (an edit, a reaction, a vote), not a message of their own. */
const NOT_A_MESSAGE = new Set([
	'protocolMessage',
	'reactionMessage',
	'pollUpdateMessage',
	'editedMessage',
	'senderKeyDistributionMessage',
	'messageContextInfo',
	'keepInChatMessage',
	'unknown',
	'',
]);

const FILE_KINDS = new Set(['imageMessage', 'videoMessage', 'audioMessage', 'documentMessage', 'documentWithCaptionMessage', 'stickerMessage', 'ptvMessage']);

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
	};
}

/** Oldest first; messages of one second in the order the server stored them. One copy of each message id. */
export function inOrder(messages: readonly StoredMessage[]): StoredMessage[] {
	const sorted = [...messages].sort((a, b) => a.seconds - b.seconds || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0));
	const seen = new Set<string>();
	return sorted.filter((message) => !seen.has(message.messageId) && seen.add(message.messageId));
}

function isContactMessage(message: StoredMessage): boolean {
	return !message.fromMe && !NOT_A_MESSAGE.has(message.messageType);
}

/** Whether `message` is by the author of `own` (in a group, one of its author JIDs; else the contact of the chat). */
function sameAuthor(message: StoredMessage, own: StoredMessage): boolean {
	if (own.authorJids.length === 0) return true;
	return message.authorJids.some((jid) => own.authorJids.includes(jid));
}

interface Burst {
	messages: StoredMessage[];
	/** Whether where its bursts begin was read (an instance message or a pause before them), so it is the burst every run sees. */
	anchored: boolean;
}

/** The author's bursts among the messages read, oldest first (only the instance's messages and the author's shape them). */
function burstsOf(ordered: readonly StoredMessage[], own: StoredMessage, rules: BurstRules): Burst[] {
	const all: Burst[] = [];
	let current: Burst | undefined;
	let anchored = false;
	for (const message of ordered) {
		if (message.fromMe) {
			current = undefined;
			anchored = true;
			continue;
		}
		if (!isContactMessage(message) || !sameAuthor(message, own)) continue;
		const previous = current?.messages[current.messages.length - 1];
		const paused = previous !== undefined && message.seconds - previous.seconds > rules.quietSeconds;
		if (paused) anchored = true;
		if (!current || paused || message.seconds - current.messages[0].seconds >= rules.maxWaitSeconds) {
			current = { messages: [], anchored };
			all.push(current);
		}
		current.messages.push(message);
	}
	return all;
}

export type Verdict =
	/** The run's own message is not in what was read. */
	| { kind: 'missing' }
	/** Not a contact's message (the instance's own, a reaction, an edit): no burst to answer. */
	| { kind: 'notAMessage'; message: StoredMessage }
	/** A newer message of the same burst exists: its run answers. */
	| { kind: 'later'; newer: StoredMessage }
	/** The instance wrote after the burst before this run even started: a second delivery of a message already answered. */
	| { kind: 'answered'; reply: StoredMessage }
	| { kind: 'burst'; burst: StoredMessage[] };

/** What the run of `messageId` does, given the chat's messages it read. */
export function judge(messages: readonly StoredMessage[], messageId: string, rules: BurstRules): Verdict {
	const ordered = inOrder(messages);
	const own = ordered.find((message) => message.messageId === messageId);
	if (!own) return { kind: 'missing' };
	if (!isContactMessage(own)) return { kind: 'notAMessage', message: own };
	const burst = burstsOf(ordered, own, rules).find((candidate) => candidate.messages.includes(own))?.messages ?? [own];
	const last = burst[burst.length - 1];
	if (last !== own) return { kind: 'later', newer: last };
	// Whole seconds on the server's clock: a reply at least one second before the run began.
	const reply = ordered.slice(ordered.indexOf(own) + 1).find((message) => message.fromMe && (message.seconds + 1) * 1000 <= rules.startedAt);
	if (reply) return { kind: 'answered', reply };
	return { kind: 'burst', burst };
}

/**
 * Whether the messages read so far decide the run's burst: its own message is among them,
 * and so is where its bursts begin (an instance message or a pause before them). Until then
 * older pages are read.
 */
export function decided(messages: readonly StoredMessage[], messageId: string, rules: BurstRules): boolean {
	const ordered = inOrder(messages);
	const own = ordered.find((message) => message.messageId === messageId);
	if (!own) return false;
	if (!isContactMessage(own)) return true;
	return burstsOf(ordered, own, rules).find((candidate) => candidate.messages.includes(own))?.anchored ?? true;
}

/** The JIDs that name the author: a group message's author, else the chat's. */
function authorOf(own: StoredMessage): string {
	const jids = own.authorJids.length > 0 ? own.authorJids : own.chatJids;
	return jids.find((jid) => !jid.endsWith('@lid')) ?? jids[0];
}

function hasFile(message: StoredMessage): boolean {
	if (FILE_KINDS.has(message.messageType)) return true;
	return Object.keys(message.message).some((kind) => FILE_KINDS.has(kind));
}

/** The output item of a burst. */
export function burstItem(burst: readonly StoredMessage[], chatId: string): IDataObject {
	const messages = burst.map((message) => ({
		messageId: message.messageId,
		messageType: message.messageType,
		text: textOf(message.message),
		timestamp: timestampOf(message.seconds, undefined),
		hasFile: hasFile(message),
	}));
	return {
		chatId,
		sender: authorOf(burst[burst.length - 1]),
		text: messages
			.map((message) => message.text)
			.filter((text) => text !== '')
			.join('\n'),
		messages,
		count: messages.length,
		firstMessageId: messages[0].messageId,
		lastMessageId: messages[messages.length - 1].messageId,
	};
}
