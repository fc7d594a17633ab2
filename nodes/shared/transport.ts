import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { baseUrlProblem, normaliseBaseUrl } from './baseUrl';
import { dialectOf, type Dialect } from './dialect';
import { apiKeyProblem, credentialError, notJsonError, toApiError } from './errors';
import { MAX_TIMER_MS, requestTimeoutMs } from './deadline';
import { jsonBody } from './jsonBody';
import { redactError, secretsOfUrl } from './redact';

export const CREDENTIAL_TYPE = 'messagingInstanceApi';

type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions;


/**
 * What a node needs to talk to the server, read once per execution: decrypting the
 * credential for every item is the largest avoidable cost per item.
 */
export interface Connection {
	readonly baseUrl: string;
	readonly dialect: Dialect;
	readonly apiKey: string;
	/** Total time per request, in milliseconds, before any wait the request asks for. */
	readonly timeoutMs: number;
}

export async function openConnection(ctx: RequestContext): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await ctx.getCredentials(CREDENTIAL_TYPE);
	return {
		baseUrl: normaliseBaseUrl(String(data.baseUrl ?? '')),
		dialect: dialectOf(data.dialect),
		apiKey: String(data.apiKey ?? ''),
		timeoutMs: requestTimeoutMs(data.timeout),
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
	/**
	 * Secrets this request carries besides the API key (e.g. the token of an instance being
	 * created), kept out of any error the same way.
	 */
	secrets?: readonly string[];
}

/** The execution's own cancel signal, where the context has one (an execution stopped by the user). */
function cancelSignalOf(ctx: RequestContext): AbortSignal | undefined {
	const context = ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined };
	return typeof context.getExecutionCancelSignal === 'function' ? context.getExecutionCancelSignal() : undefined;
}

function isJson(response: IN8nHttpFullResponse): boolean {
	const body = response.body;
	if (body === undefined || body === null || body === '') return true;
	return typeof body === 'object' && !Buffer.isBuffer(body);
}

/**
 * One request to the server; returns the parsed JSON body, or `undefined` when empty.
 *
 * - the `apikey` header is set here from the credential read once per execution;
 * - redirects are not followed: the key must never go to another address, and a POST
 *   turned into a GET would report a success for nothing sent;
 * - one total deadline per request (a server that trickles a byte now and then cannot hold
 *   the node), with the execution's cancel signal honoured too;
 * - a 2xx answer that is not JSON is an error, not a success item;
 * - every error leaves here without the API key, wherever a server echoed it.
 */
export async function apiRequest(
	ctx: RequestContext,
	connection: Connection,
	request: ApiRequest,
	itemIndex = 0,
): Promise<unknown> {
	const deadlineMs = Math.min(connection.timeoutMs + (request.extraWaitMs ?? 0), MAX_TIMER_MS);
	const deadline = AbortSignal.timeout(deadlineMs);
	const cancel = cancelSignalOf(ctx);
	const secrets = [connection.apiKey, ...secretsOfUrl(connection.baseUrl), ...(request.secrets ?? [])];
	const problem = baseUrlProblem(connection.baseUrl) ?? apiKeyProblem(connection.apiKey);
	if (problem) throw redactError(credentialError(ctx.getNode(), itemIndex, problem), secrets);
	const path =
		request.instance === undefined ? request.route : `${request.route}/${encodeURIComponent(request.instance)}`;
	const url = `${connection.baseUrl}${path}`;
	const body = request.body ? jsonBody(request.body) : undefined;
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequest({
			method: request.method ?? 'POST',
			url,
			headers: Buffer.isBuffer(body) ? { apikey: connection.apiKey, 'content-type': 'application/json' } : { apikey: connection.apiKey },
			body,
			...(request.qs && Object.keys(request.qs).length > 0 ? { qs: request.qs } : {}),
			json: true,
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: deadlineMs,
			abortSignal: cancel ? AbortSignal.any([deadline, cancel]) : deadline,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		const cancelled = cancel?.aborted === true;
		const timedOut = deadline.aborted && !cancelled;
		throw redactError(
			toApiError(ctx.getNode(), error, itemIndex, {
				instance: request.instance ?? '',
				requestUrl: url,
				deadlineMs: timedOut ? deadlineMs : undefined,
				cancelled,
				secrets,
			}),
			secrets,
		);
	}
	if (!isJson(response)) {
		const contentType = String(response.headers?.['content-type'] ?? '');
		throw redactError(notJsonError(ctx.getNode(), itemIndex, response.statusCode, contentType), secrets);
	}
	return response.body === '' || response.body === null ? undefined : response.body;
}
