import { inviteRoute } from './invite';

export const getInviteInfo = inviteRoute({
	value: 'getInviteInfo',
	name: 'Get Invite Info',
	action: 'Get the group of an invite',
	description: 'Get the group an invite code or link leads to (subject, size, owner) without joining it',
	path: '/group/inviteInfo',
});
