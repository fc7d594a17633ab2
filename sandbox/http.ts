/** HTTP plumbing of the sandbox: bodies in and out, the server's error shapes, key checks. */
import { IncomingMessage as HttpRequest, ServerResponse, STATUS_CODES } from 'http';
import { timingSafeEqual } from 'crypto';
import type { Reply } from './types';

export const MAX_BODY = 50 * 1024 * 1024;

/** The real servers' error body: a list of messages, except for 401 and 5xx. */
export function errorBody(status: number, message: string): unknown {
	const error = STATUS_CODES[status] ?? 'Error';
	if (status >= 500 || status === 401) return { status, error, response: { message } };
	return { status, error, response: { message: [message] } };
}

export function badRequest(message: unknown[]): Reply {
	return { status: 400, body: { status: 400, error: 'Bad Request', response: { message } } };
}

export function notFound(message: string): Reply {
	return { status: 404, body: { status: 404, error: 'Not Found', response: { message: [message] } } };
}

export const UNAUTHORIZED: Reply = { status: 401, body: { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } } };

export function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function sameSecret(given: string | undefined, expected: string): boolean {
	if (given === undefined) return false;
	const a = Buffer.from(given);
	const b = Buffer.from(expected);
	return a.length === b.length && timingSafeEqual(a, b);
}

/** The origin only: a webhook URL may carry a secret in its path or query. */
export function redactUrl(url: string): string {
	try {
		const u = new URL(url);
		return `${u.origin}/…`;
	} catch {
		return '(invalid url)';
	}
}

/** The URL with every query value and any user info replaced by `***` (shown, never secret). */
export function maskUrl(url: string): string {
	try {
		const u = new URL(url);
		if (u.username) u.username = '***';
		if (u.password) u.password = '***';
		const keys = [...new Set(u.searchParams.keys())];
		u.search = '';
		let out = u.toString();
		if (keys.length > 0) out += '?' + keys.map((k) => `${encodeURIComponent(k)}=***`).join('&');
		return out;
	} catch {
		return '(invalid url)';
	}
}

/** The method, path and query of a request, as the server's router reads them. */
export function requestLine(req: HttpRequest): { method: string; path: string; query: Record<string, string> } {
	const parsed = new URL(req.url ?? '/', 'http://sandbox');
	return { method: (req.method ?? 'GET').toUpperCase(), path: parsed.pathname, query: Object.fromEntries(parsed.searchParams) };
}

export function flattenHeaders(req: HttpRequest): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers)) {
		if (v === undefined) continue;
		out[k] = Array.isArray(v) ? v.join(', ') : v;
	}
	return out;
}

export function send(res: ServerResponse, status: number, body?: unknown, contentType = 'application/json; charset=utf-8'): void {
	const text = body === undefined ? '' : typeof body === 'string' && !contentType.startsWith('application/json') ? body : JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
	res.end(text);
}

/** The body as text; undefined when it is larger than MAX_BODY (read to the end all the same). */
export function readBody(req: HttpRequest): Promise<string | undefined> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size <= MAX_BODY) chunks.push(c);
		});
		req.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}
