import { filtersProperty, jidFilterProperty, pagedList, readJidFilter, returnAllProperties } from '../fields';
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
		filtersProperty([jidFilterProperty('Contact (Remote JID)', 'Only this contact (a number is turned into its JID by the server)')]),
	],
	path: '/chat/findContacts',
	buildBody: (params) => {
		const remoteJid = readJidFilter(params, params.collection('filters'));
		return { where: remoteJid ? { remoteJid } : {} };
	},
	pagination: pagedList('page', 100),
};
