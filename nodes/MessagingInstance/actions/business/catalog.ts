import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { optionalNumberProperty, readOptionalNumber, returnAllProperties } from '../fields';
import type { ItemParameters } from '../parameters';
import type { Operation } from '../types';

/**
 * The catalog routes read the list themselves (the catalog in up to five pages of the asked
 * size, collections at most 20) and answer it whole, inside one object: one output item per
 * product or collection, cut to Limit here. A failed read — not a business account, or no
 * catalog — is a 200 with `isBusiness: false`, and says so as an error.
 */
export function catalogProperties(): INodeProperties[] {
	return [optionalNumberProperty('Whose catalog to read; empty: this instance\'s own business account'), ...returnAllProperties()];
}

/** The limit of the item: undefined with Return All. */
export function catalogLimit(params: ItemParameters): number | undefined {
	return params.flag('returnAll') ? undefined : params.number('limit', { min: 1, integer: true });
}

export function catalogBody(params: ItemParameters, pageLimit: (limit: number) => number): IDataObject {
	const number = readOptionalNumber(params, 'number');
	const limit = catalogLimit(params);
	return { ...(number !== undefined ? { number } : {}), ...(limit !== undefined ? { limit: pageLimit(limit) } : {}) };
}

export function catalogItems(field: string, what: string): NonNullable<Operation['toItems']> {
	return (response, params) => {
		const answer = response && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {};
		const list = answer[field];
		if (answer.isBusiness === false || !Array.isArray(list)) {
			return params.fail(
				params.label('number'),
				`has no ${what} the server could read (${answer.numberExists === false ? 'not on WhatsApp' : 'not a WhatsApp Business account, or its catalog is empty or hidden'})`,
				'Catalogs belong to WhatsApp Business accounts; the server reads them through a Baileys instance.',
			);
		}
		const records = list.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object' && !Array.isArray(entry));
		const limit = catalogLimit(params);
		return limit === undefined ? records : records.slice(0, limit);
	};
}
