import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { inputError } from '../../shared/errors';
import { apiRequest, openConnection } from '../../shared/transport';
import { findOperation } from './index';
import { ItemParameters, ParameterSource } from './parameters';
import { FileOutput } from './fileOutput';
import type { BuiltRequest, Operation } from './types';

/** How long the server may hold the request on purpose: `delay` at the top or in `options`. */
function requestedWaitMs(body: IDataObject | undefined): number {
	const nested = body?.options as IDataObject | undefined;
	const delay = body?.delay ?? nested?.delay;
	return typeof delay === 'number' ? delay : 0;
}

function asItemJson(response: unknown): IDataObject {
	if (response === undefined || response === null) return { success: true };
	if (typeof response === 'object' && !Array.isArray(response)) return response as IDataObject;
	return { data: response as JsonObject };
}

/** No list is read past this many pages, whatever the server says: work is bounded. */
const MAX_PAGES = 1_000;

/** How deep secret fields are looked for in an output record. */
const SECRET_FIELD_DEPTH = 8;

/** A copy of an output record without the fields that carry secrets, at any depth (bounded). */
function withoutSecretFields(operation: Operation, json: IDataObject): IDataObject {
	const names = operation.secretFields;
	if (!names) return json;
	const strip = (value: unknown, depth: number): unknown => {
		if (depth > SECRET_FIELD_DEPTH || value === null || typeof value !== 'object') return value;
		if (Array.isArray(value)) return value.map((entry) => strip(entry, depth + 1));
		const copy: IDataObject = {};
		for (const [key, entry] of Object.entries(value)) {
			if (!names.includes(key)) copy[key] = strip(entry, depth + 1) as IDataObject;
		}
		return copy;
	};
	return strip(json, 0) as IDataObject;
}

/** A route that answered 200 with `{ error: true }` failed: its message is the server's. */
function failedDespiteOk(operation: Operation, response: unknown): string | undefined {
	if (!operation.errorInOkResponse || !response || typeof response !== 'object') return undefined;
	const answer = response as { error?: unknown; message?: unknown };
	if (answer.error !== true) return undefined;
	return typeof answer.message === 'string' && answer.message !== '' ? answer.message : 'The server reported an error';
}

/**
 * Reads a paged list: every page with Return All, else pages until Limit records. A page that
 * is not a list, or is empty, ends the reading.
 */
async function readPages(
	pagination: NonNullable<Operation['pagination']>,
	params: ItemParameters,
	request: BuiltRequest,
	send: (request: BuiltRequest) => Promise<unknown>,
): Promise<IDataObject[]> {
	const returnAll = params.flag('returnAll', 'Return All');
	const limit = returnAll ? Infinity : params.number('limit', 'Limit', { min: 1, integer: true });
	const records: IDataObject[] = [];
	// One page size for every page: the server numbers pages by it.
	const pageSize = Math.min(pagination.pageSize, limit);
	for (let page = 1; page <= MAX_PAGES && records.length < limit; page++) {
		const { records: found, more } = pagination.records(await send(pagination.page(request, page, pageSize)), pageSize);
		for (const record of found) {
			if (record && typeof record === 'object' && !Array.isArray(record)) records.push(record as IDataObject);
		}
		if (!more || found.length === 0) break;
	}
	return records.slice(0, limit);
}

/**
 * The one item loop: each input item runs the operation once, its outputs are paired with it,
 * and with Continue On Fail a failed item becomes an error item while the others go on.
 */
export async function runOperation(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not known`);
	}
	const connection = await openConnection(this);
	const dialect = connection.dialect;
	const route = typeof operation.path === 'function' ? operation.path(dialect) : operation.path;
	const parameters = new ParameterSource(this);
	const output: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			if (operation.v2Only && !dialect.servesV2Routes) {
				throw inputError(
					this.getNode(),
					itemIndex,
					'Operation',
					`${operation.name} needs a v2.x server`,
					'Set the credential\'s Server Dialect to "Server v2.x" if the server runs version 2; servers of the documented interface do not have this route.',
				);
			}
			const params = new ItemParameters(parameters, itemIndex);
			const instance = operation.scope === 'server' ? undefined : params.instanceName();
			const request: BuiltRequest = {
				body: await operation.buildBody?.(params, dialect),
				query: operation.buildQuery?.(params, dialect),
			};
			const file = operation.binaryOutput ? new FileOutput(this, params, itemIndex, operation.binaryOutput) : undefined;
			const send = async (built: BuiltRequest) => {
				const response = await apiRequest(
					this,
					connection,
					{
						method: operation.method ?? 'POST',
						route,
						instance,
						body: built.body,
						qs: built.query,
						extraWaitMs: requestedWaitMs(built.body),
						secrets: operation.secretsOf?.(built.body),
						readAnswer: file?.read,
					},
					itemIndex,
				);
				const failure = failedDespiteOk(operation, response);
				if (failure) params.fail('Operation', `failed on the server: ${failure}`);
				file?.checkAnswer();
				return response;
			};
			let results: IDataObject[];
			if (operation.pagination) {
				results = await readPages(operation.pagination, params, request, send);
			} else {
				const response = await send(request);
				results = operation.toItems ? operation.toItems(response, params) : [asItemJson(response)];
			}
			for (const record of results) {
				const json = withoutSecretFields(operation, record);
				const item = file ? await file.itemOf(json) : { json };
				output.push({ ...item, pairedItem: { item: itemIndex } });
			}
		} catch (caught) {
			const error =
				caught instanceof NodeOperationError || (caught as { name?: string }).name === 'NodeApiError'
					? (caught as NodeOperationError)
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
			if (this.continueOnFail()) {
				const httpCode = (error as { httpCode?: string | null }).httpCode;
				output.push({
					json: {
						error: error.message,
						...(error.description ? { description: error.description } : {}),
						...(httpCode ? { httpCode } : {}),
					},
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw error;
		}
	}
	return [output];
}
