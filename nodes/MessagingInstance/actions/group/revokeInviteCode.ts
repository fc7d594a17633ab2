import { groupRoute } from './route';

export const revokeInviteCode = groupRoute({
	value: 'revokeInviteCode',
	name: 'Revoke Invite Code',
	action: 'Revoke the invite link of a group',
	description: 'Make the current invite link stop working and get a new one',
	method: 'POST',
	path: '/group/revokeInviteCode',
});
