import type { Operation } from '../types';

export const removeProfilePicture: Operation = {
	resource: 'profile',
	value: 'removePicture',
	name: 'Remove Picture',
	action: 'Remove the profile picture',
	description: 'Remove this account\'s profile picture',
	v2Only: true,
	properties: [],
	method: 'DELETE',
	path: '/chat/removeProfilePicture',
};
