import type { Operation } from '../types';

export const getPrivacy: Operation = {
	resource: 'profile',
	value: 'getPrivacy',
	name: 'Get Privacy',
	action: 'Get the privacy settings',
	description: 'Get who sees this account\'s last seen, online, picture and status, read receipts, and who may add it to groups',
	v2Only: true,
	properties: [],
	method: 'GET',
	path: '/chat/fetchPrivacySettings',
};
