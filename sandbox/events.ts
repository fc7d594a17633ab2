/**
 * The webhook event names each dialect knows (the interface's 23, and the v2.x servers' own
 * list: src/api/types/wa.types.ts of github.com/EvolutionAPI/evolution-api), and the
 * spellings of one name.
 * test/contract/events.test.ts holds these lists against the node's.
 */
import type { Dialect } from './types';

/** The 23 event names of the documented interface (its webhook section). */
export const DOCUMENTED_EVENTS = [
	'APPLICATION_STARTUP',
	'QRCODE_UPDATED',
	'MESSAGES_SET',
	'MESSAGES_UPSERT',
	'MESSAGES_UPDATE',
	'MESSAGES_DELETE',
	'SEND_MESSAGE',
	'CONTACTS_SET',
	'CONTACTS_UPSERT',
	'CONTACTS_UPDATE',
	'PRESENCE_UPDATE',
	'CHATS_SET',
	'CHATS_UPSERT',
	'CHATS_UPDATE',
	'CHATS_DELETE',
	'GROUPS_UPSERT',
	'GROUP_UPDATE',
	'GROUP_PARTICIPANTS_UPDATE',
	'CONNECTION_UPDATE',
	'CALL',
	'NEW_JWT_TOKEN',
	'FLOWBOT_START',
	'FLOWBOT_CHANGE_STATUS',
] as const;

const V2_DROPPED = new Set<string>(['NEW_JWT_TOKEN', 'FLOWBOT_START', 'FLOWBOT_CHANGE_STATUS']);

/** v2.x servers: the contract's names minus three, plus eleven of their own. */
export const V2_EVENTS: readonly string[] = [
	...DOCUMENTED_EVENTS.filter((e) => !V2_DROPPED.has(e)),
	'MESSAGES_EDITED',
	'SEND_MESSAGE_UPDATE',
	'LABELS_EDIT',
	'LABELS_ASSOCIATION',
	'TYPEBOT_START',
	'TYPEBOT_CHANGE_STATUS',
	'REMOVE_INSTANCE',
	'LOGOUT_INSTANCE',
	'INSTANCE_CREATE',
	'INSTANCE_DELETE',
	'STATUS_INSTANCE',
];

export function eventsOf(dialect: Dialect): readonly string[] {
	return dialect === 'v2' ? V2_EVENTS : DOCUMENTED_EVENTS;
}

/** `messages.upsert` / `MESSAGES_UPSERT` / `messages-upsert` -> `MESSAGES_UPSERT` */
export function configEventName(event: string): string {
	return event.replace(/[.-]/g, '_').toUpperCase();
}

/** `MESSAGES_UPSERT` / `messages.upsert` -> `messages.upsert` */
export function dottedEventName(event: string): string {
	return event.replace(/[_-]/g, '.').toLowerCase();
}
