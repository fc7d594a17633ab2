import type { IDataObject } from 'n8n-workflow';

import { inOrder, type StoredMessage } from '../../../../shared/chatHistory';
import { isGroupJid, readableTextOf, timestampOf } from '../../../../shared/messageContent';

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

export interface BurstRules {
	quietSeconds: number;
	maxWaitSeconds: number;
}

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

/** Whether a stored message is one of its own (not an edit, a reaction, a vote about another). */
export function isAMessage(message: StoredMessage): boolean {
	return !NOT_A_MESSAGE.has(message.messageType);
}

const FILE_KINDS = new Set(['imageMessage', 'videoMessage', 'audioMessage', 'documentMessage', 'documentWithCaptionMessage', 'stickerMessage', 'ptvMessage']);

function isContactMessage(message: StoredMessage): boolean {
	return !message.fromMe && !NOT_A_MESSAGE.has(message.messageType);
}

/**
 * Whether `message` is by the author of `own`: in a group, one of its author JIDs (every
 * member's message names its author, chatHistory's readRecord sees to it); in a direct chat
 * every message not the instance's is the contact's.
 */
function sameAuthor(message: StoredMessage, own: StoredMessage): boolean {
	if (!isGroupJid(own.chatJids[0])) return true;
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
	| { kind: 'burst'; burst: StoredMessage[] };

/**
 * What the run of `messageId` does, given the chat's messages it read. Only the server's
 * history decides, never when the run started: the run of a burst's last message answers
 * it however late n8n started it, even after the instance wrote in the chat (that message
 * ends the burst; it does not answer it for the contact). A second delivery of a message is
 * told by its key, where deliveries arrive: the trigger's duplicate check, and across a
 * restart the Remove Duplicates step (docs/collect-burst.md).
 */
export function judge(messages: readonly StoredMessage[], messageId: string, rules: BurstRules): Verdict {
	const ordered = inOrder(messages);
	const own = ordered.find((message) => message.messageId === messageId);
	if (!own) return { kind: 'missing' };
	if (!isContactMessage(own)) return { kind: 'notAMessage', message: own };
	const burst = burstsOf(ordered, own, rules).find((candidate) => candidate.messages.includes(own))?.messages ?? [own];
	const last = burst[burst.length - 1];
	if (last !== own) return { kind: 'later', newer: last };
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
		// A voice note's text is the server's transcription, when it made one (textFrom says so).
		...readableTextOf(message.message),
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
