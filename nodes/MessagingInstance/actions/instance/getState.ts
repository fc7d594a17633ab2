import { instanceRoute } from './simple';

export const getState = instanceRoute({
	value: 'getState',
	name: 'Get State',
	action: 'Get the connection state of an instance',
	description: 'Whether the instance is connected: open, connecting or close',
	method: 'GET',
	path: '/instance/connectionState',
});
