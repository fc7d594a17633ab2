import type { Operation } from '../types';

export const updateProfileStatus: Operation = {
	resource: 'profile',
	value: 'updateStatus',
	name: 'Update Status',
	action: 'Change the profile status',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Change the status text ("About") of this account',
	v2Only: true,
	properties: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Available 9am–6pm',
			description: 'The new "About" text. The server cannot clear it: it needs some text.',
		},
	],
	path: '/chat/updateProfileStatus',
	buildBody: (params) => ({ status: params.text('status') }),
};
