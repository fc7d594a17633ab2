import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';

export const getProxy: Operation = {
	resource: 'proxy',
	value: 'get',
	name: 'Get',
	action: 'Get the instance proxy',
	description: 'Get the proxy the instance connects through (its password is never output)',
	v2Only: true,
	properties: [],
	method: 'GET',
	path: '/proxy/find',
	// The server answers 200 with null when the instance has no proxy.
	toItems: (response) => [response && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : { enabled: false }],
};
