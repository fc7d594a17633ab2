import type { StoredMessage } from '../../../../shared/chatHistory';
import { isAMessage } from './burst';

/**
 * Silent while a person answers: a burst is not answered while a person (the account's owner
 * or an agent on a phone or WhatsApp Desktop: `sentBy` `person`) wrote in the chat within
 * `silentAfterPersonMinutes` of the burst's last message, or after it. Decided from the chat's
 * stored history like the burst, the same way by every run in any process; no store.
 *
 * The window is measured on one clock: every `messageTimestamp` in the chat is the time
 * WhatsApp stamped the message (the contact's and the person's alike), so the person's message
 * is compared with the burst's last message, never with n8n's clock: a run that starts late, or
 * an n8n clock that is off, silences no burst it should answer. The bot's own replies are
 * `automation` or `unknown` (an API send looks like WhatsApp Web in the history), never
 * `person`: they never silence it.
 */

/** Longest window: the history read back for it is bounded (chatHistory.ts HISTORY_LIMITS). */
export const MAX_SILENT_MINUTES = 1_440;

/** Where the window begins, in the server's seconds: `minutes` before the burst's last message. */
function windowStart(last: StoredMessage, minutes: number): number {
	return last.seconds - minutes * 60;
}

/**
 * The newest message a person wrote in the chat from `minutes` before the burst's last message
 * on (one after it too); undefined when none, or with the rule off (0).
 */
export function personWithin(messages: readonly StoredMessage[], last: StoredMessage, minutes: number): StoredMessage | undefined {
	if (minutes <= 0) return undefined;
	const from = windowStart(last, minutes);
	let newest: StoredMessage | undefined;
	for (const message of messages) {
		if (message.sentBy !== 'person' || !isAMessage(message) || message.seconds <= from) continue;
		if (!newest || message.seconds > newest.seconds) newest = message;
	}
	return newest;
}

/**
 * Whether the history read so far reaches back past the window of the run's message, so that
 * no person's message in it is missing; until then older pages are read (as many as the
 * history's bound allows: a chat with more messages than that in the window is judged on the
 * pages read, and a burst is answered rather than lost).
 */
export function windowRead(messages: readonly StoredMessage[], messageId: string, minutes: number): boolean {
	if (minutes <= 0) return true;
	const own = messages.find((message) => message.messageId === messageId);
	if (!own) return false;
	const from = windowStart(own, minutes);
	return messages.some((message) => message.seconds <= from);
}
