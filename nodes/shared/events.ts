import type { INodePropertyOptions } from 'n8n-workflow';

import { dialectOf } from './dialect';

const documented = dialectOf('documented');
const v2 = dialectOf('v2');

/** `MESSAGES_UPSERT` → `Messages Upsert`. */
function title(event: string): string {
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
		const only = inDocumented && !inV2 ? ' (documented only)' : !inDocumented && inV2 ? ' (v2 only)' : '';
		return { name: `${title(event)}${only}`, value: event, description: `${event}${only}` };
	});
}

/** The delivered `event` (`messages.upsert`) as its configuration name (`MESSAGES_UPSERT`). */
export function configEventName(delivered: string): string {
	return delivered.replace(/[.-]/g, '_').toUpperCase();
}
