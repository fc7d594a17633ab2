import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A server that misbehaves on purpose, for the node's transport: it hangs, trickles, resets,
 * redirects (to itself or to a second host that records anything reaching it), answers HTML,
 * broken JSON, empty bodies, 429 with Retry-After, and echoes the request's headers — the API
 * key among them — into its error bodies. Real sockets on 127.0.0.1.
 */

export type Behaviour =
	| 'ok'
	| 'hang'
	| 'trickle'
	| 'reset'
	| 'redirect-same-host'
	| 'redirect-other-host'
	| 'moved-permanently'
	| 'redirect-to-https'
	| 'html'
	| 'invalid-json'
	| 'empty'
	| 'null'
	| 'rate-limited'
	| 'rate-limited-until'
	| 'echo-key-400'
	| 'echo-key-500'
	| 'list-of-strings'
	| 'drop-after-headers'
	| 'echo-key-200-error'
	/** An answer made from the request's API key: `(apiKey) => [status, body]`, for generated answers. */
	| Echo;

export type Echo = (apiKey: string) => [number, unknown];

/** A test's own handler for one request, e.g. to stream a file of a given size. */
export type Responder = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface Seen {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	body: string;
}

/** A JSON answer, optionally after a wait. */
export interface Answer {
	status?: number;
	json: unknown;
	delayMs?: number;
}

export interface HostileServer {
	url: string;
	/** The second host: anything that reaches it was sent where it must not go. */
	otherUrl: string;
	seen: Seen[];
	seenByOther: Seen[];
	/** Behaviours for the next requests, in order; `ok` once the list is used up. */
	script(...behaviours: Behaviour[]): void;
	/**
	 * How every request without a scripted behaviour is answered, instead of `ok`, until set
	 * to undefined: a server that repeats full pages, answers slowly, or answers any JSON.
	 */
	answerAll(answer?: (request: Seen) => Answer): void;
	/** A test's own answers for the next requests (before any scripted behaviour), e.g. a file of a given size. */
	respond(...handlers: Responder[]): void;
	/** A test's own answer for any request it chooses (it returns true when it answered), before everything else, until set to undefined. */
	intercept(handler?: (req: IncomingMessage, res: ServerResponse) => boolean): void;
	close(): Promise<void>;
}

function read(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', () => resolve(''));
	});
}

function listen(server: Server): Promise<string> {
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

export async function startHostileServer(): Promise<HostileServer> {
	const seen: Seen[] = [];
	const seenByOther: Seen[] = [];
	let queue: Behaviour[] = [];
	let answerAll: ((request: Seen) => Answer) | undefined;
	let responders: Responder[] = [];
	let interceptor: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();

	const other = createServer(async (req, res) => {
		seenByOther.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: await read(req) });
		json(res, 200, { stolen: true });
	});
	const otherUrl = await listen(other);

	const server = createServer(async (req, res) => {
		const body = await read(req);
		const request: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
		seen.push(request);
		if (interceptor?.(req, res)) return;
		const responder = responders.shift();
		if (responder) return await responder(req, res);
		if (queue.length === 0 && answerAll) {
			const answer = answerAll(request);
			if (!answer.delayMs) return json(res, answer.status ?? 200, answer.json);
			const timer = setTimeout(() => json(res, answer.status ?? 200, answer.json), answer.delayMs);
			timers.add(timer);
			return;
		}
		const behaviour = queue.shift() ?? 'ok';
		if (typeof behaviour === 'function') {
			const [status, answer] = behaviour(String(req.headers.apikey ?? ''));
			return json(res, status, answer);
		}
		switch (behaviour) {
			case 'ok':
				return json(res, 200, { key: { id: 'OK1' }, status: 'PENDING' });
			case 'hang':
				return; // never answers
			case 'trickle': {
				res.writeHead(200, { 'content-type': 'application/json' });
				const timer = setInterval(() => res.write(' '), 200);
				timers.add(timer);
				res.on('close', () => clearInterval(timer));
				return;
			}
			case 'reset':
				req.socket.destroy();
				return;
			case 'redirect-same-host':
				res.writeHead(307, { location: '/elsewhere' });
				return res.end();
			case 'redirect-other-host':
				res.writeHead(307, { location: `${otherUrl}/message/sendText/demo` });
				return res.end();
			case 'redirect-to-https':
				res.writeHead(308, { location: `https://${String(req.headers.host)}${req.url ?? '/'}` });
				return res.end();
			case 'moved-permanently':
				res.writeHead(301, { location: `${otherUrl}/` });
				return res.end();
			case 'html':
				res.writeHead(200, { 'content-type': 'text/html' });
				return res.end('<html><body>Welcome to nginx!</body></html>');
			case 'invalid-json':
				res.writeHead(200, { 'content-type': 'application/json' });
				return res.end('{"key": {');
			case 'empty':
				res.writeHead(200);
				return res.end();
			case 'null':
				return json(res, 200, null);
			case 'list-of-strings':
				return json(res, 200, ['a', 'b']);
			case 'rate-limited':
				return json(res, 429, { status: 429, error: 'Too Many Requests' }, { 'retry-after': '7' });
			case 'rate-limited-until':
				return json(res, 429, { status: 429, error: 'Too Many Requests' }, { 'retry-after': new Date(Date.now() + 120_000).toUTCString() });
			case 'echo-key-400':
				return json(res, 400, {
					status: 400,
					error: 'Bad Request',
					response: { message: [`key ${String(req.headers.apikey)} is not allowed here`] },
					request: { headers: req.headers },
				});
			case 'drop-after-headers':
				res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
				res.write('{"key": {"id": "partial');
				setTimeout(() => req.socket.destroy(), 20);
				return;
			case 'echo-key-200-error':
				return json(res, 200, { error: true, message: `Invalid apikey ${String(req.headers.apikey)} ${'x'.repeat(1_000_000)}` });
			case 'echo-key-500':
				return json(res, 500, { status: 500, error: 'Internal Server Error', response: { message: `crashed on ${String(req.headers.apikey)}` }, [String(req.headers.apikey)]: true });
		}
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	const url = await listen(server);

	return {
		url,
		otherUrl,
		seen,
		seenByOther,
		script: (...behaviours) => {
			queue = [...behaviours];
		},
		answerAll: (answer) => {
			answerAll = answer;
		},
		respond: (...handlers) => {
			responders = [...handlers];
		},
		intercept: (handler) => {
			interceptor = handler;
		},
		close: async () => {
			for (const timer of timers) clearTimeout(timer);
			for (const socket of sockets) socket.destroy();
			await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => other.close(r))]);
		},
	};
}

/** A hostile server for the enclosing describe block, with its records and answers cleared before each test. */
export function useHostileServer(): { readonly current: HostileServer } {
	const holder = {} as { current: HostileServer };
	beforeAll(async () => {
		holder.current = await startHostileServer();
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => {
		holder.current.seen.length = 0;
		holder.current.seenByOther.length = 0;
		holder.current.script();
		holder.current.answerAll(undefined);
		holder.current.respond();
		holder.current.intercept(undefined);
	});
	return holder;
}
