import type { Operation } from '../types';
import { catalogBody, catalogItems, catalogProperties } from './catalog';

/** The server reads at most this many collections, whatever it is asked for. */
const MAX_COLLECTIONS = 20;

export const getCollections: Operation = {
	resource: 'business',
	value: 'getCollections',
	name: 'Get Collections',
	action: 'Get the collections of a catalog',
	description: `List the collections of a WhatsApp Business catalog with their products, one item each (the server reads at most ${MAX_COLLECTIONS})`,
	v2Only: true,
	properties: catalogProperties(),
	path: '/business/getCollections',
	buildBody: (params) => catalogBody(params, (limit) => Math.min(limit, MAX_COLLECTIONS)),
	toItems: catalogItems('collections', 'collections'),
};
