/**
 * The sandbox: an in-memory HTTP server that speaks the messaging instance interface the way
 * real Evolution API servers do (github.com/EvolutionAPI/evolution-api, tag 2.3.6 for the v2
 * dialect), in one dialect per server; ./README.md says what it implements. Dev/test tool only.
 *
 * The parts: ./routes (one table entry per endpoint), ./dispatch.ts (the checks every route
 * gets), ./delivery.ts (webhooks), ./control.ts (the sandbox's own routes), ./http.ts,
 * ./sandbox.ts (what tests get), ./stateFile.ts (saved state), ./failures.ts (injected failures,
 * WhatsApp's refusals), ./liveChat.ts (chat log, live streams), ./injection.ts (injected data),
 * ./backgroundWork.ts (deliveries waited for at close, sleeps cut short). Zero runtime dependencies.
 */
import { createServer, IncomingMessage as HttpRequest, ServerResponse, Server } from 'http';
import { randomBytes, randomUUID } from 'crypto';
import type { AddressInfo } from 'net';
import type { ChatEntry, Dialect, Instance, RecordedDelivery, RecordedRequest, SandboxOptions, WebhookConfig } from './types';
import { IncomingMessage, messageId, upsertData } from './messages';
import { transcribesVoiceNotes } from './routes/chatbot';
import { dottedEventName } from './events';
import { errorBody, flattenHeaders, readBody, requestLine, send } from './http';
import { DeliveryHost, deliver, post, retryPolicy, summarize } from './delivery';
import { Dispatch, createDispatcher } from './dispatch';
import { ROUTES } from './routes';
import { control, isControlPath } from './control';
import { MediaStore, StoredMedia } from './media';
import { accountOf } from './routes/account';
import { newGroup, scan, type HistoryQuirks } from './accounts';
import type { Sandbox } from './sandbox';
import { StateFile } from './stateFile';
import { FailOptions, InjectedFailures, LateAnswers, LateOptions, SendRefusalOptions } from './failures';
import { LiveChat } from './liveChat';
import { connectionData, qrData, receive } from './injection';
import { DEFAULT_SERVER_VERSION, ServerVersion, rootAnswer } from './versions';
import { licenceRequired, passesGate } from './licence';
import { BackgroundWork } from './backgroundWork';

export type { Dialect, SandboxOptions, RecordedRequest, DeliveryAttempt, RecordedDelivery, WebhookConfig, ChatEntry, RouteDef } from './types';
export type { IncomingMessage, IncomingMedia } from './messages';
export type { StoredMedia, MediaMessageType } from './media';
export type { HistoryQuirks } from './accounts';
export type { Sandbox } from './sandbox';
export { DOCUMENTED_EVENTS, V2_EVENTS, eventsOf, configEventName, dottedEventName } from './events';
export { HELD_DELAY_MS } from './types';

class SandboxImpl implements Sandbox {
	url = '';
	readonly apiKey: string;
	readonly dialect: Dialect;
	readonly version: ServerVersion;
	readonly licensed: boolean;
	readonly licenceInstanceId = randomUUID();
	readonly requests: RecordedRequest[] = [];
	readonly deliveries: RecordedDelivery[] = [];
	readonly maxDelayMs: number;
	readonly media = new MediaStore();

	private readonly instancesByName = new Map<string, Instance>();
	private readonly failures = new InjectedFailures();
	private readonly lateAnswers = new LateAnswers();
	private readonly work = new BackgroundWork();
	private readonly liveChat = new LiveChat(() => this.stateChanged());
	private readonly stateFile: StateFile;
	private readonly abort = new AbortController();
	private readonly log: (line: string) => void;
	private readonly delivery: DeliveryHost;
	private readonly dispatch: Dispatch;
	private instanceCount = 0;
	private quirks: HistoryQuirks = {};
	private closed = false;
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
			...retryPolicy(options.delivery),
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
			takeFailure: (path, stage) => this.failures.take(path, stage),
			sleep: (ms) => this.sleep(ms),
			addChat: (e) => this.addChat(e),
			emit: (inst, event, data) => void this.track(deliver(this.delivery, inst, event, data)),
			media: this.media,
			server: {
				addInstance: (name, token, integration) => this.addInstance(name, token, integration),
				removeInstance: (name) => void this.instancesByName.delete(name),
				chatLog: () => this.chat,
				emitFor: (inst, event, data) => void this.track(deliver(this.delivery, inst, event, data)),
				switchedOff: (integration) => options.switchedOff?.includes(integration) === true,
				historyQuirks: () => this.quirks,
			},
		});
		this.stateFile = new StateFile(options.stateFile, () => ({ instances: this.instances(), chat: this.chat }), this.log);
		const saved = this.stateFile.load(options.fresh === true);
		if (saved) {
			for (const inst of saved.instances) this.instancesByName.set(inst.name, inst);
			this.instanceCount = saved.instances.length;
			this.liveChat.restore(saved.chat);
		}
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
		this.liveChat.startKeepAlive();
	}

	/** the chat log of all instances, oldest first */
	get chat(): ChatEntry[] {
		return this.liveChat.entries;
	}

	get stateNote(): string | undefined {
		return this.stateFile.note;
	}

	saveState(): void {
		this.stateFile.save();
	}

	private stateChanged(): void {
		this.stateFile.changed();
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

	failNext(opts: FailOptions): void {
		this.failures.add(opts);
	}
	refuseSends(opts: SendRefusalOptions): void {
		this.failures.refuseSends(opts);
	}
	answerLate(opts: LateOptions): void {
		this.lateAnswers.add(opts);
	}
	historyQuirks(quirks: HistoryQuirks): void {
		this.quirks = { ...quirks };
	}

	async injectMessage(instance: string, msg: IncomingMessage): Promise<RecordedDelivery | undefined> {
		const inst = this.mustInstance(instance);
		const data = upsertData(msg, inst.instanceId, inst.webhook?.webhookBase64 ?? false, this.version, transcribesVoiceNotes(inst));
		const entry = this.addChat(receive(this.media, instance, msg, data));
		const delivery = await this.track(deliver(this.delivery, inst, 'messages.upsert', data));
		// The verdict stays with the message: the chat page shows it again after a reload.
		const { ok, reason } = summarize(delivery);
		entry.delivered = { ok, reason };
		this.stateChanged();
		return delivery;
	}

	injectEvent(instance: string, event: string, data: unknown): Promise<RecordedDelivery | undefined> {
		const inst = this.mustInstance(instance);
		return this.track(deliver(this.delivery, inst, dottedEventName(event), data));
	}

	injectConnectionUpdate(instance: string, state: 'open' | 'connecting' | 'close' | 'refused'): Promise<RecordedDelivery | undefined> {
		return this.injectEvent(instance, 'connection.update', connectionData(this.mustInstance(instance), state));
	}

	injectQrCode(instance: string): Promise<RecordedDelivery | undefined> {
		return this.injectEvent(instance, 'qrcode.updated', qrData(this.mustInstance(instance)));
	}

	redeliver(delivery: RecordedDelivery): Promise<RecordedDelivery> {
		return this.track(post(this.delivery, delivery.instance, delivery.event, delivery.url, { ...delivery.headers }, delivery.body));
	}

	settled(): Promise<void> {
		return this.work.settled();
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.stateFile.close();
		this.closed = true;
		this.work.stop();
		this.abort.abort();
		this.liveChat.close();
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
		return this.work.track(p);
	}

	private sleep(ms: number): Promise<void> {
		return this.work.sleep(ms);
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
		this.failures.clear();
		this.lateAnswers.clear();
		this.quirks = {};
		this.media.clear();
		this.stateChanged();
		this.liveChat.reset();
	}

	addStream(res: ServerResponse, instance: string | undefined): () => void {
		return this.liveChat.addStream(res, instance);
	}

	addChat(e: Omit<ChatEntry, 'seq' | 'at' | 'time'> & { at?: number }): ChatEntry {
		return this.liveChat.add(e);
	}

	// ---------------------------------------------------------------- HTTP

	/** an unactivated 2.4 server refuses this path before routing and before the key check */
	private gated(path: string): boolean {
		return this.version === '2.4.0' && !this.licensed && !passesGate(path);
	}

	private async handle(req: HttpRequest, res: ServerResponse): Promise<void> {
		const started = Date.now();
		const { method, path, query } = requestLine(req);

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
		// a late answer (answerLate): what the route did stands; only the answer waits
		const late = this.lateAnswers.take(path);
		if (late !== undefined) await this.sleep(late);
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
