import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { normaliseBaseUrl } from './baseUrl';
import { dialectOf, type Dialect } from './dialect';
import { toApiError } from './errors';

export const CREDENTIAL_TYPE = 'messagingInstanceApi';

type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions;

/**
 * What a node needs to talk to the server, read once per execution: decrypting the
 * credential for every item is the largest avoidable cost per item.
 */
export interface Connection {
	readonly baseUrl: string;
	readonly dialect: Dialect;
	readonly credentials: ICredentialsDecrypted;
}

export async function openConnection(ctx: RequestContext): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await ctx.getCredentials(CREDENTIAL_TYPE);
	return {
		baseUrl: normaliseBaseUrl(String(data.baseUrl ?? '')),
		dialect: dialectOf(data.dialect),
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data },
	};
}

export interface ApiRequest {
	method?: IHttpRequestMethods;
	/** Route without the instance, e.g. `/message/sendText`. */
	route: string;
	/** The instance, last in the path; left out for routes of the whole server. */
	instance?: string;
	body?: IDataObject;
	/** The query string. */
	qs?: IDataObject;
	/** Milliseconds the server may hold the request (the `delay` options) on top of the usual wait. */
	extraWaitMs?: number;
}

const BASE_TIMEOUT_MS = 60_000;

/** One request to the instance's route; returns the parsed body, or `undefined` when empty. */
export async function apiRequest(
	ctx: RequestContext,
	connection: Connection,
	request: ApiRequest,
	itemIndex = 0,
): Promise<unknown> {
	try {
		const response: unknown = await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			{
				method: request.method ?? 'POST',
				url:
					request.instance === undefined
						? `${connection.baseUrl}${request.route}`
						: `${connection.baseUrl}${request.route}/${encodeURIComponent(request.instance)}`,
				body: request.body,
				...(request.qs && Object.keys(request.qs).length > 0 ? { qs: request.qs } : {}),
				json: true,
				timeout: BASE_TIMEOUT_MS + (request.extraWaitMs ?? 0),
			},
			{ credentialsDecrypted: connection.credentials },
		);
		return response === '' ? undefined : response;
	} catch (error) {
		throw toApiError(ctx.getNode(), error, itemIndex, request.instance ?? '');
	}
}
