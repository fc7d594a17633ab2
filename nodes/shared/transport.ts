import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	ISupplyDataFunctions,
	ITriggerFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { baseUrlProblem, normaliseBaseUrl } from './baseUrl';
import { dialectOf, type Dialect } from './dialect';
import { apiKeyProblem, credentialError, notJsonError, toApiError } from './errors';
import { MAX_TIMER_MS, requestTimeoutMs } from './deadline';
import { jsonBody } from './jsonBody';
import { redactError, secretsOfUrl } from './redact';
import { pathProblem } from './requestParts';

export const CREDENTIAL_TYPE = 'messagingInstanceApi';

/** Every context that asks the server: the nodes' runs, webhook registration, pickers, the trigger's catch-up, and a sub-node supplying the AI Agent (the chat memory). */
export type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | ISupplyDataFunctions | ITriggerFunctions;

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
	/** The credential's Server Version: `auto` (ask the server when an operation needs it) or a version. */
	readonly serverVersion?: string;
}

export async function openConnection(ctx: RequestContext): Promise<Connection> {
	const data: ICredentialDataDecryptedObject = await ctx.getCredentials(CREDENTIAL_TYPE);
	return {
		baseUrl: normaliseBaseUrl(String(data.baseUrl ?? '')),
		dialect: dialectOf(data.dialect),
		apiKey: String(data.apiKey ?? ''),
		timeoutMs: requestTimeoutMs(data.timeout),
		serverVersion: typeof data.serverVersion === 'string' ? data.serverVersion : undefined,
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
	/** Reads a 2xx answer as it streams in, for an answer that carries a file (see streamedAnswer below). */
	readAnswer?: AnswerReader;
}

/** The execution's own cancel signal, where the context has one (an execution stopped by the user). */
export function cancelSignalOf(ctx: RequestContext): AbortSignal | undefined {
	const context = ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined };
	return typeof context.getExecutionCancelSignal === 'function' ? context.getExecutionCancelSignal() : undefined;
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
	const badPath = pathProblem(path);
	if (badPath) throw redactError(new NodeApiError(ctx.getNode(), { reason: 'bad path' } as JsonObject, { message: `The request's path ${badPath}`, description: 'Nothing was sent. Check the IDs the operation puts into its path.', itemIndex }), secrets);
	const url = `${connection.baseUrl}${path}`;
	const body = request.body ? jsonBody(request.body) : undefined;
	let response: IN8nHttpFullResponse;
	let streamed: Streamed;
	let answering = false;
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
			// Every answer is read as a stream, so that none is held past its bound (readJsonAnswer).
			encoding: 'stream',
		})) as IN8nHttpFullResponse;
		answering = true;
		streamed = request.readAnswer ? await streamedAnswer(response, request.readAnswer) : await readJsonAnswer(response);
	} catch (error) {
		const cancelled = cancel?.aborted === true;
		const timedOut = deadline.aborted && !cancelled;
		await readErrorBody(error);
		// The status and headers came, then the connection broke: the server was reached.
		const failure = answering && !timedOut && !cancelled ? Object.assign(new Error('The answer was cut off'), { code: 'ERR_BAD_RESPONSE' }) : error;
		const unreadable = unreadableAnswerError(ctx, failure, itemIndex);
		if (unreadable) throw redactError(unreadable, secrets);
		throw redactError(
			toApiError(ctx.getNode(), failure, itemIndex, {
				instance: request.instance ?? '',
				requestUrl: url,
				deadlineMs: timedOut ? deadlineMs : undefined,
				cancelled,
				secrets,
			}),
			secrets,
		);
	}
	if (streamed.read === 'tooLarge') throw redactError(answerTooLargeError(ctx, itemIndex, response.statusCode), secrets);
	if (streamed.read === false) {
		throw redactError(notJsonError(ctx.getNode(), itemIndex, response.statusCode, streamed.contentType), secrets);
	}
	return streamed.value;
}

// ------------------------------------------------------------------ the bound of every answer

/**
 * The most any JSON answer may hold (the README's "Security and limits"): past it the answer
 * is left unread and the request fails, so a server that answers without end cannot fill
 * n8n's memory. Answers with a file (Download Media) have their own bound, set by the user.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** A JSON answer read up to MAX_ANSWER_BYTES: parsed, or why not. An empty answer is `undefined`. */
async function readJsonAnswer(response: IN8nHttpFullResponse): Promise<Streamed> {
	const stream = response.body as AsyncIterable<Buffer> & { destroy?: () => void };
	const contentType = String(response.headers?.['content-type'] ?? '');
	const length = Number(response.headers?.['content-length']);
	if (length > MAX_ANSWER_BYTES) {
		stream.destroy?.();
		return { read: 'tooLarge' };
	}
	const chunks: Buffer[] = [];
	let bytes = 0;
	for await (const chunk of stream) {
		bytes += chunk.length;
		if (bytes > MAX_ANSWER_BYTES) {
			stream.destroy?.();
			return { read: 'tooLarge' };
		}
		chunks.push(chunk);
	}
	const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, bytes)).toString('utf8');
	if (text.trim() === '') return { read: true, value: undefined };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { read: false, contentType };
	}
	// A bare text, number or switch is no answer of the interface (an HTML error page's proxy says "OK").
	if (value !== null && typeof value !== 'object') return { read: false, contentType };
	// `null` is an answer ("nothing saved"); an empty body is none (a controller that returned nothing).
	return { read: true, value };
}

function answerTooLargeError(ctx: RequestContext, itemIndex: number, status: number): NodeApiError {
	const megabytes = MAX_ANSWER_BYTES / 1024 / 1024;
	return new NodeApiError(ctx.getNode(), { reason: 'answer too large' } as JsonObject, {
		message: `The server's answer is larger than ${megabytes} MB, the most an answer may have; reading stopped there`,
		description: `The server answered with success (HTTP ${status}), but with more than ${megabytes} MB: the answer was not read, so nothing of it is output. Ask for less (a Limit, Filters), or check that the Base URL points at the API.`,
		itemIndex,
	});
}

// ------------------------------------------------------------------ answers read as streams
// A file comes as base64 inside a JSON answer. Read whole, that answer is held as bytes, as
// text, as a parsed string and then decoded: 5–8 times the file. Read as a stream, the file
// costs its bytes (fileAnswer.ts).

/** Reads a 2xx answer as it streams in; `answerBytes` is its length when the server said it. */
export type AnswerReader = (answer: AsyncIterable<Buffer>, answerBytes: number | undefined) => Promise<unknown>;

type Streamed = { read: true; value: unknown } | { read: false; contentType: string } | { read: 'tooLarge' };

/** The 2xx answer read by the reader; an answer that says it is not JSON is left unread. */
async function streamedAnswer(response: IN8nHttpFullResponse, readAnswer: AnswerReader): Promise<Streamed> {
	const stream = response.body as AsyncIterable<Buffer> & { destroy?: () => void };
	const contentType = String(response.headers?.['content-type'] ?? '');
	if (contentType !== '' && !/\bjson\b/i.test(contentType)) {
		stream.destroy?.();
		return { read: false, contentType };
	}
	const length = Number(response.headers?.['content-length']);
	return { read: true, value: await readAnswer(stream, Number.isSafeInteger(length) && length >= 0 ? length : undefined) };
}

/** What an error answer may hold that is read for its message; the rest is left unread. */
const MAX_ERROR_BODY = 64 * 1024;

/** An error answer (4xx, 5xx) came as a stream: read its start, so that the error shows the server's message. */
async function readErrorBody(error: unknown): Promise<void> {
	const response = (error as { response?: { data?: unknown } }).response;
	const data = response?.data as (AsyncIterable<Buffer> & { destroy?: () => void }) | undefined;
	if (!response || !data || typeof data !== 'object' || !(Symbol.asyncIterator in data)) return;
	const chunks: Buffer[] = [];
	let length = 0;
	try {
		for await (const chunk of data) {
			chunks.push(chunk);
			length += chunk.length;
			if (length >= MAX_ERROR_BODY) break;
		}
	} catch {
		// A broken error answer still has its status.
	}
	data.destroy?.();
	const text = Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY).toString('utf8');
	try {
		response.data = JSON.parse(text);
	} catch {
		response.data = text;
	}
}

/**
 * A 2xx answer that could not be read (too large to hold as text or to parse) is not an error
 * of the server: n8n's HTTP helper reports it with the answer's status, which would read
 * "(HTTP 201)" as if the server had refused.
 */
function unreadableAnswerError(ctx: RequestContext, error: unknown, itemIndex: number): NodeApiError | undefined {
	const status = (error as { response?: { status?: unknown } }).response?.status;
	if (typeof status !== 'number' || status < 200 || status >= 300) return undefined;
	const cause = error instanceof Error ? error.message.slice(0, 200) : 'unknown';
	return new NodeApiError(ctx.getNode(), { reason: 'unreadable answer' } as JsonObject, {
		message: `The server's answer could not be read: ${cause}`,
		description: `The server answered with success (HTTP ${status}), but the answer is too large or broken to read as JSON.`,
		itemIndex,
	});
}
