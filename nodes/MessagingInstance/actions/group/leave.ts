import { groupRoute } from './route';

export const leaveGroup = groupRoute({
	value: 'leave',
	name: 'Leave',
	action: 'Leave a group',
	description: 'Leave the group with this instance\'s account',
	method: 'DELETE',
	path: '/group/leaveGroup',
});
