import type { IDataObject } from 'n8n-workflow';

import { inOrder, ReadMessages, type StoredMessage } from '../shared/chatHistory';
import { isLidJid, isPhoneJid, isRecord, mediaOf, str, textOf, transcriptionOf, unwrap } from '../shared/messageContent';

/**
 * A chat's stored messages as the turns of a conversation for the AI Agent: oldest first, the
 * contact's messages as the user's turns and the instance's (whoever wrote them: this
 * workflow, a person on the phone, another workflow) as the assistant's. Pure functions: no
 * request, no n8n context.
 */

export interface Turn {
	role: 'user' | 'assistant';
	text: string;
}

/** The longest text one message gives the model; a longer one is cut (a pasted document would crowd out the chat). */
export const MAX_MESSAGE_CHARS = 2_000;

/** What a stored row says beyond the message itself: who wrote it (a group member's name) and whether it was deleted. */
interface RowFacts {
	pushName?: string;
	deleted: boolean;
}

/**
 * The messages read (the chat's pages, through chatHistory.ts's readers), with the facts of
 * each row the turns need beyond the stored message: the author's display name, and whether
 * the server marked the message deleted (`key.deleted` when the instance deleted it, a
 * `DELETED` update when the contact did). The facts are noted from each answer as it comes;
 * the readers decide whether the answer is a page of messages at all (they fail closed).
 */
export class HistoryRows extends ReadMessages {
	private readonly facts = new Map<string, RowFacts>();

	/** Notes the facts of an answer's records (Find Messages' `messages.records`). */
	noteAnswer(answer: unknown): void {
		const page = isRecord(answer) && isRecord(answer.messages) ? answer.messages : undefined;
		const records = Array.isArray(page?.records) ? page.records : [];
		for (const record of records) {
			if (!isRecord(record) || !isRecord(record.key)) continue;
			const id = str(record.key.id);
			if (id === undefined) continue;
			const updates = Array.isArray(record.MessageUpdate) ? record.MessageUpdate : [];
			const deleted = record.key.deleted === true || record.status === 'DELETED' || updates.some((update) => isRecord(update) && update.status === 'DELETED');
			const known = this.facts.get(id);
			this.facts.set(id, { pushName: known?.pushName ?? displayName(record.pushName), deleted: deleted || known?.deleted === true });
		}
	}

	factsOf(messageId: string): RowFacts {
		return this.facts.get(messageId) ?? { deleted: false };
	}
}

/** A display name a person could have: the server fills in "Você" for the instance's own rows, which is no author. */
function displayName(value: unknown): string | undefined {
	const name = str(value)?.trim().slice(0, 64);
	return name && name !== 'Você' ? name : undefined;
}

/** Stored kinds that are no message of the conversation (key distribution, context, pins, votes, unknown). */
const NOT_CONTENT = new Set(['senderKeyDistributionMessage', 'messageContextInfo', 'keepInChatMessage', 'pollUpdateMessage', 'unknown', '']);

/** Protocol messages about another message, as Baileys numbers them (and as some servers name them). */
const REVOKE = new Set<unknown>([0, 'REVOKE']);
const MESSAGE_EDIT = new Set<unknown>([14, 'MESSAGE_EDIT']);

/** What other messages say about a message: deleted, its new text, its reactions (one per person, the last). */
interface Changes {
	deleted: Set<string>;
	edited: Map<string, string>;
	reactions: Map<string, Map<string, string>>;
}

function targetOf(value: unknown): string | undefined {
	return isRecord(value) ? str(value.id) : undefined;
}

/** Whether the message is about another one (a reaction, an edit, a deletion); if so, what it changes is recorded. */
function recordChange(message: StoredMessage, changes: Changes): boolean {
	const content = unwrap(message.message);
	const reaction = isRecord(content.reactionMessage) ? content.reactionMessage : undefined;
	if (reaction) {
		const target = targetOf(reaction.key);
		if (target) {
			const byPerson = changes.reactions.get(target) ?? new Map<string, string>();
			const who = message.fromMe ? 'me' : (message.authorJids[0] ?? message.chatJids[0]);
			byPerson.delete(who);
			const emoji = str(reaction.text);
			if (emoji) byPerson.set(who, emoji.slice(0, 16));
			changes.reactions.set(target, byPerson);
		}
		return true;
	}
	const protocol = isRecord(content.protocolMessage) ? content.protocolMessage : undefined;
	if (protocol) {
		const target = targetOf(protocol.key);
		if (target && REVOKE.has(protocol.type)) changes.deleted.add(target);
		if (target && MESSAGE_EDIT.has(protocol.type) && isRecord(protocol.editedMessage)) changes.edited.set(target, textOf(protocol.editedMessage));
		return true;
	}
	return false;
}

/** The short name of a file's kind the model reads: `[photo]`, `[voice note]`, `[document report.pdf]`. */
function mediaLabel(content: IDataObject): string | undefined {
	const media = mediaOf(content);
	if (!media) return undefined;
	if (media.kind === 'image') return 'photo';
	if (media.kind === 'audio') return isRecord(content.audioMessage) && content.audioMessage.ptt === true ? 'voice note' : 'audio';
	if (media.kind === 'document') return media.fileName ? `document ${media.fileName}` : 'document';
	return media.kind;
}

const OTHER_KINDS: Record<string, string> = {
	locationMessage: 'location',
	liveLocationMessage: 'location',
	contactMessage: 'contact',
	contactsArrayMessage: 'contacts',
	pollCreationMessage: 'poll',
	pollCreationMessageV3: 'poll',
};

/** A message as a line of text: its text, a file as a short placeholder with its caption or transcription. */
function lineOf(message: StoredMessage, edited: string | undefined): string {
	const content = unwrap(message.message);
	const text = edited ?? textOf(message.message);
	const label = mediaLabel(content);
	if (label) {
		const words = (label === 'voice note' || label === 'audio' ? transcriptionOf(message.message) : undefined) ?? (text === mediaOf(content)?.fileName ? '' : text);
		return words ? `[${label}] ${words}` : `[${label}]`;
	}
	const kind = Object.keys(OTHER_KINDS).find((name) => isRecord(content[name]));
	if (kind) return text ? `[${OTHER_KINDS[kind]}] ${text}` : `[${OTHER_KINDS[kind]}]`;
	return text;
}

function cutText(text: string): string {
	return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** Who wrote a group message, as the model reads it: "Ana (5511988887777)", the number alone, or the LID's. */
function authorLabel(message: StoredMessage, pushName: string | undefined): string {
	const phone = message.authorJids.find(isPhoneJid) ?? message.authorJids.find(isLidJid) ?? message.authorJids[0] ?? '';
	const number = phone.split('@')[0];
	if (pushName && number) return `${pushName} (${number})`;
	return pushName ?? (number || 'someone');
}

/**
 * Where the history ends: the messages the run answers (the trigger's message, Collect Burst's
 * burst) and everything the server stored after the first of them are not history. They are
 * the agent's input, or the input of a later run (a contact who wrote again while the agent
 * thought): either way the model would read them twice.
 */
function historyEnd(ordered: readonly StoredMessage[], current: ReadonlySet<string>): number {
	const first = ordered.findIndex((message) => current.has(message.messageId));
	return first === -1 ? ordered.length : first;
}

/** Whether any of the run's current messages is among those read. */
export function holdsCurrent(rows: ReadMessages, current: ReadonlySet<string>): boolean {
	return [...current].some((id) => rows.has(id));
}

/**
 * The conversation before the run's messages, as alternating turns: consecutive messages of
 * one side are one turn (one line each), so a turn of the contact and the answer is one
 * interaction, as n8n's memory nodes count their window. Reactions, edits and deletions are
 * applied to the messages they are about and are not turns of their own.
 */
export function turnsOf(rows: HistoryRows, current: ReadonlySet<string>, isGroup: boolean): Turn[] {
	const ordered = inOrder(rows.all());
	const changes: Changes = { deleted: new Set(), edited: new Map(), reactions: new Map() };
	const messages = ordered.filter((message) => !recordChange(message, changes));
	const history = messages.slice(0, historyEnd(messages, current));
	const turns: Turn[] = [];
	for (const message of history) {
		const facts = rows.factsOf(message.messageId);
		if (facts.deleted || changes.deleted.has(message.messageId) || NOT_CONTENT.has(message.messageType)) continue;
		let line = cutText(lineOf(message, changes.edited.get(message.messageId)));
		if (line === '') continue;
		const reactions = [...(changes.reactions.get(message.messageId)?.values() ?? [])];
		if (reactions.length > 0) line += ` (reactions: ${reactions.join(' ')})`;
		const role = message.fromMe ? 'assistant' : 'user';
		if (isGroup && role === 'user') line = `${authorLabel(message, facts.pushName)}: ${line}`;
		const last = turns[turns.length - 1];
		if (last?.role === role) last.text += `\n${line}`;
		else turns.push({ role, text: line });
	}
	return turns;
}
