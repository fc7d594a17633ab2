/**
 * The sandbox: an in-memory HTTP server that speaks the messaging instance interface the way
 * real Evolution API servers do (github.com/EvolutionAPI/evolution-api, tag 2.3.6 for the v2
 * dialect), in one dialect per server; ./README.md says what it implements. Dev/test tool only.
 *
 * The parts: ./routes (one table entry per endpoint), ./dispatch.ts (the checks every route
 * gets), ./delivery.ts (webhooks), ./control.ts (the sandbox's own routes), ./http.ts.
 * Zero runtime dependencies: Node's http, crypto and global fetch.
 */
import { createServer, IncomingMessage as HttpRequest, ServerResponse, Server } from 'http';
import { unlinkSync } from 'fs';
import { randomBytes, randomUUID } from 'crypto';
import type { AddressInfo } from 'net';
import type { ChatEntry, Dialect, Instance, RecordedDelivery, RecordedRequest, SandboxOptions, WebhookConfig } from './types';
import { IncomingMessage, TINY_PNG_BASE64, messageId, upsertData } from './messages';
import { dottedEventName } from './events';
import { errorBody, flattenHeaders, readBody, send } from './http';
import { DeliveryHost, deliver, post } from './delivery';
import { Dispatch, createDispatcher } from './dispatch';
import { ROUTES } from './routes';
import { control, isControlPath, sseFrame } from './control';
import { MediaStore, StoredMedia } from './media';
import { mediaPath } from './routes/send';
import { accountOf } from './routes/account';
import { newGroup, scan } from './accounts';
import { loadState, serialize, writeStateAtomically } from './store';
import { DEFAULT_SERVER_VERSION, ServerVersion, rootAnswer } from './versions';
import { licenceRequired, passesGate } from './licence';

export type {
	Dialect,
	SandboxOptions,
	RecordedRequest,
	DeliveryAttempt,
	RecordedDelivery,
	WebhookConfig,
	ChatEntry,
	RouteDef,
} from './types';
export type { IncomingMessage, IncomingMedia } from './messages';
export type { StoredMedia, MediaMessageType } from './media';
export { DOCUMENTED_EVENTS, V2_EVENTS, eventsOf, configEventName, dottedEventName } from './events';

export interface Sandbox {
	readonly url: string;
	readonly apiKey: string;
	readonly dialect: Dialect;
	/** the Evolution API release it plays */
	readonly version: ServerVersion;
	/** false: a 2.4 sandbox that is not activated (503 LICENSE_REQUIRED) */
	readonly licensed: boolean;
	/** the server's licence instance id (what a 503 LICENSE_REQUIRED names) */
	readonly licenceInstanceId: string;
	readonly requests: RecordedRequest[];
	readonly deliveries: RecordedDelivery[];
	/** the chat log of all instances, oldest first */
	readonly chat: ChatEntry[];
	clearRequests(): void;
	instanceToken(name: string): string;
	addInstance(name: string, token?: string, integration?: string): void;
	/** the phone scans the instance's QR code: the state turns open and CONNECTION_UPDATE is delivered */
	scan(instance: string): Promise<boolean>;
	/** a group the instance is in, for tests: `id` (…@g.us), subject and participants' numbers */
	addGroup(instance: string, group: { id: string; subject: string; participants: string[] }): void;
	webhookOf(instance: string): WebhookConfig | undefined;
	/** the names of the instances the server has */
	instanceNames(): string[];
	/** with a state file: what loading it found when it could not be used (undefined when all went well) */
	readonly stateNote?: string;
	/** with a state file: writes the state now (it is also written shortly after each change and on close) */
	saveState(): void;
	failNext(opts: { status: number; message: string; times?: number; path?: string }): void;
	injectMessage(instance: string, msg: IncomingMessage): Promise<RecordedDelivery | undefined>;
	injectEvent(instance: string, event: string, data: unknown): Promise<RecordedDelivery | undefined>;
	injectConnectionUpdate(instance: string, state: 'open' | 'connecting' | 'close' | 'refused'): Promise<RecordedDelivery | undefined>;
	injectQrCode(instance: string): Promise<RecordedDelivery | undefined>;
	redeliver(delivery: RecordedDelivery): Promise<RecordedDelivery>;
	/** the file of a media message the instance sent or received (as received: exact bytes, or the URL) */
	mediaOf(instance: string, messageId: string): StoredMedia | undefined;
	/** every stored media file, oldest first */
	storedMedia(): StoredMedia[];
	/** forgets every stored media file (they are kept across clearRequests(), up to 256 MB) */
	clearMedia(): void;
	/** resolves once every delivery under way (e.g. SEND_MESSAGE after a send) has finished */
	settled(): Promise<void>;
	close(): Promise<void>;
}

interface FailRule {
	status: number;
	message: string;
	times: number;
	path?: string;
}

class SandboxImpl implements Sandbox {
	url = '';
	readonly apiKey: string;
	readonly dialect: Dialect;
	readonly version: ServerVersion;
	readonly licensed: boolean;
	readonly licenceInstanceId = randomUUID();
	readonly requests: RecordedRequest[] = [];
	readonly deliveries: RecordedDelivery[] = [];
	readonly chat: ChatEntry[] = [];
	readonly maxDelayMs: number;
	readonly media = new MediaStore();

	private readonly instancesByName = new Map<string, Instance>();
	private readonly failRules: FailRule[] = [];
	private readonly pending = new Set<Promise<unknown>>();
	private readonly sleepers = new Set<() => void>();
	private readonly sseClients = new Set<{ res: ServerResponse; instance?: string }>();
	private readonly abort = new AbortController();
	private readonly log: (line: string) => void;
	private readonly delivery: DeliveryHost;
	private readonly dispatch: Dispatch;
	private instanceCount = 0;
	private chatSeq = 0;
	private closed = false;
	private keepAlive?: NodeJS.Timeout;
	private saveTimer?: NodeJS.Timeout;
	private savedText = '';
	stateNote?: string;
	readonly server: Server;

	constructor(private readonly options: SandboxOptions) {
		this.apiKey = options.apiKey ?? randomBytes(16).toString('hex').toUpperCase();
		this.dialect = options.dialect ?? 'documented';
		this.version = options.version ?? DEFAULT_SERVER_VERSION;
		this.licensed = options.licensed ?? true;
		this.maxDelayMs = options.maxDelayMs ?? 0;
		this.log = options.log ?? (() => undefined);
		this.delivery = {
			dialect: this.dialect,
			version: this.version,
			attempts: Math.max(1, options.delivery?.attempts ?? 10),
			backoffMs: options.delivery?.backoffMs ?? 5000,
			timeoutMs: options.delivery?.timeoutMs ?? 30000,
			signal: this.abort.signal,
			serverUrl: () => this.url,
			isClosed: () => this.closed,
			sleep: (ms) => this.sleep(ms),
			log: (line) => this.log(line),
			record: (d) => this.deliveries.push(d),
		};
		this.dispatch = createDispatcher(ROUTES, {
			dialect: this.dialect,
			version: this.version,
			apiKey: this.apiKey,
			maxDelayMs: this.maxDelayMs,
			instance: (name) => this.instance(name),
			instances: () => this.instances(),
			takeFailure: (path) => this.takeFailure(path),
			sleep: (ms) => this.sleep(ms),
			addChat: (e) => this.addChat(e),
			emit: (inst, event, data) => void this.track(deliver(this.delivery, inst, event, data)),
			media: this.media,
			server: {
				addInstance: (name, token, integration) => this.addInstance(name, token, integration),
				removeInstance: (name) => void this.instancesByName.delete(name),
				chatLog: () => this.chat,
				emitFor: (inst, event, data) => void this.track(deliver(this.delivery, inst, event, data)),
			},
		});
		this.loadSavedState();
		for (const i of options.instances ?? [{ name: 'demo' }]) if (!this.instancesByName.has(i.name)) this.addInstance(i.name, i.token, i.integration);
		this.server = createServer((req, res) => {
			this.handle(req, res).catch((err: unknown) => {
				const message = err instanceof Error ? err.message : String(err);
				this.log(`sandbox error: ${message}`);
				if (!res.headersSent) send(res, 500, errorBody(500, message));
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

	// ---------------------------------------------------------------- saved state

	private loadSavedState(): void {
		const file = this.options.stateFile;
		if (!file) return;
		if (this.options.fresh) {
			for (const f of [file, `${file}.corrupt`]) {
				try {
					unlinkSync(f);
				} catch {
					/* not there */
				}
			}
			return;
		}
		const loaded = loadState(file);
		if (loaded.problem) {
			this.stateNote = loaded.problem;
			this.log(`sandbox: ${loaded.problem}`);
		}
		if (!loaded.state) return;
		for (const inst of loaded.state.instances) this.instancesByName.set(inst.name, inst);
		this.instanceCount = loaded.state.instances.length;
		this.chat.push(...loaded.state.chat);
		this.chatSeq = this.chat.reduce((max, e) => Math.max(max, e.seq), 0);
	}

	/** Writes the state shortly (changes come in bursts: one write for them). */
	private stateChanged(): void {
		if (!this.options.stateFile || this.closed || this.saveTimer) return;
		this.saveTimer = setTimeout(() => {
			this.saveTimer = undefined;
			this.saveState();
		}, 200);
		this.saveTimer.unref();
	}

	saveState(): void {
		const file = this.options.stateFile;
		if (!file) return;
		if (this.saveTimer) clearTimeout(this.saveTimer);
		this.saveTimer = undefined;
		try {
			const text = serialize(this.instances(), this.chat);
			if (text === this.savedText) return;
			writeStateAtomically(file, text);
			this.savedText = text;
		} catch (e) {
			this.log(`sandbox: could not save the state to ${file}: ${e instanceof Error ? e.message : String(e)}`);
		}
	}

	// ---------------------------------------------------------------- public API

	clearRequests(): void {
		this.requests.length = 0;
		this.deliveries.length = 0;
	}

	instanceToken(name: string): string {
		return this.mustInstance(name).token;
	}

	addInstance(name: string, token?: string, integration?: string): Instance {
		const index = this.instanceCount++;
		const inst: Instance = {
			name,
			token: token ?? randomUUID().toUpperCase(),
			instanceId: randomUUID(),
			jid: `55000000000${String(index % 100).padStart(2, '0')}@s.whatsapp.net`,
			...(integration !== undefined && integration !== 'WHATSAPP-BAILEYS' ? { integration } : {}),
		};
		this.instancesByName.set(name, inst);
		this.stateChanged();
		return inst;
	}

	addGroup(instance: string, group: { id: string; subject: string; participants: string[] }): void {
		const inst = this.mustInstance(instance);
		const made = newGroup(inst.jid, group.subject, '', group.participants, false);
		accountOf(inst).groups.set(group.id, { ...made, id: group.id });
		this.stateChanged();
	}

	async scan(instance: string): Promise<boolean> {
		const inst = this.mustInstance(instance);
		if (!scan(accountOf(inst))) return false;
		this.stateChanged();
		await this.injectEvent(instance, 'connection.update', { instance: inst.name, state: 'open', statusReason: 200, wuid: inst.jid, profileName: inst.name });
		return true;
	}

	instanceNames(): string[] {
		return [...this.instancesByName.keys()];
	}

	webhookOf(instance: string): WebhookConfig | undefined {
		const w = this.instancesByName.get(instance)?.webhook;
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
		const data = upsertData(msg, inst.instanceId, inst.webhook?.webhookBase64 ?? false, this.version);
		const key = data.key as { remoteJid: string; id: string };
		const summary = msg.media ? `[${msg.media.kind}] ${msg.media.caption ?? msg.text ?? msg.media.fileName ?? ''}`.trim() : (msg.text ?? '');
		const m = msg.media;
		if (m) {
			// kept as given, for Download Media and the chat page
			const bytes = Buffer.from(m.base64, 'base64');
			const caption = m.kind === 'audio' ? undefined : (m.caption ?? msg.text);
			const fileName = m.kind === 'document' ? (m.fileName ?? 'document') : m.fileName;
			this.media.put({ instance, messageId: key.id, mediaType: `${m.kind}Message`, mimetype: m.mimetype, fileName, caption, bytes, incoming: true });
		}
		this.addChat({
			direction: 'in',
			instance,
			chat: key.remoteJid,
			kind: msg.media ? msg.media.kind : 'text',
			text: summary,
			body: msg,
			messageId: key.id,
			pushName: data.pushName as string,
			...(m ? { media: { url: mediaPath(instance, key.id), mimetype: m.mimetype, fileName: m.fileName, caption: m.caption ?? msg.text, size: Buffer.byteLength(m.base64, 'base64') } } : {}),
		});
		return this.track(deliver(this.delivery, inst, 'messages.upsert', data));
	}

	injectEvent(instance: string, event: string, data: unknown): Promise<RecordedDelivery | undefined> {
		const inst = this.mustInstance(instance);
		return this.track(deliver(this.delivery, inst, dottedEventName(event), data));
	}

	injectConnectionUpdate(instance: string, state: 'open' | 'connecting' | 'close' | 'refused'): Promise<RecordedDelivery | undefined> {
		return this.injectEvent(instance, 'connection.update', this.connectionData(this.mustInstance(instance), state));
	}

	injectQrCode(instance: string): Promise<RecordedDelivery | undefined> {
		return this.injectEvent(instance, 'qrcode.updated', this.qrData(this.mustInstance(instance)));
	}

	redeliver(delivery: RecordedDelivery): Promise<RecordedDelivery> {
		return this.track(post(this.delivery, delivery.instance, delivery.event, delivery.url, { ...delivery.headers }, delivery.body));
	}

	async settled(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	async close(): Promise<void> {
		if (this.closed) return;
		if (this.options.stateFile) this.saveState();
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
		const inst = this.instancesByName.get(name);
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

	mediaOf(instance: string, messageId: string): StoredMedia | undefined {
		return this.media.get(instance, messageId);
	}

	storedMedia(): StoredMedia[] {
		return this.media.all();
	}

	clearMedia(): void {
		this.media.clear();
	}

	instance(name: string): Instance | undefined {
		return this.instancesByName.get(name);
	}

	instances(): Instance[] {
		return [...this.instancesByName.values()];
	}

	reset(): void {
		this.clearRequests();
		this.chat.length = 0;
		this.failRules.length = 0;
		this.media.clear();
		this.stateChanged();
		for (const c of this.sseClients) c.res.write('event: reset\ndata: {}\n\n');
	}

	addStream(res: ServerResponse, instance: string | undefined): () => void {
		const client = { res, instance };
		this.sseClients.add(client);
		return () => this.sseClients.delete(client);
	}

	private takeFailure(path: string): FailRule | undefined {
		const rule = this.failRules.find((r) => !r.path || path.includes(r.path));
		if (rule) {
			rule.times -= 1;
			if (rule.times <= 0) this.failRules.splice(this.failRules.indexOf(rule), 1);
		}
		return rule;
	}

	connectionData(inst: Instance, state: string): Record<string, unknown> {
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

	qrData(inst: Instance): Record<string, unknown> {
		return {
			qrcode: {
				instance: inst.name,
				pairingCode: randomBytes(4).toString('hex').toUpperCase(),
				code: `2@${randomBytes(48).toString('base64')},${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')},1`,
				base64: `data:image/png;base64,${TINY_PNG_BASE64}`,
			},
		};
	}

	addChat(e: Omit<ChatEntry, 'seq' | 'at' | 'time'>): ChatEntry {
		const at = Date.now();
		const entry: ChatEntry = { seq: ++this.chatSeq, at, time: new Date(at).toISOString(), ...e };
		this.chat.push(entry);
		this.stateChanged();
		for (const c of this.sseClients) {
			if (!c.instance || c.instance === entry.instance) c.res.write(sseFrame(entry));
		}
		return entry;
	}

	// ---------------------------------------------------------------- HTTP

	/** an unactivated 2.4 server refuses this path before routing and before the key check */
	private gated(path: string): boolean {
		return this.version === '2.4.0' && !this.licensed && !passesGate(path);
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

		// `GET /` answers as the real server does at this release, on every release, never gated
		if (method === 'GET' && path === '/') {
			send(res, 200, rootAnswer(this.version, req.headers.host ?? '', this.dialect, `${this.url}/chat`));
			return;
		}
		if (isControlPath(path)) {
			await control(this, method, path, query, req, res);
			if (method !== 'GET') this.stateChanged();
			return;
		}

		const raw = await readBody(req);
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
		const reply = this.gated(path)
			? licenceRequired(this.licenceInstanceId, req.headers.host, record.headers['x-forwarded-proto'])
			: raw === undefined
				? { status: 413, body: errorBody(413, 'request entity too large') }
				: await this.dispatch(record);
		record.status = reply.status;
		record.response = reply.body;
		// any change an endpoint makes (instances, webhooks, settings, groups, labels; Connect is
		// a GET that starts connecting) is saved; an unchanged state is not written again
		if (reply.status < 400) this.stateChanged();
		send(res, reply.status, reply.body);
		this.log(`${method} ${path} ${reply.status} ${Date.now() - started}ms`);
	}
}

/** Starts a sandbox server; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sb = new SandboxImpl(options);
	await sb.listen();
	return sb;
}

// keep the helper reachable for tools that want ids looking like the server's
export { messageId };
