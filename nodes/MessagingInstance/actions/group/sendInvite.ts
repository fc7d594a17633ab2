import { groupJidProperty, numbersListProperty, readGroupJid, readParticipants } from '../fields';
import type { Operation } from '../types';

export const sendInvite: Operation = {
	resource: 'group',
	value: 'sendInvite',
	name: 'Send Invite',
	action: 'Send a group invite link',
	description: 'Send the group\'s invite link, with a text, to one or more numbers',
	v2Only: true,
	properties: [
		groupJidProperty(),
		numbersListProperty('Numbers', 'numbers', 'Who receives the invite'),
		{
			displayName: 'Text',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: 'Join our group',
			required: true,
			description: 'Text sent with the link',
		},
	],
	path: '/group/sendInvite',
	// This route reads the group from the body only, as given: the node sends it with @g.us.
	buildBody: (params) => {
		const groupJid = readGroupJid(params);
		return {
			groupJid: groupJid.endsWith('@g.us') ? groupJid : `${groupJid}@g.us`,
			description: params.text('description'),
			numbers: readParticipants(params, 'numbers'),
		};
	},
};
