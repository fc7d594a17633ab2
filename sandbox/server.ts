/**
 * The sandbox: an in-memory HTTP server that speaks the messaging instance interface
 * (shared/spec/messaging-instance-http-interface.md) the way real servers do
 * (shared/spec/server-behaviour.md), in one dialect per server. Dev/test tool only.
 *
 * Zero runtime dependencies: Node's http, crypto and global fetch.
 */
import { createServer, IncomingMessage as HttpRequest, ServerResponse, STATUS_CODES, Server } from 'http';
import { randomBytes, randomUUID, timingSafeEqual } from 'crypto';
import type { AddressInfo } from 'net';
import { validate } from './validate';
import { Dialect, RouteName, schemaFor, eventsOf } from './schemas';
import {
	IncomingMessage,
	MessageResult,
	COLOR_PATTERN,
	FONTS,
	TINY_PNG_BASE64,
	colorToArgb,
	hasAccount,
	isReaction,
	messageId,
	messageResult,
	numberCheck,
	pollCreation,
	toJid,
	upsertData,
} from './messages';
import { CHAT_PAGE_HTML } from './chatPage';

export type { Dialect } from './schemas';
export type { IncomingMessage, IncomingMedia } from './messages';
export { DOCUMENTED_EVENTS, V2_EVENTS, eventsOf } from './schemas';

export interface SandboxOptions {
	/** 0 or undefined = a free port */
	port?: number;
	/** default 127.0.0.1 */
	host?: string;
	/** default 'documented' */
	dialect?: Dialect;
	/** the server's global API key; default a random one */
	apiKey?: string;
	/** default [{ name: 'demo' }]; token = the instance's own key (random if omitted) */
	instances?: Array<{ name: string; token?: string }>;
	/** webhook retry policy; defaults as real servers: 10 attempts, 5000 ms doubling, 30000 ms timeout */
	delivery?: { attempts?: number; backoffMs?: number; timeoutMs?: number };
	/** one line per request / delivery (keys are never printed) */
	log?: (line: string) => void;
	/**
	 * Real servers hold a send (and Send Presence) for `delay` ms before answering. The sandbox
	 * blocks for min(delay, maxDelayMs); default 0 = answer at once (keeps tests fast).
	 */
	maxDelayMs?: number;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
	body: unknown;
	status: number;
	response: unknown;
	at: number;
}

export interface DeliveryAttempt {
	status?: number;
	error?: string;
	responseBody?: string;
}

export interface RecordedDelivery {
	instance: string;
	/** dotted, e.g. messages.upsert */
	event: string;
	url: string;
	headers: Record<string, string>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	attempts: DeliveryAttempt[];
}

export interface WebhookConfig {
	enabled: boolean;
	url: string;
	byEvents: boolean;
	base64: boolean;
	events: string[];
	headers: Record<string, string>;
}

/** One line of the per-instance chat log (see GET /_sandbox/chat/stream). */
export interface ChatEntry {
	/** increasing number, also the SSE event id */
	seq: number;
	/** ms since epoch */
	at: number;
	/** ISO time */
	time: string;
	direction: 'in' | 'out';
	instance: string;
	/** the chat JID (the contact, the group, or status@broadcast) */
	chat: string;
	kind:
		| 'text'
		| 'image'
		| 'audio'
		| 'video'
		| 'document'
		| 'list'
		| 'buttons'
		| 'location'
		| 'reaction'
		| 'status'
		| 'presence'
		| 'edit'
		| 'archive';
	/** a human summary of the entry */
	text: string;
	/** the raw request body (out) or the injected message (in) */
	body: unknown;
	/** id of the message (sent result or incoming key), when there is one */
	messageId?: string;
	/** incoming: the contact's display name */
	pushName?: string;
}

export interface Sandbox {
	readonly url: string;
	readonly apiKey: string;
	readonly dialect: Dialect;
	readonly requests: RecordedRequest[];
	readonly deliveries: RecordedDelivery[];
	/** the chat log of all instances, oldest first */
	readonly chat: ChatEntry[];
	clearRequests(): void;
	instanceToken(name: string): string;
	addInstance(name: string, token?: string): void;
	webhookOf(instance: string): WebhookConfig | undefined;
	failNext(opts: { status: number; message: string; times?: number; path?: string }): void;
	injectMessage(instance: string, msg: IncomingMessage): Promise<RecordedDelivery | undefined>;
	injectEvent(instance: string, event: string, data: unknown): Promise<RecordedDelivery | undefined>;
	injectConnectionUpdate(instance: string, state: 'open' | 'connecting' | 'close' | 'refused'): Promise<RecordedDelivery | undefined>;
	injectQrCode(instance: string): Promise<RecordedDelivery | undefined>;
	redeliver(delivery: RecordedDelivery): Promise<RecordedDelivery>;
	/** resolves once every delivery under way (e.g. SEND_MESSAGE after a send) has finished */
	settled(): Promise<void>;
	close(): Promise<void>;
}

interface StoredWebhook {
	id: string;
	url: string;
	headers: Record<string, string>;
	enabled: boolean;
	events: string[];
	webhookByEvents: boolean;
	webhookBase64: boolean;
	createdAt: string;
	updatedAt: string;
	instanceId: string;
}

interface Instance {
	name: string;
	token: string;
	instanceId: string;
	/** the account's own JID (sender of deliveries, participant of status posts) */
	jid: string;
	webhook?: StoredWebhook;
	settings?: Record<string, unknown>;
}

interface FailRule {
	status: number;
	message: string;
	times: number;
	path?: string;
}

interface Reply {
	status: number;
	/** undefined = empty body */
	body?: unknown;
}

const NO_RETRY = new Set([400, 401, 403, 404, 422]);
const MAX_BODY = 50 * 1024 * 1024;

const ROUTES_COMMON: Record<string, RouteName> = {
	'/message/sendText': 'sendText',
	'/message/sendList': 'sendList',
	'/message/sendButtons': 'sendButtons',
	'/message/sendLocation': 'sendLocation',
	'/message/sendStatus': 'sendStatus',
	'/message/sendReaction': 'sendReaction',
	'/settings/set': 'setSettings',
	'/chat/archiveChat': 'archiveChat',
	'/chat/updateMessage': 'updateMessage',
	'/chat/sendPresence': 'sendPresence',
	'/webhook/set': 'setWebhook',
};

/** `messages.upsert` / `MESSAGES_UPSERT` / `messages-upsert` -> `MESSAGES_UPSERT` */
export function configEventName(event: string): string {
	return event.replace(/[.-]/g, '_').toUpperCase();
}

/** `MESSAGES_UPSERT` / `messages.upsert` -> `messages.upsert` */
export function dottedEventName(event: string): string {
	return event.replace(/[_-]/g, '.').toLowerCase();
}

function errorBody(status: number, message: string): unknown {
	const error = STATUS_CODES[status] ?? 'Error';
	if (status >= 500 || status === 401) return { status, error, response: { message } };
	return { status, error, response: { message: [message] } };
}

function badRequest(message: unknown[]): Reply {
	return { status: 400, body: { status: 400, error: 'Bad Request', response: { message } } };
}

function serviceError(text: string): Reply {
	return badRequest([text]);
}

function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameSecret(given: string | undefined, expected: string): boolean {
	if (given === undefined) return false;
	const a = Buffer.from(given);
	const b = Buffer.from(expected);
	return a.length === b.length && timingSafeEqual(a, b);
}

function redactUrl(url: string): string {
	try {
		const u = new URL(url);
		return `${u.origin}/…`;
	} catch {
		return '(invalid url)';
	}
}

function flattenHeaders(req: HttpRequest): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers)) {
		if (v === undefined) continue;
		out[k] = Array.isArray(v) ? v.join(', ') : v;
	}
	return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

class SandboxImpl implements Sandbox {
	url = '';
	readonly apiKey: string;
	readonly dialect: Dialect;
	readonly requests: RecordedRequest[] = [];
	readonly deliveries: RecordedDelivery[] = [];
	readonly chat: ChatEntry[] = [];

	private readonly instances = new Map<string, Instance>();
	private readonly failRules: FailRule[] = [];
	private readonly pending = new Set<Promise<unknown>>();
	private readonly sleepers = new Set<() => void>();
	private readonly sseClients = new Set<{ res: ServerResponse; instance?: string }>();
	private readonly abort = new AbortController();
	private readonly attempts: number;
	private readonly backoffMs: number;
	private readonly timeoutMs: number;
	private readonly maxDelayMs: number;
	private readonly log: (line: string) => void;
	private instanceCount = 0;
	private chatSeq = 0;
	private closed = false;
	private keepAlive?: NodeJS.Timeout;
	readonly server: Server;

	constructor(private readonly options: SandboxOptions) {
		this.apiKey = options.apiKey ?? randomBytes(16).toString('hex').toUpperCase();
		this.dialect = options.dialect ?? 'documented';
		this.attempts = Math.max(1, options.delivery?.attempts ?? 10);
		this.backoffMs = options.delivery?.backoffMs ?? 5000;
		this.timeoutMs = options.delivery?.timeoutMs ?? 30000;
		this.maxDelayMs = options.maxDelayMs ?? 0;
		this.log = options.log ?? (() => undefined);
		for (const i of options.instances ?? [{ name: 'demo' }]) this.addInstance(i.name, i.token);
		this.server = createServer((req, res) => {
			this.handle(req, res).catch((err: unknown) => {
				const message = err instanceof Error ? err.message : String(err);
				this.log(`sandbox error: ${message}`);
				if (!res.headersSent) this.send(res, 500, errorBody(500, message));
				else res.end();
			});
		});
	}

	async listen(): Promise<void> {
		const host = this.options.host ?? '127.0.0.1';
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.options.port ?? 0, host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		const addr = this.server.address() as AddressInfo;
		const shownHost = host.includes(':') ? `[${host}]` : host;
		this.url = `http://${shownHost}:${addr.port}`;
		this.keepAlive = setInterval(() => {
			for (const c of this.sseClients) c.res.write(': keep-alive\n\n');
		}, 15000);
		this.keepAlive.unref();
	}

	// ---------------------------------------------------------------- public API

	clearRequests(): void {
		this.requests.length = 0;
		this.deliveries.length = 0;
	}

	instanceToken(name: string): string {
		return this.mustInstance(name).token;
	}

	addInstance(name: string, token?: string): void {
		const index = this.instanceCount++;
		this.instances.set(name, {
			name,
			token: token ?? randomUUID().toUpperCase(),
			instanceId: randomUUID(),
			jid: `55000000000${String(index % 100).padStart(2, '0')}@s.whatsapp.net`,
		});
	}

	webhookOf(instance: string): WebhookConfig | undefined {
		const w = this.instances.get(instance)?.webhook;
		if (!w) return undefined;
		return {
			enabled: w.enabled,
			url: w.url,
			byEvents: w.webhookByEvents,
			base64: w.webhookBase64,
			events: [...w.events],
			headers: { ...w.headers },
		};
	}

	failNext(opts: { status: number; message: string; times?: number; path?: string }): void {
		this.failRules.push({ status: opts.status, message: opts.message, times: opts.times ?? 1, path: opts.path });
	}

	async injectMessage(instance: string, msg: IncomingMessage): Promise<RecordedDelivery | undefined> {
		const inst = this.mustInstance(instance);
		const data = upsertData(msg, inst.instanceId, inst.webhook?.webhookBase64 ?? false);
		const key = data.key as { remoteJid: string; id: string };
		const summary = msg.media ? `[${msg.media.kind}] ${msg.media.caption ?? msg.text ?? msg.media.fileName ?? ''}`.trim() : (msg.text ?? '');
		this.addChat({
			direction: 'in',
			instance,
			chat: key.remoteJid,
			kind: msg.media ? msg.media.kind : 'text',
			text: summary,
			body: msg,
			messageId: key.id,
			pushName: data.pushName as string,
		});
		return this.track(this.deliver(inst, 'messages.upsert', data));
	}

	injectEvent(instance: string, event: string, data: unknown): Promise<RecordedDelivery | undefined> {
		const inst = this.mustInstance(instance);
		return this.track(this.deliver(inst, dottedEventName(event), data));
	}

	injectConnectionUpdate(instance: string, state: 'open' | 'connecting' | 'close' | 'refused'): Promise<RecordedDelivery | undefined> {
		return this.injectEvent(instance, 'connection.update', this.connectionData(this.mustInstance(instance), state));
	}

	injectQrCode(instance: string): Promise<RecordedDelivery | undefined> {
		return this.injectEvent(instance, 'qrcode.updated', this.qrData(this.mustInstance(instance)));
	}

	redeliver(delivery: RecordedDelivery): Promise<RecordedDelivery> {
		return this.track(this.post(delivery.instance, delivery.event, delivery.url, { ...delivery.headers }, delivery.body));
	}

	async settled(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		if (this.keepAlive) clearInterval(this.keepAlive);
		for (const wake of this.sleepers) wake();
		this.abort.abort();
		for (const c of this.sseClients) c.res.end();
		this.sseClients.clear();
		await this.settled();
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	// ---------------------------------------------------------------- helpers

	private mustInstance(name: string): Instance {
		const inst = this.instances.get(name);
		if (!inst) throw new Error(`The "${name}" instance does not exist`);
		return inst;
	}

	private track<T>(p: Promise<T>): Promise<T> {
		this.pending.add(p);
		const done = (): void => {
			this.pending.delete(p);
		};
		p.then(done, done);
		return p;
	}

	private sleep(ms: number): Promise<void> {
		if (ms <= 0 || this.closed) return Promise.resolve();
		return new Promise((resolve) => {
			const wake = (): void => {
				clearTimeout(timer);
				this.sleepers.delete(wake);
				resolve();
			};
			const timer = setTimeout(wake, ms);
			this.sleepers.add(wake);
		});
	}

	private connectionData(inst: Instance, state: string): Record<string, unknown> {
		const data: Record<string, unknown> = {
			instance: inst.name,
			state,
			statusReason: state === 'open' || state === 'connecting' ? 200 : 428,
		};
		if (state === 'open') {
			data.wuid = inst.jid;
			data.profileName = `Sandbox ${inst.name}`;
		}
		return data;
	}

	private qrData(inst: Instance): Record<string, unknown> {
		return {
			qrcode: {
				instance: inst.name,
				pairingCode: randomBytes(4).toString('hex').toUpperCase(),
				code: `2@${randomBytes(48).toString('base64')},${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')},1`,
				base64: `data:image/png;base64,${TINY_PNG_BASE64}`,
			},
		};
	}

	private addChat(e: Omit<ChatEntry, 'seq' | 'at' | 'time'>): ChatEntry {
		const at = Date.now();
		const entry: ChatEntry = { seq: ++this.chatSeq, at, time: new Date(at).toISOString(), ...e };
		this.chat.push(entry);
		for (const c of this.sseClients) {
			if (!c.instance || c.instance === entry.instance) c.res.write(sseFrame(entry));
		}
		return entry;
	}

	// ---------------------------------------------------------------- webhook delivery

	private async deliver(inst: Instance, event: string, data: unknown): Promise<RecordedDelivery | undefined> {
		const w = inst.webhook;
		if (!w || !w.enabled || this.closed) return undefined;
		if (!w.events.includes(configEventName(event))) return undefined;
		let url = w.url;
		if (w.webhookByEvents) {
			const u = new URL(w.url);
			u.pathname = `${u.pathname.replace(/\/+$/, '')}/${event.replace(/\./g, '-')}`;
			url = u.toString();
		}
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (this.dialect === 'v2') Object.assign(headers, w.headers);
		const body = {
			event,
			instance: inst.name,
			data,
			destination: w.url,
			date_time: new Date().toISOString(),
			sender: inst.jid,
			server_url: this.url,
			apikey: inst.token,
		};
		return this.post(inst.name, event, url, headers, body);
	}

	private async post(instance: string, event: string, url: string, headers: Record<string, string>, body: unknown): Promise<RecordedDelivery> {
		const delivery: RecordedDelivery = { instance, event, url, headers, body, attempts: [] };
		this.deliveries.push(delivery);
		const payload = JSON.stringify(body);
		for (let n = 1; n <= this.attempts && !this.closed; n++) {
			const attempt: DeliveryAttempt = {};
			delivery.attempts.push(attempt);
			const timeout = AbortSignal.timeout(this.timeoutMs);
			try {
				const res = await fetch(url, {
					method: 'POST',
					headers,
					body: payload,
					signal: AbortSignal.any([timeout, this.abort.signal]),
				});
				attempt.status = res.status;
				attempt.responseBody = (await res.text()).slice(0, 2000);
			} catch (err: unknown) {
				attempt.error = timeout.aborted ? `timeout after ${this.timeoutMs} ms` : err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
			}
			this.log(`webhook ${event} -> ${redactUrl(url)} attempt ${n}: ${attempt.status ?? attempt.error}`);
			if (attempt.status !== undefined && (attempt.status < 300 || NO_RETRY.has(attempt.status))) break;
			if (n < this.attempts) await this.sleep(this.backoffMs * 2 ** (n - 1));
		}
		return delivery;
	}

	// ---------------------------------------------------------------- HTTP

	private send(res: ServerResponse, status: number, body?: unknown, contentType = 'application/json; charset=utf-8'): void {
		const text = body === undefined ? '' : typeof body === 'string' && !contentType.startsWith('application/json') ? body : JSON.stringify(body);
		res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
		res.end(text);
	}

	private readBody(req: HttpRequest): Promise<string | undefined> {
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

	private async handle(req: HttpRequest, res: ServerResponse): Promise<void> {
		const started = Date.now();
		const method = (req.method ?? 'GET').toUpperCase();
		const parsed = new URL(req.url ?? '/', 'http://sandbox');
		const path = parsed.pathname;
		const query: Record<string, string> = {};
		parsed.searchParams.forEach((v, k) => {
			query[k] = v;
		});

		if (path === '/chat' || path === '/chat/' || path.startsWith('/_sandbox/') || (path === '/' && method === 'GET')) {
			await this.control(method, path, query, req, res);
			return;
		}

		const raw = await this.readBody(req);
		const record: RecordedRequest = {
			method,
			path,
			query,
			headers: flattenHeaders(req),
			rawBody: raw ?? '',
			body: undefined,
			status: 0,
			response: undefined,
			at: started,
		};
		this.requests.push(record);
		const reply = raw === undefined ? { status: 413, body: errorBody(413, 'request entity too large') } : await this.route(method, path, record);
		record.status = reply.status;
		record.response = reply.body;
		this.send(res, reply.status, reply.body);
		this.log(`${method} ${path} ${reply.status} ${Date.now() - started}ms`);
	}

	private async route(method: string, path: string, record: RecordedRequest): Promise<Reply> {
		const m = /^(\/[^/]+\/[^/]+)\/([^/]+)\/?$/.exec(path);
		let route: RouteName | 'findWebhook' | undefined;
		if (m) {
			const prefix = m[1];
			const numbersPath = this.dialect === 'v2' ? '/chat/whatsappNumbers' : '/chat/messagingNumbers';
			if (method === 'POST') route = prefix === numbersPath ? 'checkNumbers' : ROUTES_COMMON[prefix];
			else if (method === 'GET' && this.dialect === 'v2' && prefix === '/webhook/find') route = 'findWebhook';
		}
		// v2 servers list their instances for the global key (or, for an instance token, that
		// instance alone); it is the one route without an instance, used by credential tests.
		if (this.dialect === 'v2' && method === 'GET' && /^\/instance\/fetchInstances\/?$/.test(path)) {
			return this.fetchInstances(record.headers['apikey']);
		}
		// 1. the route exists
		if (!m || !route) {
			return { status: 404, body: { status: 404, error: 'Not Found', response: { message: [`Cannot ${method} ${path}`] } } };
		}
		// injected failures (failNext) answer before anything else the server checks
		const rule = this.failRules.find((r) => !r.path || path.includes(r.path));
		if (rule) {
			rule.times -= 1;
			if (rule.times <= 0) this.failRules.splice(this.failRules.indexOf(rule), 1);
			return { status: rule.status, body: errorBody(rule.status, rule.message) };
		}
		// 2. the instance exists (even with a missing or wrong key)
		let name = m[2];
		try {
			name = decodeURIComponent(name);
		} catch {
			// keep it as it came
		}
		const inst = this.instances.get(name);
		if (!inst) {
			return { status: 404, body: { status: 404, error: 'Not Found', response: { message: [`The "${name}" instance does not exist`] } } };
		}
		// 3. the apikey: the global key or the instance's own token
		const given = record.headers['apikey'];
		if (!sameSecret(given, this.apiKey) && !sameSecret(given, inst.token)) {
			return { status: 401, body: { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } } };
		}
		if (route === 'findWebhook') return { status: 200, body: inst.webhook ? { ...inst.webhook } : null };
		// 4. the JSON body; without a JSON content type the body parser leaves the body empty
		let body: unknown = {};
		const contentType = record.headers['content-type'] ?? '';
		if (/\bjson\b/i.test(contentType)) {
			if (record.rawBody.trim() !== '') {
				try {
					body = JSON.parse(record.rawBody);
				} catch (err: unknown) {
					return badRequest([err instanceof Error ? err.message : 'Unexpected end of JSON input']);
				}
			}
			record.body = body;
		}
		// 5. the body schema (a type error on the body itself reads "instance is not of a type(s) object")
		const errors = validate(body, schemaFor(route, this.dialect));
		if (errors.length > 0) {
			if (route === 'checkNumbers') return { status: 400, body: { status: 400, error: 'Bad Request', message: [errors] } };
			return badRequest([errors]);
		}
		return this.serve(route, inst, body as Body);
	}

	private fetchInstances(given: string | undefined): Reply {
		const all = [...this.instances.values()];
		const visible = sameSecret(given, this.apiKey) ? all : all.filter((inst) => sameSecret(given, inst.token));
		if (visible.length === 0) {
			return { status: 401, body: { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } } };
		}
		return {
			status: 200,
			body: visible.map((inst) => ({ id: inst.instanceId, name: inst.name, connectionStatus: "open", ownerJid: inst.jid })),
		};
	}

	// ---------------------------------------------------------------- the twelve endpoints

	private async serve(route: RouteName, inst: Instance, body: Body): Promise<Reply> {
		const v2 = this.dialect === 'v2';
		// the service layer: checks beyond the schema, then the "has an account" check
		const problem = this.serviceCheck(route, body);
		if (problem) return serviceError(problem);
		if (['sendText', 'sendList', 'sendButtons', 'sendLocation', 'sendPresence'].includes(route) && !hasAccount(body.number)) {
			return badRequest([numberCheck(String(body.number))]);
		}
		const delay = route === 'sendPresence' ? (v2 ? body.delay : body.options.delay) : body.delay;
		if (typeof delay === 'number') await this.sleep(Math.min(delay, this.maxDelayMs));

		let result: MessageResult | undefined;
		const out = (kind: ChatEntry['kind'], chat: string, text: string, id?: string): void => {
			this.addChat({ direction: 'out', instance: inst.name, chat, kind, text, body, messageId: id });
		};
		switch (route) {
			case 'sendText': {
				result = messageResult(toJid(body.number), { extendedTextMessage: { text: body.text } });
				out('text', result.key.remoteJid, body.text, result.key.id);
				break;
			}
			case 'sendList': {
				const sections: Array<{ title: string; rows: Array<{ title: string }> }> = v2 ? body.sections : body.values;
				const rows = sections.flatMap((s) => s.rows.map((r) => r.title));
				result = messageResult(toJid(body.number), pollCreation(body.title, rows));
				out('list', result.key.remoteJid, `${body.title}\n${body.description}\n[${body.buttonText}] ${rows.join(' · ')}`, result.key.id);
				break;
			}
			case 'sendButtons': {
				const labels = (body.buttons as Array<{ displayText?: string; title?: string }>).map((b) => b.displayText ?? b.title ?? '');
				result = messageResult(toJid(body.number), pollCreation(body.title, labels));
				out('buttons', result.key.remoteJid, `${body.title}\n${body.description}\n${labels.map((l) => `[${l}]`).join(' ')}`, result.key.id);
				break;
			}
			case 'sendLocation': {
				result = messageResult(toJid(body.number), {
					locationMessage: {
						degreesLatitude: body.latitude,
						degreesLongitude: body.longitude,
						name: body.name,
						address: body.address,
						contextInfo: {},
					},
				});
				out('location', result.key.remoteJid, `📍 ${body.name}, ${body.address} (${body.latitude}, ${body.longitude})`, result.key.id);
				break;
			}
			case 'sendStatus': {
				let content: Record<string, unknown>;
				if (body.type === 'text') {
					content = { extendedTextMessage: { text: body.content, backgroundArgb: colorToArgb(body.backgroundColor), font: FONTS[body.font - 1] } };
				} else {
					const mimetype = { image: 'image/jpeg', audio: 'audio/mp4', video: 'video/mp4' }[body.type as 'image' | 'audio' | 'video'];
					content = { [`${body.type}Message`]: { url: body.content, mimetype, ...(body.type === 'audio' ? {} : { caption: body.caption }) } };
				}
				result = { ...messageResult('status@broadcast', content), participant: inst.jid };
				out('status', 'status@broadcast', `status (${body.type}): ${body.content}`, result.key.id);
				break;
			}
			case 'sendReaction': {
				const key = { remoteJid: body.key.remoteJid, fromMe: body.key.fromMe ?? false, id: body.key.id };
				const reaction: string = body.reaction ?? '';
				result = messageResult(key.remoteJid, { reactionMessage: { key, text: reaction, senderTimestampMs: String(Date.now()) } });
				out('reaction', key.remoteJid, reaction === '' ? `reaction removed from ${key.id}` : `${reaction} on ${key.id}`, result.key.id);
				break;
			}
			case 'setSettings': {
				inst.settings = { ...body };
				const settings = v2
					? body
					: {
							reject_call: body.rejectCall,
							groups_ignore: body.groupsIgnore,
							always_online: body.alwaysOnline,
							read_messages: body.readMessages,
							read_status: body.readStatus,
							sync_full_history: body.syncFullHistory,
						};
				return { status: 201, body: { settings: { instanceName: inst.name, settings } } };
			}
			case 'archiveChat': {
				out('archive', toJid(body.chat), body.archive ? 'chat archived' : 'chat unarchived');
				return { status: 201, body: { chatId: body.chat, archived: body.archive } };
			}
			case 'checkNumbers':
				return { status: 200, body: (body.numbers as string[]).map((n) => numberCheck(n)) };
			case 'updateMessage': {
				out('edit', body.key.remoteJid, `edited ${body.key.id}: ${body.text}`, body.key.id);
				return { status: 200 };
			}
			case 'sendPresence': {
				const presence = v2 ? body.presence : body.options.presence;
				out('presence', toJid(body.number), `${presence} (${delay} ms)`);
				return { status: 201 };
			}
			case 'setWebhook':
				return this.setWebhook(inst, body);
		}
		this.track(this.deliver(inst, 'send.message', result));
		return { status: 201, body: result };
	}

	private serviceCheck(route: RouteName, body: Body): string | undefined {
		switch (route) {
			case 'sendText':
				return body.text.trim() === '' ? 'Text is required' : undefined;
			case 'sendButtons': {
				if (this.dialect !== 'v2') return undefined;
				const types = (body.buttons as Array<{ type: string }>).map((b) => b.type);
				const replies = types.filter((t) => t === 'reply').length;
				if (replies > 3) return 'Maximum of 3 reply buttons allowed';
				if (replies > 0 && replies < types.length) return 'Reply buttons cannot be mixed with other button types';
				return undefined;
			}
			case 'sendStatus': {
				if (body.content.trim() === '') return 'Content is required';
				if (!body.allContacts && !(Array.isArray(body.statusJidList) && body.statusJidList.length > 0)) {
					return 'statusJidList is required when allContacts is false';
				}
				if (body.type === 'text') {
					if (!COLOR_PATTERN.test(body.backgroundColor)) return 'backgroundColor must be a hex colour like #RRGGBB';
					if (!Number.isInteger(body.font) || body.font < 1 || body.font > 5) return 'font must be one of 1, 2, 3, 4, 5';
				} else if (!/^https?:\/\/\S+$/.test(body.content)) {
					return `content must be the URL of the ${body.type}`;
				}
				return undefined;
			}
			case 'sendReaction':
				if (!isObject(body.key) || !body.key.id || !body.key.remoteJid) return 'Key is required';
				return body.reaction === undefined || isReaction(body.reaction) ? undefined : 'Reaction must be a single emoji or an empty string';
			case 'updateMessage':
				return body.text.trim() === '' ? 'Text is required' : undefined;
			case 'setWebhook': {
				const url: string = this.dialect === 'v2' ? body.webhook.url : body.url;
				try {
					const u = new URL(url);
					if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Invalid "url" property';
				} catch {
					return 'Invalid "url" property';
				}
				return undefined;
			}
			default:
				return undefined;
		}
	}

	private setWebhook(inst: Instance, body: Body): Reply {
		const w = this.dialect === 'v2' ? body.webhook : body;
		const v2 = this.dialect === 'v2';
		const now = new Date().toISOString();
		const stored: StoredWebhook = {
			id: inst.webhook?.id ?? 'wh' + randomBytes(11).toString('hex'),
			url: w.url,
			headers: v2 && isObject(w.headers) ? { ...(w.headers as Record<string, string>) } : {},
			enabled: w.enabled,
			events: Array.isArray(w.events) ? [...w.events] : [],
			webhookByEvents: (v2 ? w.byEvents : w.webhookByEvents) ?? false,
			webhookBase64: (v2 ? w.base64 : w.webhookBase64) ?? false,
			createdAt: inst.webhook?.createdAt ?? now,
			updatedAt: now,
			instanceId: inst.instanceId,
		};
		inst.webhook = stored;
		if (v2) return { status: 201, body: { ...stored } };
		return { status: 201, body: { webhook: { instanceName: inst.name, webhook: { url: stored.url, events: stored.events, enabled: stored.enabled } } } };
	}

	// ---------------------------------------------------------------- control routes (/_sandbox/*, /chat)

	private publicDelivery(d: RecordedDelivery): RecordedDelivery {
		const headers: Record<string, string> = {};
		for (const [k, v] of Object.entries(d.headers)) headers[k] = k.toLowerCase() === 'content-type' ? v : '***';
		return { ...d, headers, body: isObject(d.body) && 'apikey' in d.body ? { ...d.body, apikey: '***' } : d.body };
	}

	private async control(method: string, path: string, query: Record<string, string>, req: HttpRequest, res: ServerResponse): Promise<void> {
		const json = (status: number, body: unknown): void => this.send(res, status, body);
		const readJson = async (): Promise<Record<string, unknown> | undefined> => {
			const raw = (await this.readBody(req)) ?? '';
			if (raw.trim() === '') return {};
			try {
				const v: unknown = JSON.parse(raw);
				return isObject(v) ? v : undefined;
			} catch {
				return undefined;
			}
		};
		const key = `${method} ${path.replace(/\/+$/, '') || '/'}`;
		switch (key) {
			case 'GET /':
				return json(200, { status: 200, message: 'Sandbox messaging instance server is working', dialect: this.dialect, chat: `${this.url}/chat` });
			case 'GET /chat':
				return this.send(res, 200, CHAT_PAGE_HTML, 'text/html; charset=utf-8');
			case 'GET /_sandbox/state':
				return json(200, {
					url: this.url,
					dialect: this.dialect,
					events: eventsOf(this.dialect),
					instances: [...this.instances.values()].map((i) => ({
						name: i.name,
						jid: i.jid,
						instanceId: i.instanceId,
						webhook: i.webhook ? { ...i.webhook, headers: Object.fromEntries(Object.keys(i.webhook.headers).map((h) => [h, '***'])) } : null,
						settings: i.settings ?? null,
						chat: this.chat.filter((c) => c.instance === i.name).length,
					})),
					counts: { requests: this.requests.length, deliveries: this.deliveries.length, chat: this.chat.length },
				});
			case 'GET /_sandbox/requests':
				return json(
					200,
					this.requests.map((r) => ({ ...r, headers: 'apikey' in r.headers ? { ...r.headers, apikey: '***' } : r.headers })),
				);
			case 'GET /_sandbox/deliveries':
				return json(200, this.deliveries.map((d) => this.publicDelivery(d)));
			case 'POST /_sandbox/reset':
				await this.readBody(req);
				this.clearRequests();
				this.chat.length = 0;
				this.failRules.length = 0;
				for (const c of this.sseClients) c.res.write('event: reset\ndata: {}\n\n');
				return json(200, { ok: true });
			case 'POST /_sandbox/fail': {
				const b = await readJson();
				if (!b || typeof b.status !== 'number' || typeof b.message !== 'string') {
					return json(400, { error: 'body must be {"status": number, "message": string, "times"?: number, "path"?: string}' });
				}
				this.failNext({
					status: b.status,
					message: b.message,
					times: typeof b.times === 'number' ? b.times : undefined,
					path: typeof b.path === 'string' ? b.path : undefined,
				});
				return json(200, { ok: true });
			}
			case 'POST /_sandbox/messages': {
				const b = await readJson();
				if (!b || typeof b.instance !== 'string' || typeof b.from !== 'string' || b.from.trim() === '') {
					return json(400, { error: 'body must be {"instance": string, "from": string, "text"?: string, "pushName"?: string, "media"?: {...}, "group"?: string}' });
				}
				if (typeof b.text !== 'string' && !isObject(b.media)) return json(400, { error: 'give "text" or "media"' });
				const media = b.media;
				if (
					media !== undefined &&
					!(isObject(media) && ['image', 'audio', 'video', 'document'].includes(String(media.kind)) && typeof media.mimetype === 'string' && typeof media.base64 === 'string')
				) {
					return json(400, { error: '"media" must be {"kind": "image"|"audio"|"video"|"document", "mimetype": string, "base64": string, "fileName"?: string, "caption"?: string}' });
				}
				if (!this.instances.has(b.instance)) return json(404, { error: `The "${b.instance}" instance does not exist` });
				const before = this.chat.length;
				const delivery = await this.injectMessage(b.instance, {
					from: b.from.trim(),
					text: typeof b.text === 'string' ? b.text : undefined,
					pushName: typeof b.pushName === 'string' ? b.pushName : undefined,
					fromMe: b.fromMe === true,
					id: typeof b.id === 'string' ? b.id : undefined,
					group: typeof b.group === 'string' ? b.group : undefined,
					media: isObject(b.media) ? (b.media as unknown as IncomingMessage['media']) : undefined,
				});
				return json(200, { entry: this.chat[before] ?? null, delivered: summarize(delivery), delivery: delivery ? this.publicDelivery(delivery) : null });
			}
			case 'POST /_sandbox/events': {
				const b = await readJson();
				if (!b || typeof b.instance !== 'string' || typeof b.event !== 'string') {
					return json(400, { error: 'body must be {"instance": string, "event": string, "data"?: any}' });
				}
				const inst = this.instances.get(b.instance);
				if (!inst) return json(404, { error: `The "${b.instance}" instance does not exist` });
				const dotted = dottedEventName(b.event);
				let data: unknown = b.data;
				if (data === undefined && dotted === 'connection.update') data = this.connectionData(inst, 'open');
				if (data === undefined && dotted === 'qrcode.updated') data = this.qrData(inst);
				if (dotted === 'connection.update' && isObject(data) && Object.keys(data).length === 1 && typeof data.state === 'string') {
					data = this.connectionData(inst, data.state);
				}
				const delivery = await this.injectEvent(b.instance, dotted, data ?? {});
				return json(200, { delivered: summarize(delivery), delivery: delivery ? this.publicDelivery(delivery) : null });
			}
			case 'GET /_sandbox/chat/history':
				return json(200, this.chat.filter((c) => !query.instance || c.instance === query.instance));
			case 'GET /_sandbox/chat/stream': {
				res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
				res.write('retry: 2000\n\n');
				const lastId = Number(req.headers['last-event-id'] ?? query.since ?? 0);
				const client = { res, instance: query.instance || undefined };
				if (query.replay !== '0') {
					for (const e of this.chat) {
						if (e.seq > lastId && (!client.instance || e.instance === client.instance)) res.write(sseFrame(e));
					}
				}
				this.sseClients.add(client);
				res.on('close', () => this.sseClients.delete(client));
				return;
			}
			default:
				await this.readBody(req);
				return json(404, { status: 404, error: 'Not Found', response: { message: [`Cannot ${method} ${path}`] } });
		}
	}
}

function sseFrame(entry: ChatEntry): string {
	return `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
}

/** A short verdict for the control routes: did the webhook take the event? */
function summarize(d: RecordedDelivery | undefined): { ok: boolean; reason: string; status?: number; attempts: number } {
	if (!d) return { ok: false, reason: 'no webhook enabled for this event', attempts: 0 };
	const last = d.attempts[d.attempts.length - 1];
	const ok = last?.status !== undefined && last.status >= 200 && last.status < 300;
	return { ok, reason: ok ? 'delivered' : (last?.error ?? `answered ${last?.status}`), status: last?.status, attempts: d.attempts.length };
}

/** Starts a sandbox server; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sb = new SandboxImpl(options);
	await sb.listen();
	return sb;
}

// keep the helper reachable for tools that want ids looking like the server's
export { messageId };
