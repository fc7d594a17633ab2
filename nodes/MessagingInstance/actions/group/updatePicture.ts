import { checkKind, mediaSourceProperties, mediaValue, readMedia } from '../message/media';
import { groupRoute } from './route';

export const updatePicture = groupRoute({
	value: 'updatePicture',
	name: 'Update Picture',
	action: 'Change the picture of a group',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Set the group\'s picture from binary data, a URL or base64',
	method: 'POST',
	path: '/group/updateGroupPicture',
	properties: mediaSourceProperties('picture'),
	body: async (params) => {
		const file = await readMedia(params, {});
		checkKind(params, 'image', file, 'File');
		return { image: mediaValue(file) };
	},
});
