import { filtersProperty, jidFilterProperty, pagedList, readJidFilter, returnAllProperties } from '../fields';
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
		filtersProperty([jidFilterProperty('Chat (Remote JID)', 'Only this chat (a number is turned into its JID by the server)')]),
	],
	path: '/chat/findChats',
	buildBody: (params) => {
		const remoteJid = readJidFilter(params, params.collection('filters'));
		return { where: remoteJid ? { remoteJid } : {} };
	},
	pagination: pagedList('skip', 50),
};
