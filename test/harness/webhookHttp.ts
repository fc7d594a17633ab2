import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeExecutionData } from 'n8n-workflow';

/**
 * The HTTP side of n8n's webhook machinery, for the trigger harness (./webhooks.ts): the
 * server the deliveries reach, which of the node's URLs a path is, n8n's body parsing, the
 * Express-like response a node's `webhook()` answers through, and posting to a URL as anyone
 * on the network could.
 */

export type WebhookKind = 'production' | 'test';

export interface Received {
	kind: WebhookKind;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status: number;
	response: unknown;
	/** The items the node emitted (a workflow run started), when it did. */
	items?: INodeExecutionData[];
	/** Who sent the answer: the node through the response object, or n8n after webhook() returned. */
	answeredBy?: 'node' | 'n8n';
	/** Whether the handler changed the workflow's static data (n8n then writes it to its database). */
	staticDataChanged?: boolean;
	/** The delivery's execution, where the harness runs it: the trigger's output and whether n8n saved static data when it ended. */
	execution?: { items: INodeExecutionData[]; savedStaticData: boolean };
}

export interface ExpressLikeResponse {
	statusCode: number;
	headersSent: boolean;
	body: unknown;
	status(code: number): ExpressLikeResponse;
	setHeader(name: string, value: string): ExpressLikeResponse;
	header(name: string, value: string): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
	send(body?: unknown): ExpressLikeResponse;
	end(body?: unknown): ExpressLikeResponse;
}

export function flatHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}

export async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** Which of n8n's webhook URLs a path is under: `/webhook-test/…`, `/webhook/…`, or neither. */
export function kindOf(pathname: string): WebhookKind | undefined {
	if (pathname.startsWith('/webhook-test/')) return 'test';
	if (pathname.startsWith('/webhook/')) return 'production';
	return undefined;
}

/** n8n's body parser: JSON by content type; an empty body is {}. `ok: false` when the JSON does not parse. */
export function parseBody(raw: string, headers: Record<string, string>): { ok: true; body: unknown } | { ok: false } {
	if (raw === '' || !(headers['content-type'] ?? '').includes('json')) return { ok: true, body: {} };
	try {
		return { ok: true, body: JSON.parse(raw) as unknown };
	} catch {
		return { ok: false };
	}
}

/** A server on a port the OS assigns; resolves with its base URL once it listens. */
export async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; baseUrl: string }> {
	const server = createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { server, baseUrl: `http://127.0.0.1:${port}` };
}

export async function closeServer(server: Server): Promise<void> {
	await new Promise<void>((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

/** Posts a body to a URL; the answer as JSON when it is JSON, else as text. */
export async function postJson(
	target: string,
	body: string,
	options: { query?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
	const url = new URL(target);
	for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(options.headers ?? {}) },
		body,
	});
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: res.status, body: parsed };
}

/** The response object n8n hands a node's `webhook()`: whatever the node sends goes out through `reply`. */
export function expressResponse(reply: (status: number, body: unknown) => void): ExpressLikeResponse {
	const response: ExpressLikeResponse = {
		statusCode: 200,
		headersSent: false,
		body: undefined,
		status(code: number) {
			response.statusCode = code;
			return response;
		},
		setHeader() {
			return response;
		},
		header() {
			return response;
		},
		json(body: unknown) {
			response.headersSent = true;
			response.body = body;
			reply(response.statusCode, body);
			return response;
		},
		send(body?: unknown) {
			return response.json(body);
		},
		end(body?: unknown) {
			return response.json(body);
		},
	};
	return response;
}
