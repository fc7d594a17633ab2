import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Dialect } from '../../shared/dialect';
import type { ItemParameters } from './parameters';

export type Resource = 'message' | 'chat' | 'settings' | 'webhook';

/**
 * An operation is its description plus how its body is built. The router owns the item
 * loop, the request and the errors.
 */
export interface Operation {
	resource: Resource;
	/** The stored `operation` value; fixed by the package's public interface. */
	value: string;
	name: string;
	action: string;
	description: string;
	/** Parameters shown for this operation, without displayOptions (the registry adds them). */
	properties: INodeProperties[];
	/** Route without the instance, e.g. `/message/sendText`. */
	route(dialect: Dialect): string;
	/** Reads and checks the item's parameters and returns the body; throws before any request. */
	buildBody(params: ItemParameters, dialect: Dialect): IDataObject;
	/** Turns the response into output items (default: the response as it came). */
	toItems?(response: unknown): IDataObject[];
}
