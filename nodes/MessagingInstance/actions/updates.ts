import type { IDataObject } from 'n8n-workflow';

import type { ItemParameters } from './parameters';
import type { BuiltRequest, Operation } from './types';

/**
 * The request of an operation that reads before it writes (`update.rule` `readModifyWrite`):
 * the stored object, read with the item's instance, merged with what the item sets. Any other
 * request goes as it was built.
 */
export async function withStoredObject(
	operation: Operation,
	params: ItemParameters,
	request: BuiltRequest,
	read: (route: string) => Promise<unknown>,
): Promise<BuiltRequest> {
	const update = operation.update;
	if (update?.rule !== 'readModifyWrite' || request.body === undefined) return request;
	const stored = await read(update.read(params));
	return { ...request, body: update.merge(stored, request.body, params) };
}

/** The stored object as a plain record: anything else (null, nothing, a list) is "nothing stored". */
export function storedRecord(stored: unknown): IDataObject {
	return stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? (stored as IDataObject) : {};
}
