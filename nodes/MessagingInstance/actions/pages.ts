import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import type { ItemParameters } from './parameters';
import type { BuiltRequest, Pagination } from './types';

/**
 * What Return All reads at most, whatever the server says (the README's "Security and
 * limits" lists them): a server that repeats full pages, or a list too large for one
 * execution, stops with an error that says so, never with a silently cut list.
 */
export const LIST_LIMITS = {
	/** Pages of one list. */
	pages: 1_000,
	/** Records of one list. */
	items: 100_000,
	/** Time for one list, in request timeouts of the credential. */
	requestTimeouts: 10,
} as const;

// ------------------------------------------------------------------ strict list answers
// A list answer is read strictly: `null`, `{}` or a text where a list is expected is a broken
// answer (a proxy, another route, a server error answered as 200), never "no records". An
// empty object inside a list is a record and is kept; a text or number inside a list of
// records is not one, and is an error rather than dropped: the user would get fewer items
// than the server has, with no word of why.

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

/** The router's error for a list answer of the wrong shape: the operation (its action, e.g. "Get many chatbots"), the item, what came. */
export function listShapeError(node: INode, itemIndex: number, operationAction: string, error: ListShapeError): NodeOperationError {
	return new NodeOperationError(node, `${operationAction} ${error.problem} from the server`, {
		itemIndex,
		description: 'The server answered with success but not with the list this route gives, so its records cannot be told. Check the Base URL and the dialect of the credential; a proxy or an older server may answer this route with something else.',
	});
}

const FEWER_HINT = 'Turn off Return All and set a Limit, or narrow the list with Filters.';

function listError(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(node, message, { itemIndex, description });
}

/**
 * Reads a paged list: every page with Return All, else pages until Limit records. A page that
 * is not a list is an error (ListShapeError), an empty one ends the reading; a page larger than asked, a page number the
 * server does not advance, or a list past the limits above is an error.
 */
export async function readPages(
	node: INode,
	pagination: Pagination,
	params: ItemParameters,
	request: BuiltRequest,
	send: (request: BuiltRequest) => Promise<unknown>,
	timeoutMs: number,
): Promise<IDataObject[]> {
	const returnAll = params.flag('returnAll');
	const limit = returnAll ? Infinity : params.number('limit', { min: 1, integer: true });
	const records: IDataObject[] = [];
	// One page size for every page: the server numbers pages by it.
	const pageSize = Math.min(pagination.pageSize, limit);
	const deadline = Date.now() + LIST_LIMITS.requestTimeouts * timeoutMs;
	const fail = (message: string, description: string) => listError(node, params.itemIndex, message, description);
	for (let page = 1; records.length < limit; page++) {
		if (page > LIST_LIMITS.pages) {
			throw fail(`The list has more than ${LIST_LIMITS.pages} pages; Return All stops there`, FEWER_HINT);
		}
		if (page > 1 && Date.now() > deadline) {
			throw fail(
				`Reading the list took longer than ${LIST_LIMITS.requestTimeouts} request timeouts (${(LIST_LIMITS.requestTimeouts * timeoutMs) / 1000} s); it stopped at page ${page}`,
				`${FEWER_HINT} A slow server may also need a longer Request Timeout in the credential.`,
			);
		}
		const answer = pagination.records(await send(pagination.page(request, page, pageSize)), pageSize);
		if (!pagination.whole && answer.records.length > pageSize) {
			throw fail(
				`The server answered page ${page} with ${answer.records.length} records, more than the ${pageSize} asked for`,
				'The server does not page this list as asked, so its pages cannot be counted on. Check the Base URL and the dialect of the credential.',
			);
		}
		if (answer.page !== undefined && answer.page !== page) {
			throw fail(
				`The server answered page ${answer.page} when asked for page ${page}`,
				'The server does not advance its pages, so Return All would read the same records again. Check the Base URL and the dialect of the credential.',
			);
		}
		records.push(...strictRecords(answer.records));
		if (returnAll && records.length > LIST_LIMITS.items) {
			throw fail(`The list has more than ${LIST_LIMITS.items.toLocaleString('en-US')} records; Return All stops there`, FEWER_HINT);
		}
		if (!answer.more || answer.records.length === 0) break;
	}
	return records.slice(0, limit);
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
