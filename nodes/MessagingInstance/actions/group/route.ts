import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import { groupJidProperty, groupQuery } from '../fields';
import type { ItemParameters } from '../parameters';
import type { Operation } from '../types';

/**
 * A route of one group: the group goes in the query string (`?groupJid=`), where every
 * group route of the server reads it; POST routes add their own body.
 */
export function groupRoute(
	spec: Pick<Operation, 'value' | 'name' | 'action' | 'description' | 'toItems' | 'pagination' | 'update'> & {
		method: IHttpRequestMethods;
		path: string;
		properties?: INodeProperties[];
		body?: (params: ItemParameters) => IDataObject | Promise<IDataObject>;
	},
): Operation {
	const { body, properties = [], ...rest } = spec;
	return {
		resource: 'group',
		v2Only: true,
		...rest,
		properties: [groupJidProperty(), ...properties],
		buildQuery: (params) => groupQuery(params),
		...(body ? { buildBody: (params: ItemParameters) => body(params) } : {}),
	};
}
