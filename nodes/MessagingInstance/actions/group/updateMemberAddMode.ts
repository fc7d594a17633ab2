import { EVOLUTION_2_4 } from '../../../shared/serverVersion';
import { groupQuery } from '../fields';
import { groupRoute } from './route';

const MODES = ['admin_add', 'all_member_add'];

export const updateMemberAddMode = {
	...groupRoute({
		value: 'updateMemberAddMode',
		name: 'Update Member Add Mode',
		action: 'Choose who can add members to a group',
		update: { rule: 'sendOnlyWhatIsSet' },
		description: 'Choose whether only admins or all members can add people to the group (Evolution API 2.4)',
		method: 'POST',
		path: '/group/updateMemberAddMode',
		properties: [
			{
				displayName: 'Who Can Add Members',
				name: 'mode',
				type: 'options',
				default: 'admin_add',
				options: [
					{ name: 'Only Admins', value: 'admin_add' },
					{ name: 'All Members', value: 'all_member_add' },
				],
			},
		],
		// The group goes in the body too: the route's schema requires it there, and the server
		// copies it from the query only when the body has none.
		body: (params) => {
			const mode = params.text('mode');
			if (!MODES.includes(mode)) params.fail(params.label('mode'), `must be one of ${MODES.join(', ')}`);
			return { ...groupQuery(params), mode };
		},
	}),
	minServerVersion: EVOLUTION_2_4,
};
