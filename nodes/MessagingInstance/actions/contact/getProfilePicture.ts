import { contactLookup } from './lookup';

export const getProfilePicture = contactLookup({
	value: 'getProfilePicture',
	name: 'Get Profile Picture',
	action: 'Get a contact\'s profile picture URL',
	description: 'Get the address of a number\'s profile picture',
	path: '/chat/fetchProfilePictureUrl',
	whose: 'Whose picture to get',
});
