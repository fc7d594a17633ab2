import { groupRoute } from './route';

export const updateSubject = groupRoute({
	value: 'updateSubject',
	name: 'Update Subject',
	action: 'Rename a group',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Change the group\'s subject (its name)',
	method: 'POST',
	path: '/group/updateGroupSubject',
	properties: [{ displayName: 'Subject', name: 'subject', type: 'string', default: '', required: true, description: 'The group\'s new name' }],
	body: (params) => ({ subject: params.text('subject') }),
});
