import { groupRoute } from './route';

export const getGroup = groupRoute({
	value: 'get',
	name: 'Get',
	action: 'Get a group',
	description: 'Get a group\'s subject, description, owner, settings and participants',
	method: 'GET',
	path: '/group/findGroupInfos',
});
