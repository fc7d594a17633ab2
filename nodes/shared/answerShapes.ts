import type { IDataObject } from 'n8n-workflow';

/**
 * Answers read strictly, for every node: a list answer is read strictly — `null`, `{}` or a
 * text where a list is expected is a broken answer (a proxy, another route, a server error
 * answered as 200), never "no records". An empty object inside a list is a record and is
 * kept; a text or number inside a list of records is not one, and is an error rather than
 * dropped: the user would get fewer items than the server has, with no word of why.
 */

/** What a list answer was, where a list was expected: thrown by the readers below, named by the router. */
export class ListShapeError extends Error {
	constructor(readonly problem: string) {
		super(problem);
		this.name = 'ListShapeError';
	}
}

/** What a value is, in words. */
function shapeOf(value: unknown): string {
	if (value === undefined) return 'an empty answer';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? `an object (${Object.keys(value).slice(0, 5).join(', ') || 'no fields'})` : `a ${typeof value}`;
}

/** The list itself; anything else is a ListShapeError. */
export function strictList(value: unknown, where = ''): unknown[] {
	if (Array.isArray(value)) return value;
	throw new ListShapeError(`expected a list${where} and got ${shapeOf(value)}`);
}

/** Every entry of a list of records is a record (an object, `{}` included); else a ListShapeError naming the first that is not. */
export function strictRecords(list: unknown[]): IDataObject[] {
	const position = list.findIndex((entry) => entry === null || typeof entry !== 'object' || Array.isArray(entry));
	if (position >= 0) throw new ListShapeError(`got a list whose entry ${position + 1} is ${shapeOf(list[position])}, not a record`);
	return list as IDataObject[];
}


/** A page that counts itself (`{records, pages, currentPage}`): its records, whether more follow, its number. */
export function countedPage(answer: { records?: unknown; pages?: unknown; currentPage?: unknown } | null | undefined): {
	records: unknown[];
	more: boolean;
	page?: number;
} {
	if (answer === null || typeof answer !== 'object') strictList(answer, ' of records');
	const records = strictList(answer?.records, ' of records');
	const pages = Number(answer?.pages);
	const current = Number(answer?.currentPage);
	return {
		records,
		more: Number.isFinite(pages) && Number.isFinite(current) && current < pages,
		...(Number.isFinite(current) ? { page: current } : {}),
	};
}
