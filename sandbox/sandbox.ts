/**
 * What a running sandbox offers to tests and tools besides HTTP: its recordings, its
 * instances, saved state, and injected failures, messages and events. ./server.ts starts one.
 */
import type { ChatEntry, Dialect, RecordedDelivery, RecordedRequest, WebhookConfig } from './types';
import type { IncomingMessage } from './messages';
import type { StoredMedia } from './media';
import type { FailOptions, LateOptions, SendRefusalOptions } from './failures';
import type { ServerVersion } from './versions';
import type { HistoryQuirks } from './accounts';

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
	/** forgets recorded requests, injected failures and refusals, history quirks, stored media and the chat log */
	reset(): void;
	failNext(opts: FailOptions): void;
	/**
	 * WhatsApp refuses sends as the real server reports it: `rateOverlimit` (400 "Error:
	 * rate-overlimit") after a burst of `after` sends, for `times` sends; `loggedOut` (500
	 * "Connection Closed") for every send from then on, unless `times` is given.
	 */
	refuseSends(opts: SendRefusalOptions): void;
	/**
	 * The next request(s) to a path (any, without one) run as usual (a send goes out and is
	 * stored) and are answered `ms` later: a server slower than the client's timeout, which
	 * the client sees as a failure although the message went out.
	 */
	answerLate(opts: LateOptions): void;
	/**
	 * From now on (until reset) the server stamps and answers its stored history so: its clock
	 * skewed, milliseconds in `messageTimestamp`, Find Messages ignoring `where` or answering
	 * extra entries. Replaces the quirks set before; `{}` plays the real server again.
	 */
	historyQuirks(quirks: HistoryQuirks): void;
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
