import { returnAllProperties } from '../fields';
import type { Operation } from '../types';

export const getManyContacts: Operation = {
	resource: 'contact',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many contacts',
	description: 'List the contacts the instance knows, with their names and pictures',
	v2Only: true,
	properties: [
		...returnAllProperties(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Contact (Remote JID)',
					name: 'remoteJid',
					type: 'string',
					default: '',
					placeholder: '5511999990000@s.whatsapp.net',
					description: 'Only this contact (a number is turned into its JID by the server)',
				},
			],
		},
	],
	path: '/chat/findContacts',
	buildBody: (params) => {
		const filters = params.collection('filters', 'Filters');
		const remoteJid = params.checkText(filters.remoteJid, 'Filters: Contact (Remote JID)').trim();
		return { where: remoteJid !== '' ? { remoteJid: params.checkRecipient(remoteJid, 'Filters: Contact (Remote JID)', true) } : {} };
	},
	// Find Contacts pages with page/offset like Find Messages, but answers a bare list.
	pagination: {
		pageSize: 100,
		page: (request, page, pageSize) => ({ ...request, body: { ...request.body, page, offset: pageSize } }),
		records: (response) => {
			const records = Array.isArray(response) ? response : [];
			return { records, more: records.length > 0 };
		},
	},
};
