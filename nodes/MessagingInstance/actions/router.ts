import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { apiRequest, openConnection } from '../../shared/transport';
import { findOperation } from './index';
import { ItemParameters, ParameterSource } from './parameters';

/** How long the server may hold the request on purpose: `delay` at the top or in `options`. */
function requestedWaitMs(body: IDataObject): number {
	const nested = body.options as IDataObject | undefined;
	const delay = body.delay ?? nested?.delay;
	return typeof delay === 'number' ? delay : 0;
}

function asItemJson(response: unknown): IDataObject {
	if (response === undefined || response === null) return { success: true };
	if (typeof response === 'object' && !Array.isArray(response)) return response as IDataObject;
	return { data: response as JsonObject };
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
	const route = operation.route(connection.dialect);
	const parameters = new ParameterSource(this);
	const output: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const params = new ItemParameters(parameters, itemIndex);
			const instance = params.text('instance', 'Instance').trim();
			const body = operation.buildBody(params, connection.dialect);
			const response = await apiRequest(
				this,
				connection,
				{ route, instance, body, extraWaitMs: requestedWaitMs(body) },
				itemIndex,
			);
			const results = operation.toItems ? operation.toItems(response) : [asItemJson(response)];
			for (const json of results) output.push({ json, pairedItem: { item: itemIndex } });
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
