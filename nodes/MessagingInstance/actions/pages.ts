import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { ListShapeError, strictRecords } from '../../shared/answerShapes';
import type { ItemParameters } from './parameters';
import type { BuiltRequest, Pagination } from './types';

// The strict readers are shared by every node; the action's modules take them from here too.
export { countedPage, ListShapeError, strictList, strictRecords } from '../../shared/answerShapes';

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
