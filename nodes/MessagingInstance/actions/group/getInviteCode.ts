import { groupRoute } from './route';

export const getInviteCode = groupRoute({
	value: 'getInviteCode',
	name: 'Get Invite Code',
	action: 'Get the invite link of a group',
	description: 'Get the group\'s invite code and link',
	method: 'GET',
	path: '/group/inviteCode',
});
