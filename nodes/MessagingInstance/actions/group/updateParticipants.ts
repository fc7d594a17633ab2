import { numbersListProperty, readParticipants } from '../fields';
import { groupRoute } from './route';

const ACTIONS = ['add', 'remove', 'promote', 'demote'];

export const updateParticipants = groupRoute({
	value: 'updateParticipants',
	name: 'Update Participants',
	action: 'Add, remove, promote or demote participants',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Add or remove people, or make them admins or not',
	method: 'POST',
	path: '/group/updateParticipant',
	properties: [
		{
			displayName: 'Action',
			name: 'action',
			type: 'options',
			default: 'add',
			options: [
				{ name: 'Add', value: 'add' },
				{ name: 'Demote From Admin', value: 'demote' },
				{ name: 'Promote to Admin', value: 'promote' },
				{ name: 'Remove', value: 'remove' },
			],
		},
		numbersListProperty('Participants', 'participants', 'Who to add, remove, promote or demote'),
	],
	body: (params) => {
		const action = params.text('action');
		if (!ACTIONS.includes(action)) params.fail(params.label('action'), `must be one of ${ACTIONS.join(', ')}`);
		return { action, participants: readParticipants(params, 'participants') };
	},
});
