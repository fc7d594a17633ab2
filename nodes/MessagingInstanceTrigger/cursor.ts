import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { DeliveryEvent } from './delivery';
import { timestampOf } from '../shared/messageContent';

/**
 * Catch Up's cursor (catchUp.ts): the newest message this workflow is known to have, kept in
 * the node's static data under `catchUp`. A live delivery moves it at most once every 10 seconds
 * (n8n saves the static data after it recorded the delivery's execution), never per delivery
 * under load. What it bounds: n8n saves no static data when it stops or crashes, so the live
 * messages of the last 10 seconds before can be caught up again (marked, same `dedupeKey`).
 * A minute made every restart answer the last minute's messages twice in practice (a person
 * writes every few seconds); 10 seconds keeps that rare and costs at most one save per
 * 10 seconds of a burst (npm run bench, part 6).
 */

/** A live delivery writes the cursor at most this often. */
export const LIVE_CURSOR_EVERY_MS = 10_000;
/** Message ids kept with the cursor for its second (messages of one second are told apart by id). */
export const IDS_AT_CURSOR = 200;

export const STORED_EVENT_NAME = 'MESSAGES_UPSERT';

/** The newest message the workflow is known to have: its second on the server's clock, and the ids of that second. */
export interface CatchUpCursor extends IDataObject {
	seconds: number;
	ids: string[];
	/** When it was written, on n8n's clock (only ever compared with n8n's clock: how often to write). */
	savedAt: number;
}

interface CatchUpState extends IDataObject {
	catchUp?: CatchUpCursor;
}

function isCursor(value: unknown): value is CatchUpCursor {
	const cursor = value as CatchUpCursor | undefined;
	return (
		typeof cursor === 'object' &&
		cursor !== null &&
		Number.isSafeInteger(cursor.seconds) &&
		Array.isArray(cursor.ids) &&
		cursor.ids.every((id) => typeof id === 'string')
	);
}

export function cursorOf(data: IDataObject): CatchUpCursor | undefined {
	const cursor = (data as CatchUpState).catchUp;
	return isCursor(cursor) ? cursor : undefined;
}

/** The cursor moved to `seconds`/`id` if that is newer (never back). */
export function advanced(cursor: CatchUpCursor | undefined, seconds: number, id: string, now: number): CatchUpCursor | undefined {
	if (cursor && seconds < cursor.seconds) return undefined;
	if (cursor && seconds === cursor.seconds) {
		if (cursor.ids.includes(id)) return undefined;
		return { seconds, ids: [...cursor.ids, id].slice(-IDS_AT_CURSOR), savedAt: now };
	}
	return { seconds, ids: [id], savedAt: now };
}

function secondsOfIso(timestamp: string | null | undefined): number | undefined {
	if (!timestamp) return undefined;
	const ms = Date.parse(timestamp);
	return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** A message the cursor can pass: its second on the server's clock and its id. */
export interface Received {
	seconds: number;
	id: string;
}

/**
 * A live delivery brought `received`: the cursor moves to the newest of them, at most once
 * per LIVE_CURSOR_EVERY_MS (n8n saves the static data after it recorded the execution).
 */
export function noteReceived(data: IDataObject, received: readonly Received[], now = Date.now()): void {
	const current = cursorOf(data);
	if (current && now - current.savedAt >= 0 && now - current.savedAt < LIVE_CURSOR_EVERY_MS) return;
	let next = current;
	for (const message of received) next = advanced(next, message.seconds, message.id, now) ?? next;
	if (next && next !== current) (data as CatchUpState).catchUp = next;
}

/** The messages of a live delivery's events (message events of Messages Upsert only). */
export function receivedOf(eventName: string, events: readonly DeliveryEvent[]): Received[] {
	if (eventName !== STORED_EVENT_NAME) return [];
	return events.flatMap((event) => {
		const seconds = secondsOfIso(event.message?.timestamp);
		return seconds !== undefined && event.key?.id ? [{ seconds, id: event.key.id }] : [];
	});
}

/** The same read back from live items (either output format), as execute() sees them. */
export function receivedInItems(items: readonly INodeExecutionData[]): Received[] {
	return items.flatMap((item) => {
		const json = item.json;
		if (json.caughtUp !== false || json.event !== 'messages.upsert') return [];
		const data = (json.data ?? {}) as IDataObject;
		const key = (data.key ?? {}) as IDataObject;
		const id = typeof json.messageId === 'string' ? json.messageId : key.id;
		const seconds = typeof json.timestamp === 'string' ? secondsOfIso(json.timestamp) : secondsOfIso(timestampOf(data.messageTimestamp, null));
		return typeof id === 'string' && id !== '' && seconds !== undefined ? [{ seconds, id }] : [];
	});
}

/** Marks an item as caught up or live (`caughtUp`), in either output format. */
export function markCaughtUp(item: INodeExecutionData, caughtUp: boolean): INodeExecutionData {
	item.json.caughtUp = caughtUp;
	return item;
}

