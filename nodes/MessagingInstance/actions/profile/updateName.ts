import type { Operation } from '../types';

export const updateProfileName: Operation = {
	resource: 'profile',
	value: 'updateName',
	name: 'Update Name',
	action: 'Change the profile name',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Change the name this account shows to others (its push name)',
	v2Only: true,
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Acme Support',
			description: 'The new profile name',
		},
	],
	path: '/chat/updateProfileName',
	buildBody: (params) => ({ name: params.text('name') }),
};
