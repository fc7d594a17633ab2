import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { DeliveryEvent } from './delivery';

/**
 * Catch Up's cursor (catchUp.ts): the newest message this workflow is known to have, kept in
 * the node's static data under `catchUp`. A live delivery moves it at most once a minute (n8n
 * saves the static data after it recorded the delivery's execution), never per delivery.
 */

/** A live delivery writes the cursor at most this often. */
export const LIVE_CURSOR_EVERY_MS = 60_000;
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

/**
 * A live delivery emitted `events`: the cursor moves to the newest of their messages, at most
 * once per `liveCursorEveryMs` (n8n saves the static data after it recorded the execution).
 */
export function noteReceived(data: IDataObject, eventName: string, events: readonly DeliveryEvent[], now = Date.now()): void {
	if (eventName !== STORED_EVENT_NAME) return;
	const current = cursorOf(data);
	if (current && now - current.savedAt >= 0 && now - current.savedAt < LIVE_CURSOR_EVERY_MS) return;
	let next = current;
	for (const event of events) {
		const seconds = secondsOfIso(event.message?.timestamp);
		if (seconds === undefined || !event.key?.id) continue;
		next = advanced(next, seconds, event.key.id, now) ?? next;
	}
	if (next && next !== current) (data as CatchUpState).catchUp = next;
}

/** Marks an item as caught up or live (`caughtUp`), in either output format. */
export function markCaughtUp(item: INodeExecutionData, caughtUp: boolean): INodeExecutionData {
	item.json.caughtUp = caughtUp;
	return item;
}

