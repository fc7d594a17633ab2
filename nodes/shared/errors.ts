import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { licenceGate } from './licence';
import { redactText } from './redact';

/**
 * The one place that turns a failed request into what the user reads. The server's own text
 * hides in `response.message` (a string, an array, or an array of arrays, or a list of
 * unknown numbers); the message shows it with the HTTP status, and the description says what
 * to check. Only the server's body is kept: the request, and with it the API key, is dropped.
 */

interface FailedRequest {
	status?: number;
	body?: unknown;
	headers?: Record<string, unknown>;
	networkCode?: string;
	networkMessage?: string;
}

const NETWORK_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EPIPE',
	'ERR_CANCELED',
	'ERR_BAD_RESPONSE',
	'ERR_INVALID_CHAR',
	'ERR_HTTP_INVALID_HEADER_VALUE',
]);

/** Failures where the server was reached: not "unreachable", and the Base URL is not the cause. */
const REACHED: Record<string, { message: string; description: string }> = {
	ERR_BAD_RESPONSE: {
		message: 'The server closed the connection in the middle of its answer',
		description:
			'The server took the request and began to answer, then dropped the connection: it may or may not have handled the request. Check the server\'s logs, and any proxy in between for a size or time limit.',
	},
	ERR_INVALID_CHAR: {
		message: 'A request header holds a character it cannot carry',
		description: 'Check the API key in the credential for a line break or an invisible character copied with it.',
	},
	ERR_HTTP_INVALID_HEADER_VALUE: {
		message: 'A request header holds a value it cannot carry',
		description: 'Check the API key in the credential for a line break or an invisible character copied with it.',
	},
};

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset by the server',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host not found',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'no data for too long (idle timeout)',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	EPIPE: 'connection closed',
	ERR_CANCELED: 'request cancelled',
};

/** Finds the HTTP response (or the socket error) inside n8n's and axios' error wrappers. */
function unwrap(error: unknown): FailedRequest {
	const seen = new Set<unknown>();
	let current: unknown = error;
	let networkCode: string | undefined;
	let networkMessage: string | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as {
			response?: { status?: number; data?: unknown; body?: unknown; headers?: Record<string, unknown> };
			code?: unknown;
			message?: unknown;
			cause?: unknown;
		};
		if (candidate.response && typeof candidate.response.status === 'number') {
			return {
				status: candidate.response.status,
				body: candidate.response.data ?? candidate.response.body,
				headers: candidate.response.headers,
			};
		}
		// n8n-core's own NodeApiError wrapper: the status as `httpCode`, the body in `context.data`.
		const wrapped = current as { httpCode?: unknown; context?: { data?: unknown } };
		if (typeof wrapped.httpCode === 'string' && /^[1-5]\d\d$/.test(wrapped.httpCode)) {
			return { status: Number(wrapped.httpCode), body: wrapped.context?.data };
		}
		if (typeof candidate.code === 'string' && NETWORK_CODES.has(candidate.code)) {
			networkCode = candidate.code;
			networkMessage = typeof candidate.message === 'string' ? candidate.message : undefined;
		}
		// The same wrapper keeps a socket error only as text in `messages` (e.g. "connect ECONNREFUSED …").
		const texts = (current as { messages?: unknown }).messages;
		if (!networkCode && Array.isArray(texts)) {
			for (const text of texts) {
				const code = typeof text === 'string' ? /\b(E[A-Z_]+)\b/.exec(text)?.[1] : undefined;
				if (code && NETWORK_CODES.has(code)) {
					networkCode = code;
					networkMessage = text;
					break;
				}
			}
		}
		current = candidate.cause;
	}
	return { networkCode, networkMessage };
}

/** Flattens `response.message` however it is nested into readable lines. */
export function serverMessages(body: unknown): string[] {
	if (body === undefined || body === null || body === '') return [];
	if (typeof body === 'string') {
		try {
			return serverMessages(JSON.parse(body));
		} catch {
			return [body];
		}
	}
	if (typeof body !== 'object') return [String(body)];
	const record = body as { response?: { message?: unknown }; message?: unknown; error?: unknown };
	const raw = record.response?.message ?? record.message ?? record.error;
	return flatten(raw);
}

function flatten(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.flatMap(flatten);
	if (typeof value === 'object') {
		const entry = value as { exists?: unknown; number?: unknown; jid?: unknown };
		if (entry.exists === false) {
			return [`${String(entry.number ?? entry.jid)} has no account on the messaging network`];
		}
		return [JSON.stringify(value)];
	}
	return [String(value)];
}

function describe(status: number, messages: string[], instance: string): string {
	const joined = messages.join(' ');
	if (status === 429) {
		return 'Use "Retry On Fail" in the node\'s settings with a wait of at least the time the server asks for, or send fewer messages at once.';
	}
	if (status === 401) {
		return 'Check the API key in the credential: use the server\'s global API key or the token of this instance.';
	}
	if (status === 404 && /instance does not exist/i.test(joined)) {
		return `Check the instance name: the server has no instance called "${instance}".`;
	}
	if (status === 404) {
		return 'Check the Base URL in the credential (the server\'s root address) and its dialect: the server does not know this route.';
	}
	if (status === 400 && /has no account/.test(joined)) {
		return 'The recipient number has no account on the messaging network. Check the country code and the number. If it came from a contact known by LID (an id ending in @lid), send to the whole …@lid id or to the trigger\'s chatId (the phone JID), not to the LID\'s digits.';
	}
	if (status === 400) {
		return 'The server rejected the request body. Check the fields named above.';
	}
	if (status >= 500) {
		return 'The server failed while handling the request. Check the server logs, then try again.';
	}
	return '';
}

/** An HTTP date as RFC 9110 writes it (IMF-fixdate, RFC 850 or asctime); nothing else is one. */
const HTTP_DATE = /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * The wait a Retry-After header names, as RFC 9110 defines it: non-negative whole seconds (any
 * number of digits, written as digits without leading zeros) or an HTTP date; anything else
 * (`-5`, `1.5`, a text) names no wait.
 */
function retryAfterSeconds(headers: Record<string, unknown> | undefined): string | undefined {
	const raw = headers?.['retry-after'];
	const value = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
	if (value === '' || value.length > 64) return undefined;
	if (/^\d+$/.test(value)) return value.replace(/^0+(?=\d)/, '');
	if (!HTTP_DATE.test(value)) return undefined;
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : String(Math.max(0, Math.ceil((at - Date.now()) / 1000)));
}

const NOT_REDIRECTED = 'Requests are not redirected, so that the API key never goes to another address.';

/**
 * What to change in the Base URL so that the server stops redirecting: the scheme (http to
 * https, the usual case behind a proxy), the host, or the path, as the Location differs from
 * the address the request went to.
 */
function redirectHint(location: string, requestUrl: string | undefined): string {
	let from: URL | undefined;
	let to: URL | undefined;
	try {
		from = requestUrl && location ? new URL(requestUrl) : undefined;
		to = from ? new URL(location, from) : undefined;
	} catch {
		to = undefined;
	}
	if (!from || !to) {
		return `${NOT_REDIRECTED} Set the Base URL in the credential to the address the server redirects to (often https:// instead of http://, or without a path).`;
	}
	if (to.protocol !== from.protocol && to.host === from.host) {
		return `${NOT_REDIRECTED} The server wants ${to.protocol.slice(0, -1)}: start the Base URL with ${to.protocol}// instead of ${from.protocol}//.`;
	}
	if (to.host !== from.host) {
		return `${NOT_REDIRECTED} The server sends it to another host (${to.host.slice(0, 100)}): if that is the server's real address, use it as the Base URL.`;
	}
	return `${NOT_REDIRECTED} The server moves the request to another path on the same host: check the path of the Base URL (it should be the API root, e.g. no /manager or trailing path).`;
}

/** Where a redirect points, as its Location header says (cut to a readable length). */
function locationOf(headers: Record<string, unknown> | undefined): string {
	const location = headers?.location;
	return typeof location === 'string' ? location.slice(0, 200) : 'another address';
}

/**
 * What the user reads when a request failed. A request ended by the node's own total deadline
 * reads as a timeout (a hanging or trickling server), not as a missing response; one ended by
 * stopping the execution says so.
 */
export interface FailedRequestContext {
	/** The instance the request was for ('' for routes of the whole server). */
	instance: string;
	/** The address the request went to, to tell what a redirect changes. */
	requestUrl?: string;
	/** Set when the node's own total deadline ended the request. */
	deadlineMs?: number;
	/** Set when the execution was stopped while the request was under way. */
	cancelled?: boolean;
	/** Secrets to take out of the server's text before it is cut (a cut secret would leave a part behind). */
	secrets?: readonly string[];
}

export function toApiError(
	node: INode,
	error: unknown,
	itemIndex: number,
	{ instance, requestUrl, deadlineMs, cancelled, secrets = [] }: FailedRequestContext,
): NodeApiError {
	const failed = unwrap(error);
	if (failed.status === undefined && cancelled) {
		return forAgent(node, new NodeApiError(node, { reason: 'stopped' } as JsonObject, {
			message: 'The execution was stopped while the request was under way',
			description: 'The request was cancelled; the server may or may not have handled it.',
			itemIndex,
		}));
	}
	if (failed.status === undefined) {
		if (deadlineMs !== undefined) {
			return forAgent(node, new NodeApiError(node, { reason: 'deadline' } as JsonObject, {
				message: `The server did not answer in time: timed out after ${Number((deadlineMs / 1000).toFixed(1))} s`,
				description:
					'The server took the connection but did not finish its answer. Check that it is healthy, or raise the Request Timeout in the credential.',
				itemIndex,
			}));
		}
		const code = failed.networkCode ?? 'no response';
		const reached = REACHED[code];
		if (reached) {
			return forAgent(node, new NodeApiError(node, { reason: code } as JsonObject, { ...reached, itemIndex }));
		}
		return forAgent(node, new NodeApiError(
			node,
			// No `code` key here: NodeApiError would swap our message for its generic one.
			{ reason: failed.networkMessage ?? code } as JsonObject,
			{
				// In words, not the code: NodeApiError rewrites any message that contains one.
				message: `The server is unreachable: ${NETWORK_WORDS[code] ?? 'no response'}`,
				description: `${code}. Check the Base URL in the credential and that the server is running and reachable from n8n.`,
				itemIndex,
			},
		));
	}
	const licence = licenceGate(failed.status, failed.body);
	if (licence) return forAgent(node, new NodeApiError(node, failed.body as JsonObject, { ...licence, httpCode: '503', itemIndex }));
	const messages = serverMessages(failed.body);
	let text = messages.length > 0 ? messages.join('; ') : 'The server answered with an error';
	// A server may answer with a whole page of text: the message stays readable.
	text = readableServerText(redactText(text, secrets));
	if (failed.status >= 300 && failed.status < 400) {
		text = `The server redirects to ${locationOf(failed.headers)}`;
	} else if (failed.status === 429) {
		const wait = retryAfterSeconds(failed.headers);
		text = `The server is rate limiting requests${wait !== undefined ? `: retry after ${wait} s` : ''}`;
	}
	const body =
		failed.body && typeof failed.body === 'object' ? (failed.body as JsonObject) : { message: text };
	const redirected = failed.status >= 300 && failed.status < 400;
	return forAgent(node, new NodeApiError(node, body, {
		message: `${text} (HTTP ${failed.status})`,
		description: redirected
			? redirectHint(typeof failed.headers?.location === 'string' ? failed.headers.location : '', requestUrl)
			: describe(failed.status, messages, instance),
		httpCode: String(failed.status),
		itemIndex,
	}));
}

/** The longest server text a message shows. */
const MAX_SERVER_TEXT = 500;

/**
 * A server's text as a message shows it: cut to MAX_SERVER_TEXT characters. Secrets must be
 * out of it before (a cut secret would leave a part of itself that no redaction finds).
 */
export function readableServerText(text: string): string {
	return text.length > MAX_SERVER_TEXT ? `${text.slice(0, MAX_SERVER_TEXT)}…` : text;
}

/** A 2xx answer that is not the JSON the interface promises (an HTML page, broken JSON). */
export function notJsonError(node: INode, itemIndex: number, status: number, contentType: string): NodeApiError {
	const what = /html/i.test(contentType) ? 'an HTML page' : `something that is not JSON${contentType ? ` (${contentType.slice(0, 60)})` : ''}`;
	return forAgent(node, new NodeApiError(node, { reason: 'not json' } as JsonObject, {
		message: `The server answered with ${what} instead of JSON (HTTP ${status})`,
		description: 'The Base URL probably points at a web page or a proxy, not at the API. Set it to the server\'s API root.',
		httpCode: String(status),
		itemIndex,
	}));
}

/**
 * What is wrong with the API key before any request, or undefined. A key pasted with a line
 * break or an invisible character cannot be sent in a header at all, and would otherwise read
 * as an unreachable server.
 */
export function apiKeyProblem(apiKey: string): { message: string; hint: string } | undefined {
	const hint = 'Remove it from the API key in the credential (keys are often copied with one); the server\'s keys never contain it.';
	if (/[\r\n]/.test(apiKey)) return { message: 'The API key in the credential contains a line break', hint };
	if (/[\u200b-\u200f\u2028-\u202f\u2060-\u2064\ufeff\u00ad]/.test(apiKey)) {
		return { message: 'The API key in the credential contains an invisible character (such as a zero-width space)', hint };
	}
	// Node.js refuses a header value with control characters or characters above U+00FF.
	if (/[^\t\x20-\x7e\x80-\xff]/.test(apiKey)) {
		return { message: 'The API key in the credential contains a character a request header cannot carry', hint };
	}
	return undefined;
}

/** A problem of the credential found before any request (no field of the node, no item). */
export function credentialError(node: INode, itemIndex: number, problem: { message: string; hint: string }): NodeOperationError {
	return forAgent(node, new NodeOperationError(node, problem.message, { itemIndex, description: problem.hint }));
}

/** An input error found before any request: names the field and the item. */
export function inputError(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	return forAgent(node, new NodeOperationError(node, `"${field}" ${problem} [item ${itemIndex}]`, { itemIndex, description: hint }));
}

/**
 * An item's error about the operation itself (not one of its fields): said as the user reads
 * the node, e.g. "Group → Update Member Add Mode needs Evolution API 2.4 or newer; …".
 */
export function operationError(node: INode, itemIndex: number, problem: string, hint?: string): NodeOperationError {
	return forAgent(node, new NodeOperationError(node, `${problem} [item ${itemIndex}]`, { itemIndex, description: hint }));
}

/**
 * As an AI agent's tool (the generated `…Tool` node type) the hint goes into the message too:
 * n8n 2.x hands the agent the error's message only, and the hint is what the model needs to
 * call again or to tell the user what to fix. Set after construction, because NodeApiError
 * rewrites a message that contains a network code.
 */
function forAgent<E extends NodeApiError | NodeOperationError>(node: INode, error: E): E {
	// The chat memory too: the AI Agent reports a sub-node's error by its message alone.
	if ((node.type.endsWith('Tool') || node.type.endsWith('ChatMemory')) && error.description) {
		error.message = `${error.message}. ${error.description}`;
		error.description = undefined;
	}
	return error;
}
