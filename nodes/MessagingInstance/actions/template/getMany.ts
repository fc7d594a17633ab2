import { returnAllProperties } from '../fields';
import { ROUTES, templatesIn } from '../../../shared/routes';
import type { Operation } from '../types';

export const getManyTemplates: Operation = {
	resource: 'template',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many message templates',
	description: 'List the instance\'s message templates at Meta with their status (Cloud API instances only; Meta\'s first page)',
	v2Only: true,
	cloudApiOnly: true,
	properties: returnAllProperties(),
	...ROUTES.listTemplates,
	toItems: (response, params) => {
		const templates = templatesIn(response);
		if (templates === undefined) {
			return params.fail('Instance', 'got no template list: Meta refused the server\'s request', 'Check the Cloud API instance\'s business ID and Meta token on the server.');
		}
		return params.flag('returnAll') ? templates : templates.slice(0, params.number('limit', { min: 1, integer: true }));
	},
};
