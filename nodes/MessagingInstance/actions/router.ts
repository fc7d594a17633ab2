import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { inputError } from '../../shared/errors';
import { apiRequest, openConnection } from '../../shared/transport';
import { explainMissingRoute, isOlder, serverVersionOf, versionOrNewer } from '../../shared/serverVersion';
import { dialectOf, type Dialect } from '../../shared/dialect';
import { findOperation, labelsOf } from './index';
import { readPages } from './pages';
import { ItemParameters, ParameterSource } from './parameters';
import type { BinaryOutput, BuiltRequest, Operation } from './types';

/** The operation's request for one item: its whole request, or its body and query. */
async function buildRequest(operation: Operation, params: ItemParameters, dialect: Dialect): Promise<BuiltRequest> {
	if (operation.buildRequest) return await operation.buildRequest(params, dialect);
	return { body: await operation.buildBody?.(params, dialect), query: operation.buildQuery?.(params, dialect) };
}

function asItemJson(response: unknown): IDataObject {
	if (response === undefined || response === null) return { success: true };
	if (typeof response === 'object' && !Array.isArray(response)) return response as IDataObject;
	return { data: response as JsonObject };
}

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

/** Moves the response's file into n8n binary data; the JSON keeps everything but the base64. */
async function withBinary(
	ctx: IExecuteFunctions,
	params: ItemParameters,
	spec: BinaryOutput,
	json: IDataObject,
): Promise<INodeExecutionData> {
	const { [spec.dataField]: data, ...rest } = json;
	const encoded = typeof data === 'string' ? data.replace(/^data:[^,]{0,200},/, '') : '';
	if (encoded === '') {
		if (spec.required) params.fail('Operation', 'got no file from the server', 'The server answered without the file. Check that the message has media.');
		return { json: rest };
	}
	const propertyName = params.text('binaryPropertyName').trim();
	const mimeType = (spec.mimeTypeField && typeof json[spec.mimeTypeField] === 'string'
		? (json[spec.mimeTypeField] as string)
		: '') || spec.defaultMimeType;
	const fileName = (spec.fileNameField && typeof json[spec.fileNameField] === 'string'
		? (json[spec.fileNameField] as string)
		: '') || spec.defaultFileName;
	const binary: IBinaryKeyData = {
		[propertyName]: await ctx.helpers.prepareBinaryData(Buffer.from(encoded, 'base64'), fileName, mimeType),
	};
	return { json: rest, binary };
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
	const labels = labelsOf(operation);
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
			const minimum = operation.minServerVersion;
			if (minimum !== undefined) {
				const version = await serverVersionOf(this, connection);
				if (isOlder(version, minimum)) {
					throw inputError(
						this.getNode(),
						itemIndex,
						'Operation',
						`${operation.name} needs ${versionOrNewer(minimum)}; the server runs ${version}`,
						'Upgrade the server, or choose another operation. If it was upgraded, set the credential\'s Server Version to "Detect Automatically" or to the new version.',
					);
				}
			}
			const params = new ItemParameters(parameters, itemIndex, labels);
			const instance = operation.scope === 'server' ? undefined : params.instanceName();
			let itemDialect = dialect;
			if (dialect.servesV2Routes && operation.needsServerVersion?.(params)) {
				const version = await serverVersionOf(this, connection);
				if (version !== undefined) itemDialect = dialectOf(dialect.name, version);
			}
			const request = await buildRequest(operation, params, itemDialect);
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
						extraWaitMs: built.extraWaitMs,
						secrets: operation.secretsOf?.(built.body),
					},
					itemIndex,
				);
				const failure = failedDespiteOk(operation, response);
				if (failure) params.fail('Operation', `failed on the server: ${failure}`);
				return response;
			};
			let results: IDataObject[];
			if (operation.pagination) {
				results = await readPages(this.getNode(), operation.pagination, params, request, send, connection.timeoutMs);
			} else {
				const response = await send(request);
				results = operation.toItems ? operation.toItems(response, params) : [asItemJson(response)];
			}
			for (const record of results) {
				const json = withoutSecretFields(operation, record);
				const item = operation.binaryOutput ? await withBinary(this, params, operation.binaryOutput, json) : { json };
				output.push({ ...item, pairedItem: { item: itemIndex } });
			}
		} catch (caught) {
			let error =
				caught instanceof NodeOperationError || (caught as { name?: string }).name === 'NodeApiError'
					? (caught as NodeOperationError)
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
			if (operation.minServerVersion !== undefined) {
				error = explainMissingRoute(error, operation.name, operation.minServerVersion, this.getNode().type.endsWith('Tool'));
			}
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
