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

/**
 * What people start with, first in the pickers, with what each means; every other event
 * follows in alphabetical order of its label.
 */
const STARTERS: ReadonlyArray<[string, string]> = [
	['MESSAGES_UPSERT', 'A message arrived (or the account wrote one on its phone or WhatsApp Web)'],
	['MESSAGES_UPDATE', 'A message changed status: delivered, read, played'],
	['MESSAGES_EDITED', 'A message was edited'],
	['MESSAGES_DELETE', 'A message was deleted'],
	['SEND_MESSAGE', 'This instance sent a message'],
	['CONNECTION_UPDATE', 'The instance connected, is connecting or was disconnected'],
	['QRCODE_UPDATED', 'A new QR code to scan for connecting the instance'],
	['PRESENCE_UPDATE', 'A contact is online, typing or recording'],
	['CALL', 'A call came in'],
];
const STARTER_RANK = new Map(STARTERS.map(([event], rank) => [event, rank]));
const MEANING = new Map(STARTERS);

/** When only one dialect, or a newer server, sends an event: said in its description, never in its name. */
function availability(event: string): string {
	const since = V2_EVENTS_SINCE[event];
	if (since) return `Sent by v2 servers ${since.replace(/\.0$/, '')} or newer only.`;
	const inDocumented = documented.events.has(event);
	const inV2 = v2.events.has(event);
	if (inDocumented && !inV2) return 'Sent by servers of the documented dialect only (v2 servers do not know it).';
	if (!inDocumented && inV2) return 'Sent by v2 servers only (not in the documented dialect).';
	return '';
}

/**
 * Picker entries for event names: the label is the event's name alone; what it means and
 * which servers send it are its description. What people start with comes first.
 */
export function eventOptions(events: readonly string[]): INodePropertyOptions[] {
	const rank = (event: string) => STARTER_RANK.get(event) ?? STARTERS.length;
	const ordered = [...events].sort((a, b) => rank(a) - rank(b) || eventLabel(a).localeCompare(eventLabel(b), 'en'));
	return ordered.map((event) => {
		const meaning = MEANING.get(event);
		const description = [`${event}.`, meaning ? `${meaning}.` : '', availability(event)].filter(Boolean).join(' ');
		return { name: eventLabel(event), value: event, description };
	});
}

/**
 * What the node panel lists for each event of the trigger, in the words a person looks for
 * ("On new message", not "On messages upsert"): n8n's editor names a trigger's entries after its
 * Events options, by their `action` when they have one, else "On <the option's name>" in lower case.
 */
const ACTIONS: Record<string, string> = {
	MESSAGES_UPSERT: 'On new message',
	MESSAGES_UPDATE: 'On message delivered, read or played',
	MESSAGES_EDITED: 'On message edited',
	MESSAGES_DELETE: 'On message deleted',
	MESSAGES_SET: 'On messages loaded after connecting',
	MESSAGING_HISTORY_SET: 'On message history synced',
	SEND_MESSAGE: 'On message sent by this instance',
	SEND_MESSAGE_UPDATE: 'On sent message updated',
	CONNECTION_UPDATE: 'On connection opened or closed',
	QRCODE_UPDATED: 'On QR code updated',
	PRESENCE_UPDATE: 'On contact online or typing',
	CALL: 'On incoming call',
	CONTACTS_SET: 'On contacts loaded',
	CONTACTS_UPSERT: 'On new contact',
	CONTACTS_UPDATE: 'On contact changed',
	CHATS_SET: 'On chats loaded',
	CHATS_UPSERT: 'On new chat',
	CHATS_UPDATE: 'On chat changed',
	CHATS_DELETE: 'On chat deleted',
	GROUPS_UPSERT: 'On new group',
	GROUP_UPDATE: 'On group changed',
	GROUP_PARTICIPANTS_UPDATE: 'On group members changed',
	LABELS_EDIT: 'On label edited',
	LABELS_ASSOCIATION: 'On label added to or removed from a chat',
	NEW_JWT_TOKEN: 'On new JWT token',
	APPLICATION_STARTUP: 'On server started',
	INSTANCE_CREATE: 'On instance created',
	INSTANCE_DELETE: 'On instance deleted',
	REMOVE_INSTANCE: 'On instance removed',
	LOGOUT_INSTANCE: 'On instance logged out',
	STATUS_INSTANCE: 'On instance status changed',
	TYPEBOT_START: 'On Typebot session started',
	TYPEBOT_CHANGE_STATUS: 'On Typebot session status changed',
	FLOWBOT_START: 'On chatbot session started',
	FLOWBOT_CHANGE_STATUS: 'On chatbot session status changed',
};

/** The trigger's entry in the node panel for an event; an event without words of its own reads "On <its label>". */
export function eventAction(event: string): string {
	return ACTIONS[event] ?? `On ${eventLabel(event)}`;
}

/** The trigger's Events options: the pickers' entries, each with its words for the node panel. */
export function triggerEventOptions(events: readonly string[]): INodePropertyOptions[] {
	return eventOptions(events).map((option) => ({ ...option, action: eventAction(String(option.value)) }));
}

/** The delivered `event` (`messages.upsert`) as its configuration name (`MESSAGES_UPSERT`). */
export function configEventName(delivered: string): string {
	return delivered.replace(/[.-]/g, '_').toUpperCase();
}
