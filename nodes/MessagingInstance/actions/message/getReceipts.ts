import type { IDataObject } from 'n8n-workflow';

import { chatJidOf, filtersProperty, jidFilterProperty, pagedList, readJidFilter, returnAllProperties } from '../fields';
import type { Operation } from '../types';

export const getReceipts: Operation = {
	resource: 'message',
	value: 'getReceipts',
	name: 'Get Receipts',
	action: 'Get message receipts',
	description: 'List the delivery and read receipts the instance stored (status updates of messages, not Status posts)',
	v2Only: true,
	properties: [
		...returnAllProperties(),
		filtersProperty([
			jidFilterProperty('Chat (Remote JID)', 'Only receipts of this chat'),
			{ displayName: 'Message ID', name: 'messageId', type: 'string', default: '', placeholder: '3EB0C431C26A1916E07A', description: 'Only receipts of this message (its key.ID)' },
		]),
	],
	path: '/chat/findStatusMessage',
	buildBody: (params) => {
		const filters = params.collection('filters');
		const where: IDataObject = {};
		const remoteJid = readJidFilter(params, filters);
		// The server compares the JID exactly: a bare number is sent as its JID.
		if (remoteJid) where.remoteJid = chatJidOf(remoteJid);
		const id = params.checkText(filters.messageId, params.label('filters.messageId')).trim();
		if (id !== '') where.id = id;
		return { where };
	},
	pagination: pagedList('page', 50),
};
