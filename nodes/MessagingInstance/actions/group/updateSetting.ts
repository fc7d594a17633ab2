import { groupRoute } from './route';

const SETTINGS = ['announcement', 'not_announcement', 'locked', 'unlocked'];

export const updateSetting = groupRoute({
	value: 'updateSetting',
	name: 'Update Setting',
	action: 'Change who can send or edit in a group',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Choose whether only admins can send messages or edit the group\'s info',
	method: 'POST',
	path: '/group/updateSetting',
	properties: [
		{
			displayName: 'Setting',
			name: 'action',
			type: 'options',
			default: 'announcement',
			options: [
				{ name: 'Everyone Can Edit Info', value: 'unlocked' },
				{ name: 'Everyone Can Send', value: 'not_announcement' },
				{ name: 'Only Admins Can Edit Info', value: 'locked' },
				{ name: 'Only Admins Can Send', value: 'announcement' },
			],
		},
	],
	body: (params) => {
		const action = params.text('action');
		if (!SETTINGS.includes(action)) params.fail(params.label('action'), `must be one of ${SETTINGS.join(', ')}`);
		return { action };
	},
});
