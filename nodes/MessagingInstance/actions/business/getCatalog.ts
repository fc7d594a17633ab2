import type { Operation } from '../types';
import { catalogBody, catalogItems, catalogProperties } from './catalog';

export const getCatalog: Operation = {
	resource: 'business',
	value: 'getCatalog',
	name: 'Get Catalog',
	action: 'Get the products of a catalog',
	description: 'List the products of a WhatsApp Business catalog, one item each',
	v2Only: true,
	properties: catalogProperties(),
	path: '/business/getCatalog',
	// The server reads up to five pages of `limit` products; without it, pages of 10.
	buildBody: (params) => catalogBody(params, (limit) => limit),
	toItems: catalogItems('catalog', 'catalog'),
};
