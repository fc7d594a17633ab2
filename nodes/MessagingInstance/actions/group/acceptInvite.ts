import { inviteRoute } from './invite';

export const acceptInvite = inviteRoute({
	value: 'acceptInvite',
	name: 'Accept Invite',
	action: 'Join a group by invite',
	description: 'Join the group of an invite code or link with this instance\'s account',
	path: '/group/acceptInviteCode',
});
