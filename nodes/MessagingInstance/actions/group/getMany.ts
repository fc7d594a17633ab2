import { ROUTES } from '../../../shared/routes';
import { returnAllProperties, wholeList } from '../fields';
import type { Operation } from '../types';

export const getManyGroups: Operation = {
	resource: 'group',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many groups',
	description: 'List the groups the account is in; one item per group',
	v2Only: true,
	properties: [
		...returnAllProperties(),
		{
			displayName: 'Include Participants',
			name: 'getParticipants',
			type: 'boolean',
			default: false,
			description: 'Whether each group comes with its participants (slower for many groups)',
		},
	],
	...ROUTES.listGroups,
	// The server requires the flag in the query, as the text "true" or "false".
	buildQuery: (params) => ({ getParticipants: String(params.flag('getParticipants')) }),
	pagination: wholeList(),
};
