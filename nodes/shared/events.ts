import type { INodePropertyOptions } from 'n8n-workflow';

import { V2_EVENTS_SINCE, dialectOf } from './dialect';

const documented = dialectOf('documented');
const v2 = dialectOf('v2');

/** Words a plain title-casing would spell wrong: "Qrcode", "Jwt". */
const LABELS: Record<string, string> = {
	QRCODE_UPDATED: 'QR Code Updated',
	NEW_JWT_TOKEN: 'New JWT Token',
};

/** `MESSAGES_UPSERT` → `Messages Upsert`, as n8n's own nodes title their options. */
export function eventLabel(event: string): string {
	if (LABELS[event]) return LABELS[event];
	return event
		.toLowerCase()
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

/** Picker entries for event names, saying which dialect knows a name that only one does. */
export function eventOptions(events: readonly string[]): INodePropertyOptions[] {
	return events.map((event) => {
		const inDocumented = documented.events.has(event);
		const inV2 = v2.events.has(event);
		const since = V2_EVENTS_SINCE[event];
		const only = since ? ` (${since.replace(/\.0$/, '')} or newer)` : inDocumented && !inV2 ? ' (documented only)' : !inDocumented && inV2 ? ' (v2 only)' : '';
		return { name: `${eventLabel(event)}${only}`, value: event, description: `${event}${only}` };
	});
}

/** The delivered `event` (`messages.upsert`) as its configuration name (`MESSAGES_UPSERT`). */
export function configEventName(delivered: string): string {
	return delivered.replace(/[.-]/g, '_').toUpperCase();
}
