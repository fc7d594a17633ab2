import type { Operation } from '../types';

export const setInstancePresence: Operation = {
	resource: 'instance',
	value: 'setPresence',
	name: 'Set Presence',
	action: 'Set the presence of an instance',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Show the account as online or offline to everyone',
	v2Only: true,
	properties: [
		{
			displayName: 'Presence',
			name: 'presence',
			type: 'options',
			default: 'available',
			options: [
				{ name: 'Available', value: 'available', description: 'Online' },
				{ name: 'Unavailable', value: 'unavailable', description: 'Offline' },
			],
		},
	],
	path: '/instance/setPresence',
	buildBody: (params) => {
		const presence = params.text('presence');
		if (presence !== 'available' && presence !== 'unavailable') params.fail(params.label('presence'), 'must be available or unavailable');
		return { presence };
	},
};
