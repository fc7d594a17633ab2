import type { Operation } from '../types';

export const getChatwoot: Operation = {
	resource: 'chatwoot',
	value: 'get',
	name: 'Get',
	action: 'Get the Chatwoot integration',
	description: 'Get how the instance is connected to Chatwoot (its token is never output)',
	v2Only: true,
	properties: [],
	method: 'GET',
	path: '/chatwoot/find',
};
