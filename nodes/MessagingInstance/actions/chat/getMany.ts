import { returnAllProperties } from '../fields';
import type { Operation } from '../types';

export const getManyChats: Operation = {
	resource: 'chat',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many chats',
	description: 'List the chats of the instance, most recent first, each with its last message',
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
					displayName: 'Chat (Remote JID)',
					name: 'remoteJid',
					type: 'string',
					default: '',
					placeholder: '5511999990000@s.whatsapp.net',
					description: 'Only this chat (a number is turned into its JID by the server)',
				},
			],
		},
	],
	path: '/chat/findChats',
	buildBody: (params) => {
		const filters = params.collection('filters', 'Filters');
		const remoteJid = params.checkText(filters.remoteJid, 'Filters: Chat (Remote JID)').trim();
		return { where: remoteJid !== '' ? { remoteJid: params.checkRecipient(remoteJid, 'Filters: Chat (Remote JID)', true) } : {} };
	},
	// Find Chats pages with take/skip and answers a bare list.
	pagination: {
		pageSize: 50,
		page: (request, page, pageSize) => ({ ...request, body: { ...request.body, take: pageSize, skip: (page - 1) * pageSize } }),
		records: (response) => {
			const records = Array.isArray(response) ? response : [];
			return { records, more: records.length > 0 };
		},
	},
};
