/**
 * The sandbox's own routes (GET /, GET /chat, /_sandbox/*): state, recordings, injection of
 * incoming messages and events, injected failures, the chat page's history and live stream.
 * None of them is part of the interface; no key needed, no secret shown.
 */
import type { IncomingMessage as HttpRequest, ServerResponse } from 'http';
import type { ChatEntry, Dialect, Instance, RecordedDelivery, RecordedRequest } from './types';
import type { IncomingMessage } from './messages';
import { configEventName, eventsOf, dottedEventName } from './events';
import { isObject, maskUrl, readBody, send } from './http';
import { summarize } from './delivery';
import { CHAT_PAGE_HTML } from './chatPage';
import type { MediaStore } from './media';
import type { FailOptions, LateOptions, SendRefusalOptions } from './failures';
import { SEND_REFUSALS } from './failures';
import { connectionData, qrData } from './injection';
import { sseFrame } from './liveChat';

export interface ControlHost {
	readonly url: string;
	readonly dialect: Dialect;
	readonly requests: RecordedRequest[];
	readonly deliveries: RecordedDelivery[];
	readonly chat: ChatEntry[];
	instances(): Instance[];
	instance(name: string): Instance | undefined;
	reset(): void;
	failNext(opts: FailOptions): void;
	refuseSends(opts: SendRefusalOptions): void;
	answerLate(opts: LateOptions): void;
	injectMessage(instance: string, msg: IncomingMessage): Promise<RecordedDelivery | undefined>;
	injectEvent(instance: string, event: string, data: unknown): Promise<RecordedDelivery | undefined>;
	/** adds a live chat client; returns the function that removes it */
	addStream(res: ServerResponse, instance: string | undefined): () => void;
	readonly media: MediaStore;
	/** the phone scans the instance's QR code (a `connecting` instance turns `open`) */
	scan(instance: string): Promise<boolean>;
}

/** Is this one of the sandbox's own routes? */
export function isControlPath(path: string): boolean {
	return path === '/chat' || path === '/chat/' || path.startsWith('/_sandbox/');
}

/** A delivery as shown: header values and the instance token masked. */
export function publicDelivery(d: RecordedDelivery): RecordedDelivery {
	const headers: Record<string, string> = {};
	for (const [k, v] of Object.entries(d.headers)) headers[k] = k.toLowerCase() === 'content-type' ? v : '***';
	return { ...d, headers, body: isObject(d.body) && 'apikey' in d.body ? { ...d.body, apikey: '***' } : d.body };
}

async function readJson(req: HttpRequest): Promise<Record<string, unknown> | undefined> {
	const raw = (await readBody(req)) ?? '';
	if (raw.trim() === '') return {};
	try {
		const v: unknown = JSON.parse(raw);
		return isObject(v) ? v : undefined;
	} catch {
		return undefined;
	}
}

/** What a control route's handler gets. */
interface ControlRequest {
	sb: ControlHost;
	query: Record<string, string>;
	req: HttpRequest;
	res: ServerResponse;
	/** the parts a pattern route's path captured */
	params: string[];
	json(status: number, body: unknown): void;
}

/** One of the sandbox's own routes: a path (trailing slashes ignored) or a pattern, and its handler. */
interface ControlRoute {
	method: 'GET' | 'POST';
	path: string | RegExp;
	handle(r: ControlRequest): void | Promise<void>;
}

function state({ sb, json }: ControlRequest): void {
	json(200, {
		url: sb.url,
		dialect: sb.dialect,
		events: eventsOf(sb.dialect),
		instances: sb.instances().map((i) => ({
			name: i.name,
			jid: i.jid,
			instanceId: i.instanceId,
			// the URL may carry the trigger's secret (`?secret=`): query values and user info masked
			webhook: i.webhook
				? { ...i.webhook, url: maskUrl(i.webhook.url), headers: Object.fromEntries(Object.keys(i.webhook.headers).map((h) => [h, '***'])) }
				: null,
			settings: i.settings ?? null,
			chat: sb.chat.filter((c) => c.instance === i.name).length,
			// the phone's connection (Instance → Connect, a scan): instances given at start are open
			connection: i.account?.state ?? 'open',
		})),
		counts: { requests: sb.requests.length, deliveries: sb.deliveries.length, chat: sb.chat.length },
	});
}

function recordedRequests({ sb, query, json }: ControlRequest): void {
	// `?since=<ms since epoch>`: only the requests received from then on
	const since = Number(query.since ?? 0) || 0;
	json(
		200,
		sb.requests.filter((r) => r.at >= since).map((r) => ({ ...r, headers: 'apikey' in r.headers ? { ...r.headers, apikey: '***' } : r.headers })),
	);
}

async function reset({ sb, req, json }: ControlRequest): Promise<void> {
	await readBody(req);
	sb.reset();
	json(200, { ok: true });
}

async function failNext({ sb, req, json }: ControlRequest): Promise<void> {
	const b = await readJson(req);
	if (!b || typeof b.status !== 'number' || typeof b.message !== 'string') {
		return json(400, { error: 'body must be {"status": number, "message": string, "times"?: number, "path"?: string}' });
	}
	sb.failNext({
		status: b.status,
		message: b.message,
		times: typeof b.times === 'number' ? b.times : undefined,
		path: typeof b.path === 'string' ? b.path : undefined,
	});
	json(200, { ok: true });
}

/** Arms refuseSends: WhatsApp refuses sends after a burst (rate-overlimit) or for good (logged out). */
async function refuseSends({ sb, req, json }: ControlRequest): Promise<void> {
	const b = await readJson(req);
	const count = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
	if (!b || typeof b.kind !== 'string' || !Object.hasOwn(SEND_REFUSALS, b.kind) || !count(b.after) || !count(b.times)) {
		return json(400, { error: `body must be {"kind": ${Object.keys(SEND_REFUSALS).map((k) => `"${k}"`).join(' | ')}, "after"?: number, "times"?: number}` });
	}
	sb.refuseSends({ kind: b.kind as SendRefusalOptions['kind'], after: b.after as number | undefined, times: b.times as number | undefined });
	json(200, { ok: true });
}

/** Arms answerLate: the next request(s) to `path` run, then are answered `ms` later. */
async function answerLate({ sb, req, json }: ControlRequest): Promise<void> {
	const b = await readJson(req);
	if (!b || typeof b.ms !== 'number' || !Number.isFinite(b.ms) || b.ms < 0 || b.ms > 600000) {
		return json(400, { error: 'body must be {"ms": number (0 to 600000), "times"?: number, "path"?: string}' });
	}
	sb.answerLate({ ms: b.ms, times: typeof b.times === 'number' ? b.times : undefined, path: typeof b.path === 'string' ? b.path : undefined });
	json(200, { ok: true });
}

async function injectMessage({ sb, req, json }: ControlRequest): Promise<void> {
	const b = await readJson(req);
	if (!b || typeof b.instance !== 'string' || typeof b.from !== 'string' || b.from.trim() === '') {
		return json(400, { error: 'body must be {"instance": string, "from": string, "text"?: string, "pushName"?: string, "media"?: {...}, "group"?: string}' });
	}
	if (typeof b.text !== 'string' && !isObject(b.media) && b.contextInfoOnly !== true) return json(400, { error: 'give "text", "media" or "contextInfoOnly": true' });
	const media = b.media;
	if (
		media !== undefined &&
		!(isObject(media) && ['image', 'audio', 'video', 'document', 'sticker'].includes(String(media.kind)) && typeof media.mimetype === 'string' && typeof media.base64 === 'string')
	) {
		return json(400, { error: '"media" must be {"kind": "image"|"audio"|"video"|"document"|"sticker", "mimetype": string, "base64": string, "fileName"?: string, "caption"?: string}' });
	}
	if (!sb.instance(b.instance)) return json(404, { error: `The "${b.instance}" instance does not exist` });
	const before = sb.chat.length;
	const delivery = await sb.injectMessage(b.instance, {
		from: b.from.trim(),
		text: typeof b.text === 'string' ? b.text : undefined,
		pushName: typeof b.pushName === 'string' ? b.pushName : undefined,
		fromMe: b.fromMe === true,
		id: typeof b.id === 'string' ? b.id : undefined,
		group: typeof b.group === 'string' ? b.group : undefined,
		lid: typeof b.lid === 'string' ? b.lid : undefined,
		contextInfoOnly: b.contextInfoOnly === true,
		sentAt: typeof b.sentAt === 'number' && Number.isFinite(b.sentAt) ? b.sentAt : undefined,
		media: isObject(b.media) ? (b.media as unknown as IncomingMessage['media']) : undefined,
	});
	const entry = sb.chat[before] ?? null;
	json(200, { entry, delivered: summarize(delivery), ...hint(sb, b.instance, 'MESSAGES_UPSERT', delivery), delivery: delivery ? publicDelivery(delivery) : null });
}

async function injectEvent({ sb, req, json }: ControlRequest): Promise<void> {
	const b = await readJson(req);
	if (!b || typeof b.instance !== 'string' || typeof b.event !== 'string') {
		return json(400, { error: 'body must be {"instance": string, "event": string, "data"?: any}' });
	}
	const inst = sb.instance(b.instance);
	if (!inst) return json(404, { error: `The "${b.instance}" instance does not exist` });
	const dotted = dottedEventName(b.event);
	let data: unknown = b.data;
	if (data === undefined && dotted === 'connection.update') data = connectionData(inst, 'open');
	if (data === undefined && dotted === 'qrcode.updated') data = qrData(inst);
	if (dotted === 'connection.update' && isObject(data) && Object.keys(data).length === 1 && typeof data.state === 'string') {
		data = connectionData(inst, data.state);
	}
	const delivery = await sb.injectEvent(b.instance, dotted, data ?? {});
	json(200, { delivered: summarize(delivery), ...hint(sb, b.instance, b.event, delivery), delivery: delivery ? publicDelivery(delivery) : null });
}

/** What the phone does with the QR code of a connecting instance (Instance → Connect). */
async function scan({ sb, req, json }: ControlRequest): Promise<void> {
	const b = await readJson(req);
	if (!b || typeof b.instance !== 'string') return json(400, { error: 'body must be {"instance": string}' });
	const inst = sb.instance(b.instance);
	if (!inst) return json(404, { error: `The "${b.instance}" instance does not exist` });
	const scanned = await sb.scan(b.instance);
	return scanned
		? json(200, { instance: b.instance, state: 'open' })
		: json(409, { error: `The "${b.instance}" instance is not waiting for a scan: run Instance → Connect first` });
}

/** The chat page's live stream (server-sent events): the entries after Last-Event-ID, then new ones as they come. */
function chatStream({ sb, query, req, res }: ControlRequest): void {
	res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
	res.write('retry: 2000\n\n');
	const lastId = Number(req.headers['last-event-id'] ?? query.since ?? 0);
	const instance = query.instance || undefined;
	if (query.replay !== '0') {
		for (const e of sb.chat) {
			if (e.seq > lastId && (!instance || e.instance === instance)) res.write(sseFrame(e));
		}
	}
	const remove = sb.addStream(res, instance);
	res.on('close', remove);
}

const CONTROL_ROUTES: readonly ControlRoute[] = [
	{ method: 'GET', path: '/chat', handle: ({ res }) => send(res, 200, CHAT_PAGE_HTML, 'text/html; charset=utf-8') },
	{ method: 'GET', path: '/_sandbox/state', handle: state },
	{ method: 'GET', path: '/_sandbox/requests', handle: recordedRequests },
	{ method: 'GET', path: '/_sandbox/deliveries', handle: ({ sb, json }) => json(200, sb.deliveries.map((d) => publicDelivery(d))) },
	{ method: 'POST', path: '/_sandbox/reset', handle: reset },
	{ method: 'POST', path: '/_sandbox/fail', handle: failNext },
	{ method: 'POST', path: '/_sandbox/late', handle: answerLate },
	{ method: 'POST', path: '/_sandbox/refuseSends', handle: refuseSends },
	{ method: 'POST', path: '/_sandbox/messages', handle: injectMessage },
	{ method: 'POST', path: '/_sandbox/events', handle: injectEvent },
	{ method: 'POST', path: '/_sandbox/scan', handle: scan },
	{ method: 'GET', path: '/_sandbox/chat/history', handle: ({ sb, query, json }) => json(200, sb.chat.filter((c) => !query.instance || c.instance === query.instance)) },
	{ method: 'GET', path: '/_sandbox/chat/stream', handle: chatStream },
	{ method: 'GET', path: /^\/_sandbox\/media\/([^/]+)\/([^/]+)$/, handle: ({ sb, params, res }) => serveMedia(sb, params[0], params[1], res) },
];

/** The route for a request and what its path captured, or undefined. */
function match(method: string, path: string): { route: ControlRoute; params: string[] } | undefined {
	for (const route of CONTROL_ROUTES) {
		if (route.method !== method) continue;
		if (typeof route.path === 'string') {
			if (route.path === path) return { route, params: [] };
			continue;
		}
		const m = route.path.exec(path);
		if (m) return { route, params: m.slice(1) };
	}
	return undefined;
}

export async function control(
	sb: ControlHost,
	method: string,
	path: string,
	query: Record<string, string>,
	req: HttpRequest,
	res: ServerResponse,
): Promise<void> {
	const json = (status: number, body: unknown): void => send(res, status, body);
	const found = match(method, path.replace(/\/+$/, '') || '/');
	if (found) return found.route.handle({ sb, query, req, res, params: found.params, json });
	await readBody(req);
	json(404, { status: 404, error: 'Not Found', response: { message: [`Cannot ${method} ${path}`] } });
}

/** When nothing was delivered: why, and what to do (`{hint}`), else nothing. */
function hint(sb: ControlHost, instance: string, event: string, delivery: RecordedDelivery | undefined): { hint?: string } {
	if (delivery) return {};
	const w = sb.instance(instance)?.webhook;
	const name = configEventName(event);
	const trigger = 'publish an n8n workflow whose Messaging Instance Trigger watches this instance';
	if (!w) return { hint: `instance "${instance}" has no webhook: ${trigger}, or set one with POST /webhook/set/${instance}` };
	if (!w.enabled) return { hint: `the webhook of instance "${instance}" is disabled: ${trigger}, or enable it with POST /webhook/set/${instance}` };
	return {
		hint:
			`the webhook of instance "${instance}" subscribes ${w.events.join(', ') || 'no events'}, not ${name}: ` +
			`add ${name} to the trigger's Events and publish the workflow again (npm start's example watches MESSAGES_UPSERT only)`,
	};
}

/** GET /_sandbox/media/<instance>/<messageId>: the stored file, as received (a URL-sent file redirects). */
function serveMedia(sb: ControlHost, instance: string, messageId: string, res: ServerResponse): void {
	let stored;
	try {
		stored = sb.media.get(decodeURIComponent(instance), decodeURIComponent(messageId));
	} catch {
		stored = undefined;
	}
	if (!stored) return send(res, 404, { error: 'no media stored for this message' });
	if (!stored.bytes && stored.url) {
		res.writeHead(302, { Location: stored.url, 'Content-Length': 0 });
		res.end();
		return;
	}
	const bytes = stored.bytes ?? Buffer.alloc(0);
	const headers: Record<string, string | number> = { 'Content-Type': stored.mimetype, 'Content-Length': bytes.length, 'X-Content-Type-Options': 'nosniff' };
	if (stored.fileName) headers['Content-Disposition'] = `inline; filename*=UTF-8''${encodeURIComponent(stored.fileName)}`;
	res.writeHead(200, headers);
	res.end(bytes);
}
