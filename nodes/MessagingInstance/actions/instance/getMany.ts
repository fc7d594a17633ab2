import { ROUTES } from '../../../shared/routes';
import { returnAllProperties, wholeList } from '../fields';
import type { Operation } from '../types';

export const getManyInstances: Operation = {
	resource: 'instance',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many instances',
	description: 'List the instances of the server (with an instance token as API key: that instance only)',
	v2Only: true,
	properties: [
		...returnAllProperties(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{ displayName: 'Instance Name', name: 'instanceName', type: 'string', default: '', description: 'Only the instance with this name' },
			],
		},
	],
	...ROUTES.listInstances,
	buildQuery: (params) => {
		const name = params.checkText(params.collection('filters').instanceName, params.label('filters.instanceName')).trim();
		return name !== '' ? { instanceName: name } : {};
	},
	pagination: wholeList(),
};
