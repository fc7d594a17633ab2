import { isOwnMessageId } from './ownMessageId';

/**
 * Who wrote a message: one rule for a delivery (the trigger) and one for a stored record
 * (Collect Burst's silence, the chat memory, the trigger's catch-up). Facts from Evolution
 * API's Baileys channel at 2.3.6, 2.3.7 and 2.4.0-rc2 (docs/operations.md, "Who wrote it"):
 * - Baileys runs with `emitOwnEvents: false`, so a message the server sends through its API
 *   never comes back as MESSAGES_UPSERT: it is posted as SEND_MESSAGE. A `fromMe` upsert was
 *   written on another device of the account: a phone, WhatsApp Web or Desktop.
 * - Every stored message has `source`, Baileys' guess of the device from the message id's
 *   form: `ios`, `android` and `desktop` ids are made by those apps alone; an API send's id
 *   and a WhatsApp Web id are both `3EB0` and 18 hex digits (`web`). So in the history a
 *   `web` message of the account is a send of some program or a person on WhatsApp Web.
 * - On 2.4 the package chooses its sends' ids, and they carry a check (ownMessageId.ts).
 * Messages this package sent are never `person`. Pure functions: no request, no n8n context.
 */
export type SentBy = 'contact' | 'person' | 'automation' | 'unknown';

/** The `source` values only the account's own apps make (a phone, WhatsApp Desktop). */
const APP_SOURCES = new Set(['ios', 'android', 'desktop']);

/**
 * Who wrote a stored message (a Find Messages record, a synced history entry), from its
 * `key.fromMe`, `key.id` and `source`. A message of the account with a `web` or `unknown`
 * source, not made by this package, is `unknown`: an API send and WhatsApp Web look alike.
 */
export function sentByOfRecord(fromMe: unknown, messageId: unknown, source: unknown): SentBy {
	if (fromMe === false) return 'contact';
	if (fromMe !== true) return 'unknown';
	if (isOwnMessageId(messageId)) return 'automation';
	return typeof source === 'string' && APP_SOURCES.has(source) ? 'person' : 'unknown';
}

/**
 * Who wrote a delivered message, by the event it came as (`MESSAGES_UPSERT`, `SEND_MESSAGE`,
 * as configured) and its key; any other event is read as a stored record.
 */
export function sentByOfDelivery(eventName: string, fromMe: unknown, messageId: unknown, source: unknown): SentBy {
	if (eventName === 'SEND_MESSAGE') return 'automation';
	if (eventName !== 'MESSAGES_UPSERT') return sentByOfRecord(fromMe, messageId, source);
	if (fromMe === false) return 'contact';
	if (fromMe !== true) return 'unknown';
	// The package's own id on an upsert: a second server linked to the account sent it.
	return isOwnMessageId(messageId) ? 'automation' : 'person';
}
