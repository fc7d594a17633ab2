import type { Operation } from '../types';

export const getSettings: Operation = {
	resource: 'settings',
	value: 'get',
	name: 'Get',
	action: 'Get the instance settings',
	description: 'Read how the instance behaves: calls, groups, presence, receipts, history',
	v2Only: true,
	method: 'GET',
	properties: [],
	path: '/settings/find',
};
