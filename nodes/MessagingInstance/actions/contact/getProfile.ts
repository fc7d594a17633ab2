import { PERSON_HINT } from '../fields';
import { contactLookup } from './lookup';

export const getProfile = contactLookup({
	value: 'getProfile',
	name: 'Get Profile',
	action: 'Get a contact\'s profile',
	description: 'Get the name, status, picture and business details of a number',
	path: '/chat/fetchProfile',
	whose: 'Whose profile to get',
	hint: PERSON_HINT,
});
