import { checkKind, mediaSourceProperties, mediaValue, readMedia } from '../message/media';
import type { Operation } from '../types';

export const updateProfilePicture: Operation = {
	resource: 'profile',
	value: 'updatePicture',
	name: 'Update Picture',
	action: 'Change the profile picture',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Set this account\'s profile picture from binary data, a URL or base64',
	v2Only: true,
	properties: mediaSourceProperties('picture'),
	path: '/chat/updateProfilePicture',
	buildBody: async (params) => {
		const file = await readMedia(params, {});
		checkKind(params, 'image', file, 'File');
		return { picture: mediaValue(file) };
	},
};
