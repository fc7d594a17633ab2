import { PERSON_HINT, recipientProperty } from '../fields';
import type { Operation } from '../types';

export const updateBlock: Operation = {
	resource: 'contact',
	value: 'updateBlock',
	name: 'Block or Unblock',
	action: 'Block or unblock a contact',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Block a number, or unblock it',
	v2Only: true,
	properties: [
		recipientProperty('Who to block or unblock', PERSON_HINT),
		{
			displayName: 'Action',
			name: 'status',
			type: 'options',
			default: 'block',
			options: [
				{ name: 'Block', value: 'block' },
				{ name: 'Unblock', value: 'unblock' },
			],
		},
	],
	path: '/chat/updateBlockStatus',
	buildBody: (params) => {
		const status = params.text('status');
		if (status !== 'block' && status !== 'unblock') params.fail(params.label('status'), 'must be block or unblock');
		return { number: params.recipient('number'), status };
	},
};
