import type { IDataObject } from 'n8n-workflow';

import { configEventName } from '../shared/events';
export type { MessageKey, MediaInfo } from '../shared/messageContent';
import { fileNameOf, isRecord, mediaOf, messageKeyOf, messageTypeOf, readableTextOf, timestampOf, unwrap, type MediaInfo, type MessageKey, type TextFrom } from '../shared/messageContent';
import { sentByOfDelivery, type SentBy } from '../shared/sentBy';
import { eventDedupeKey, messageDedupeKey } from './dedupe';
import { isSecretName, secretsIn } from '../shared/redact';
import { cleanCopy } from './shape';

/**
 * A delivery, parsed once: the checked body becomes a typed `Delivery` (event, instance, and
 * per event in it the key, message, media and time). The trigger filters and emits these
 * very objects. Pure functions: no request, no n8n context.
 */

/** One event of a delivery (a delivery with `data` as an array carries several). */
export interface DeliveryEvent {
	/** The event's data, cleaned (shape.ts): what the item shows. */
	data: IDataObject;
	/** The message key, for any event about one message (new, updated, deleted). */
	key?: MessageKey;
	/** Present for a message event (data with a `key` and a `message`). */
	message?: {
		media?: MediaInfo;
		/**
		 * A media message's file, when the server sent it inside the event (webhookBase64): as
		 * base64, and the name it gets in the item's binary data.
		 */
		file?: { base64: string; name: string };
		/** `messageTimestamp` as an ISO date; null when it is missing or not a time. */
		timestamp: string | null;
		/** The readable text, whatever the message's kind ('' when it has none); a voice note's is the server's transcription. */
		text: string;
		/** Whether `text` is the message's own or the server's transcription of its voice note. */
		textFrom: TextFrom;
		/** Who wrote it: the contact, a person on the account's phone or WhatsApp Web, an API send (../shared/sentBy.ts). */
		sentBy: SentBy;
		/** `messageType` as delivered, else the content's kind, e.g. `conversation`. */
		type: string;
		/** The author's display name as delivered ('' when none). */
		pushName: string;
	};
	/** The same for every copy of this event, in any process (dedupe.ts). */
	dedupeKey: string;
}

export interface Delivery {
	/** As delivered, e.g. `messages.upsert`. */
	event: string;
	/** As configured, e.g. `MESSAGES_UPSERT`. */
	eventName: string;
	instance: string;
	/** The envelope for `raw`: without the instance token and the secret, `data` left out. */
	envelope: IDataObject;
	events: DeliveryEvent[];
}

export type Parsed = { ok: true; delivery: Delivery } | { ok: false; reason: string };

export const EXPECTED_SHAPE = 'Expected a JSON object with "event", "instance" and "data"';


function isUrl(text: string): boolean {
	try {
		new URL(text);
		return true;
	} catch {
		return false;
	}
}

/** The body as a typed delivery, or the reason it is not one (answered with 400). */
export function parseDelivery(body: unknown, secrets: readonly string[]): Parsed {
	if (!isRecord(body)) return { ok: false, reason: EXPECTED_SHAPE };
	// The instance token the server puts into the body (`apikey`, under any spelling) and any
	// other value under a secret's name is hidden wherever else it appears too.
	const cleaned = cleanCopy(body, [...secrets, ...secretsIn(body)]);
	if (!cleaned.ok) return { ok: false, reason: `The delivery is ${cleaned.reason}` };
	const { data, ...rest } = cleaned.value as IDataObject;
	const envelope: IDataObject = {};
	for (const [key, value] of Object.entries(rest)) if (!isSecretName(key)) envelope[key] = value;
	if (typeof envelope.event !== 'string' || envelope.event.trim() === '') return { ok: false, reason: EXPECTED_SHAPE };
	if (envelope.instance !== undefined && typeof envelope.instance !== 'string') return { ok: false, reason: EXPECTED_SHAPE };
	if (!isRecord(data) && !Array.isArray(data)) return { ok: false, reason: EXPECTED_SHAPE };
	// The copy already lacks the secret (also percent-encoded); the text is kept as it came,
	// never re-encoded, and one that is not an address is left out.
	if (typeof envelope.destination === 'string' && !isUrl(envelope.destination)) delete envelope.destination;
	const event = envelope.event;
	const eventName = configEventName(event);
	const instance = typeof envelope.instance === 'string' ? envelope.instance : '';
	// A batch (`data` as an array) is one event per entry; an entry that is not an object is
	// no event the trigger can emit.
	const entries = Array.isArray(data) ? data.filter(isRecord) : [data];
	const events = entries.map((entry) => eventOf(entry, instance, eventName, envelope.date_time));
	return { ok: true, delivery: { event, eventName, instance, envelope, events } };
}

function eventOf(data: IDataObject, instance: string, eventName: string, dateTime: unknown): DeliveryEvent {
	const key = messageKeyOf(data);
	const dedupeKey = key?.id ? keyOfMessage(instance, eventName, key) : eventDedupeKey(instance, eventName, dateTime, data);
	if (!key || !isRecord(data.message)) return { data, ...(key ? { key } : {}), dedupeKey };
	const content = data.message;
	// Unwrapped once here, for the text, the type and the media alike.
	const inner = unwrap(content);
	const media = mediaOf(inner);
	const base64 = typeof content.base64 === 'string' && content.base64 !== '' ? content.base64 : undefined;
	return {
		data,
		key,
		message: {
			media,
			...(media && base64 ? { file: { base64, name: fileNameOf(media, key.id) } } : {}),
			timestamp: timestampOf(data.messageTimestamp, dateTime),
			...readableTextOf(content),
			sentBy: sentByOfDelivery(eventName, (data.key as IDataObject).fromMe, key.id, data.source),
			type: messageTypeOf(data, inner),
			pushName: typeof data.pushName === 'string' ? data.pushName : '',
		},
		dedupeKey,
	};
}

function keyOfMessage(instance: string, event: string, key: MessageKey): string {
	// Keyed by the chat a reply goes to, not by `remoteJid`: the same message delivered with
	// the LID in `remoteJid` (2.3.6) or in `remoteJidAlt` (2.4) is one message. Without a LID
	// the chat is `remoteJid`, so such keys are what they always were.
	return messageDedupeKey({ instance, event, remoteJid: key.chatId, fromMe: key.fromMe, id: key.id });
}

