import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { LIST_LIMITS, strictList } from './pages';
import type { ItemParameters } from './parameters';
import { picker } from '../../shared/pickers';
import type { Pagination } from './types';

/**
 * Fields that several operations share, defined once: who receives something, and the key
 * that names one message (its chat, its id, and whether this instance sent it).
 */

export const RECIPIENT_HINT =
	'With country code: digits, or as pasted (+55 (11) 99999-0000 becomes 5511999990000). A JID such as 5511999990000@s.whatsapp.net or a group 120363000000000000@g.us is sent as typed.';

/** For a person only (a profile, a block): a group id does not fit. */
export const PERSON_HINT =
	'With country code: digits, or as pasted (+55 (11) 99999-0000 becomes 5511999990000). A JID such as 5511999990000@s.whatsapp.net is sent as typed.';

export function recipientProperty(description = 'Who receives the message', hint = RECIPIENT_HINT): INodeProperties {
	return {
		displayName: 'Number',
		name: 'number',
		type: 'string',
		default: '',
		required: true,
		placeholder: '5511999990000',
		description,
		hint,
	};
}

/** The message key as parameters `remoteJid`, `messageId` and `fromMe`. */
export function messageKeyProperties(purpose: string, fromMeDefault = false): INodeProperties[] {
	const fromMe: INodeProperties = {
		displayName: 'From Me',
		name: 'fromMe',
		type: 'boolean',
		default: false,
		description: 'Whether the message was sent by this instance (its key.fromMe)',
	};
	if (fromMeDefault) fromMe.default = true;
	return [
		{
			displayName: 'Chat (Remote JID)',
			name: 'remoteJid',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000@s.whatsapp.net',
			description: 'The chat of the message: its key.remoteJid (the trigger outputs it as chatId)',
		},
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3EB0C431C26A1916E07A',
			description: `ID of the message ${purpose}: its key.ID (the trigger outputs it as messageId)`,
		},
		fromMe,
	];
}

/** Chat, Last Message ID and Last Message From Me: the parameters `chat`, `messageId`, `fromMe`. */
export function lastMessageKeyProperties(why: string): INodeProperties[] {
	return [
		{
			displayName: 'Chat',
			name: 'chat',
			type: 'string',
			default: '',
			required: true,
			placeholder: '5511999990000@s.whatsapp.net',
			description: 'The remote JID of the chat',
		},
		{
			displayName: 'Last Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3EB0C431C26A1916E07A',
			description: `ID of the last message of the chat (its key.ID); ${why}`,
		},
		{
			displayName: 'Last Message From Me',
			name: 'fromMe',
			type: 'boolean',
			default: false,
			description: 'Whether that last message was sent by this instance',
		},
	];
}

export interface MessageKey {
	remoteJid: string;
	fromMe: boolean;
	id: string;
}

/** Reads a message key; `chatParameter` names the parameter that holds the chat. */
export function readMessageKey(params: ItemParameters, chatParameter = 'remoteJid'): MessageKey {
	return {
		remoteJid: params.recipient(chatParameter, true),
		fromMe: params.flag('fromMe'),
		id: params.text('messageId').trim(),
	};
}

/** Return All and Limit, as n8n's own "Get Many" operations have them. */
export function returnAllProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: LIST_LIMITS.items },
			default: 50,
			displayOptions: { show: { returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

const GROUP_JID = /^\d+(-\d+)?(@g\.us)?$/;

export function groupJidProperty(): INodeProperties {
	return picker({
		displayName: 'Group',
		name: 'groupJid',
		description: 'The group: pick it from the instance\'s groups, or give its ID ("@g.us" may be left out)',
		searchMethod: 'searchGroups',
		typedMode: { displayName: 'By ID', name: 'id', placeholder: '120363000000000000@g.us' },
	});
}

/** The group's JID as typed, trimmed; the server adds `@g.us` when it is missing. */
export function readGroupJid(params: ItemParameters): string {
	const groupJid = params.identifier('groupJid').trim();
	if (groupJid.length > 64 || !GROUP_JID.test(groupJid)) {
		params.fail(params.label('groupJid'), 'must be a group ID such as 120363000000000000@g.us', 'Get the ID from Group → Get Many, or from the trigger\'s chatId of a group message.');
	}
	return groupJid;
}

/** The query string of the group routes that read the group from it. */
export function groupQuery(params: ItemParameters) {
	return { groupJid: readGroupJid(params) };
}

/**
 * Participants and invitees: numbers with country code; the server wants each as at least
 * 10 digits, and no repeats.
 */
export function readParticipants(params: ItemParameters, name: string): string[] {
	const label = params.label(name);
	const numbers = params.recipientList(name, label);
	if (numbers.length === 0) params.fail(label, 'needs at least one number');
	numbers.forEach((number, position) => {
		const digits = number.split('@')[0];
		if (!/^\d{10,}$/.test(digits)) {
			params.fail(`${label} (entry ${position + 1})`, 'must be a phone number with country code (at least 10 digits)');
		}
	});
	return numbers;
}

/** A list the server answers whole, read with Return All / Limit like a paged one. */
export function wholeList(select: (response: unknown) => unknown[] = (response) => strictList(response)): Pagination {
	return {
		pageSize: Number.MAX_SAFE_INTEGER,
		whole: true,
		page: (request) => request,
		records: (response) => ({ records: select(response), more: false }),
	};
}

/** The optional Filters collection of a Get Many operation. */
export function filtersProperty(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options };
}

/** A filter by chat or contact JID (the server turns a bare number into its JID). */
export function jidFilterProperty(displayName: string, description: string): INodeProperties {
	return { displayName, name: 'remoteJid', type: 'string', default: '', placeholder: '5511999990000@s.whatsapp.net', description };
}

/** The JID filter's value, checked; undefined when the user left it empty. */
export function readJidFilter(params: ItemParameters, filters: IDataObject): string | undefined {
	const label = params.label('filters.remoteJid');
	const value = params.checkText(filters.remoteJid, label).trim();
	return value === '' ? undefined : params.checkRecipient(value, label, true);
}

/**
 * A list the server answers as a bare array, one page at a time: Find Contacts numbers its
 * pages (`page`, `offset` = page size), Find Chats skips records (`take`, `skip`).
 */
export function pagedList(style: 'page' | 'skip', pageSize: number): Pagination {
	return {
		pageSize,
		page: (request, page, size) => ({
			...request,
			body: { ...request.body, ...(style === 'page' ? { page, offset: size } : { take: size, skip: (page - 1) * size }) },
		}),
		// A page shorter than the page size is the last one.
		records: (response, size) => {
			const records = strictList(response);
			return { records, more: records.length >= size };
		},
	};
}

/** Phone numbers typed as text, for group participants and invitees. */
export function numbersListProperty(displayName: string, name: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		required: true,
		placeholder: '5511999990000, 5511888880000',
		description: `${description}: phone numbers with country code, separated by commas or new lines`,
	};
}

/** A number that may be left empty: then the route acts on the instance's own account. */
export function optionalNumberProperty(description: string): INodeProperties {
	return { displayName: 'Number', name: 'number', type: 'string', default: '', placeholder: '5511999990000', description, hint: PERSON_HINT };
}

/** The optional number, normalised like a recipient; undefined when left empty. */
export function readOptionalNumber(params: ItemParameters, name: string): string | undefined {
	const label = params.label(name);
	const value = params.checkText(params.raw<unknown>(name, ''), label).trim();
	return value === '' ? undefined : params.checkRecipient(value, label);
}

/** A bare number as the JID the server stores a chat under, for routes that compare the JID exactly. */
export function chatJidOf(recipient: string): string {
	return recipient.includes('@') ? recipient : `${recipient}@s.whatsapp.net`;
}
