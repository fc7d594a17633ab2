import { instanceRoute } from './simple';

export const restartInstance = instanceRoute({
	value: 'restart',
	name: 'Restart',
	action: 'Restart an instance',
	description: 'Reconnect a connected (or connecting) instance',
	method: 'POST',
	path: '/instance/restart',
	errorInOkResponse: true,
});
