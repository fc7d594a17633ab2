import type { IDataObject } from 'n8n-workflow';

import type { ItemParameters } from './parameters';
import type { StoredRead } from './requests';
import type { BuiltRequest, Operation } from './types';

/**
 * The request of an operation that reads before it writes (`update.rule` `readModifyWrite`):
 * the stored object, read with the item's instance through the router's one door (a record, or
 * the item fails before anything is written), merged with what the item sets. Any other
 * request goes as it was built.
 */
export async function withStoredObject(
	operation: Operation,
	params: ItemParameters,
	request: BuiltRequest,
	read: (declared: StoredRead, route: string) => Promise<unknown>,
): Promise<BuiltRequest> {
	const update = operation.update;
	if (update?.rule !== 'readModifyWrite' || request.body === undefined) return request;
	const stored = (await read(update.read, update.read.route(params))) as IDataObject;
	return { ...request, body: update.merge(stored, request.body, params) };
}
