import { groupRoute } from './route';

export const updateDescription = groupRoute({
	value: 'updateDescription',
	name: 'Update Description',
	action: 'Change the description of a group',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Change the text under the group\'s name',
	method: 'POST',
	path: '/group/updateGroupDescription',
	properties: [
		{ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 3 }, default: '', required: true, description: 'The group\'s new description' },
	],
	body: (params) => ({ description: params.text('description') }),
});
