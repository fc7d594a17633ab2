import type { IHttpRequestMethods } from 'n8n-workflow';

import type { Operation } from '../types';

/** A route of one instance that takes nothing but the instance's name. */
export function instanceRoute(
	spec: Pick<Operation, 'value' | 'name' | 'action' | 'description' | 'errorInOkResponse'> & { method: IHttpRequestMethods; path: string },
): Operation {
	return { resource: 'instance', v2Only: true, properties: [], ...spec };
}
