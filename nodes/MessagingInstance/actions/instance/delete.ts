import { instanceRoute } from './simple';

export const deleteInstance = instanceRoute({
	value: 'delete',
	name: 'Delete',
	action: 'Delete an instance',
	description: 'Delete the instance from the server (logging it out first when connected)',
	method: 'DELETE',
	path: '/instance/delete',
});
