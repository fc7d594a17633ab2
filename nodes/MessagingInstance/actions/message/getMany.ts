import type { IDataObject } from 'n8n-workflow';

import { filtersProperty, jidFilterProperty, readJidFilter, returnAllProperties } from '../fields';
import { countedPage } from '../pages';
import type { Operation } from '../types';

/** What Find Messages answers: one page of records, and how many pages there are. */
interface MessagePage {
	messages?: { pages?: unknown; currentPage?: unknown; records?: unknown };
}

export const getManyMessages: Operation = {
	resource: 'message',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many messages',
	description: 'Read the message history the server keeps, newest first: of one chat or of all',
	v2Only: true,
	properties: [
		...returnAllProperties(),
		filtersProperty([
			jidFilterProperty('Chat (Remote JID)', 'Only messages of this chat (the trigger outputs it as chatId)'),
			{
				displayName: 'Only Sent by Me',
				name: 'fromMe',
				type: 'boolean',
				default: true,
				description: 'Whether to return only the messages this instance sent (servers cannot filter for received ones only)',
			},
			{
				displayName: 'Message ID',
				name: 'messageId',
				type: 'string',
				default: '',
				description: 'Only the message with this ID',
			},
			{
				displayName: 'Message Type',
				name: 'messageType',
				type: 'string',
				default: '',
				placeholder: 'conversation',
				description: 'Only messages of this type, e.g. conversation, imageMessage, audioMessage',
			},
			{
				displayName: 'Sent After',
				name: 'after',
				type: 'dateTime',
				default: '',
				description: 'Only messages sent at or after this time (needs Sent Before too)',
			},
			{
				displayName: 'Sent Before',
				name: 'before',
				type: 'dateTime',
				default: '',
				description: 'Only messages sent at or before this time (needs Sent After too)',
			},
		]),
	],
	path: '/chat/findMessages',
	buildBody: (params) => {
		const filters = params.collection('filters');
		const key: IDataObject = {};
		const where: IDataObject = {};
		const remoteJid = readJidFilter(params, filters);
		// Servers store a message from a contact known by LID under Baileys' key: the LID in
		// remoteJid, the phone JID in remoteJidAlt. 2.3.7 and later match either field (an OR
		// of the two filters), so the chat's phone JID finds the whole conversation there; 2.3.6
		// also requires remoteJid alone, so the second filter changes nothing on it.
		if (remoteJid) {
			key.remoteJid = remoteJid;
			key.remoteJidAlt = remoteJid;
		}
		// The server filters on fromMe only when it is true.
		if (filters.fromMe !== undefined && params.checkFlag(filters.fromMe, params.label('filters.fromMe'))) key.fromMe = true;
		const id = params.checkText(filters.messageId, params.label('filters.messageId')).trim();
		if (id !== '') key.id = id;
		if (Object.keys(key).length > 0) where.key = key;
		const messageType = params.checkText(filters.messageType, params.label('filters.messageType')).trim();
		if (messageType !== '') where.messageType = messageType;
		const after = params.checkText(filters.after, params.label('filters.after')).trim();
		const before = params.checkText(filters.before, params.label('filters.before')).trim();
		if (after !== '' || before !== '') {
			// The server applies the time filter only with both ends.
			if (after === '' || before === '') params.fail(params.label(after === '' ? 'filters.after' : 'filters.before'), 'is required when the other end of the time range is set');
			for (const [value, name] of [[after, 'filters.after'], [before, 'filters.before']]) {
				if (value.length > 64 || Number.isNaN(Date.parse(value))) params.fail(params.label(name), 'must be a date and time, e.g. 2026-11-23T10:00:00Z');
			}
			where.messageTimestamp = { gte: after, lte: before };
		}
		return { where };
	},
	pagination: {
		pageSize: 50,
		page: (request, page, pageSize) => ({ ...request, body: { ...request.body, page, offset: pageSize } }),
		records: (response) => countedPage((response as MessagePage | null)?.messages),
	},
};
