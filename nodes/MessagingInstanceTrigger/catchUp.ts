import { createHash } from 'node:crypto';

import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, IRun, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { countedPage } from '../shared/answerShapes';
import { HISTORY_LIMITS, inOrder, repeatedPage, storedMessageOf, type StoredMessage } from '../shared/chatHistory';
import { askDeclared, declareHelperReads, HelperAnswerError, type HelperRequest } from '../shared/helperRequests';
import { pause } from '../shared/pause';
import { redactError, secretsOfUrl } from '../shared/redact';
import { openConnection, type Connection } from '../shared/transport';
import { firstSighting } from './dedupe';
import { parseDelivery } from './delivery';
import { readOptions, type TriggerOptions } from './description';
import { instanceNameFrom } from './instance';
import { itemOf } from './items';
import { cursorOf, IDS_AT_CURSOR, markCaughtUp, noteReceived, receivedInItems, STORED_EVENT_NAME, type CatchUpCursor } from './cursor';
import { staticDataOf } from './state';
import { dropReasonOf } from './webhook';

/**
 * Catch Up: the messages the server stored while this workflow was not receiving reach it
 * when it receives again (publish, n8n start), oldest first, each once, as a live delivery of
 * them would (the same parser, filters and item), with `caughtUp: true`.
 *
 * Where it runs: n8n serves a published webhook after a restart from its database and calls
 * no hook of a webhook-only trigger, but it starts every node's `trigger()` at publish and on
 * every start (on the main process, in queue mode too). So the node has a `trigger()` that,
 * with Catch Up on, reads Find Messages for the instance and emits; off, it does nothing.
 *
 * Once:
 * - every caught-up message is its own execution, emitted with n8n's execution deduplication
 *   key (a unique column of n8n's executions): a message emitted again after a crash or a
 *   restart is refused by n8n's database, not run twice;
 * - a message a live delivery brought to this process within the last minutes is not
 *   emitted (the live path's memory, dedupe.ts), and vice versa;
 * - the cursor (static data, `catchUp`) is the newest message this workflow is known to
 *   have: written by a live delivery at most once every 10 seconds (LIVE_CURSOR_EVERY_MS) and by the
 *   catch-up only after the executions before it ended; it bounds how much is read again.
 *   A message received live in the 10 seconds before a crash or a stop can be emitted again: it carries
 *   the live delivery's `dedupeKey`, so Remove Duplicates drops it.
 */

/** Bounds of one catch-up (per start of the trigger). */
export const CATCH_UP_LIMITS = {
	/** Records per Find Messages page (the real server's default page). */
	pageSize: HISTORY_LIMITS.pageSize,
	/** Pages read per round; a window with more is read from its oldest pages, round after round. */
	pagesPerRound: 20,
	/** Rounds per start: at most pagesPerRound × pageSize × rounds messages are caught up per start. */
	rounds: 10,
	/** How long an emitted execution is waited for before the next is emitted (order and pace, not correctness). */
	executionWaitMs: 30_000,
} as const;

/** The last second a server's `messageTimestamp` column (a 32-bit integer) holds: the open end of a window. */
const LAST_SECOND = 2_147_483_647;

const STORED_EVENT = 'messages.upsert';

// ------------------------------------------------------------------ reading Find Messages

const FIND_MESSAGES = '/chat/findMessages';

const STORED_PAGE = { method: 'POST', routes: [FIND_MESSAGES], answer: 'page', pageField: 'messages', belongs: 'since' } as const;

/**
 * The catch-up's reads, declared (shared/helperRequests.ts): sent only through the one door,
 * and taken by the hostile tiers. An answer that is not a page of messages stops the catch-up;
 * it is never read as "nothing stored".
 */
export const CATCH_UP_READS = declareHelperReads('messagingInstanceTrigger', {
	newest: { ...STORED_PAGE, name: "Catch Up's read of the newest stored message (Find Messages)", unlessAnswered: 'nothing was caught up and the cursor was not moved' } satisfies HelperRequest,
	window: { ...STORED_PAGE, name: "Catch Up's read of the messages stored since the cursor (Find Messages)", unlessAnswered: 'nothing after the last message caught up was emitted' } satisfies HelperRequest,
});

/** Sends one Find Messages body as one of the declared reads and answers its JSON (of the declared shape). */
type Ask = (read: HelperRequest, body: IDataObject) => Promise<unknown>;

/** Stops the catch-up over an answer that is not what it needs (nothing of it is emitted). */
type Fail = (problem: string) => never;

function iso(seconds: number): string {
	return new Date(seconds * 1000).toISOString();
}

function windowQuery(fromSeconds: number, page: number, offset: number = CATCH_UP_LIMITS.pageSize): IDataObject {
	// The real server filters by time only when both ends are given, as dates.
	return { where: { messageTimestamp: { gte: iso(fromSeconds), lte: iso(LAST_SECOND) } }, page, offset };
}

/** A stored message with the record it was read from (the item is built from the record as stored). */
type Found = StoredMessage & { record: IDataObject };

interface Page {
	messages: Found[];
	pages: number;
}

/** One page, strictly: a page larger than asked, a count that is not one, or a record without key and time stops the catch-up. */
async function readPage(ask: Ask, read: HelperRequest, body: IDataObject, fromSeconds: number, failRead: Fail): Promise<Page> {
	const fail: Fail = (problem) => failRead(`${read.name} answered ${problem}`);
	const answer = (await ask(read, body)) as { messages?: { records?: unknown; pages?: unknown; currentPage?: unknown } } | null;
	let records: unknown[];
	try {
		records = countedPage(answer?.messages).records;
	} catch (error) {
		return fail(`something that is not a page of messages (${(error as Error).message})`);
	}
	const pages = Number(answer?.messages?.pages);
	if (!Number.isSafeInteger(pages) || pages < 0) fail('a page that does not say how many pages there are');
	if (records.length > Number(body.offset)) {
		fail(`${records.length} messages on a page of ${String(body.offset)}: the server does not page Find Messages as asked`);
	}
	const messages: Found[] = [];
	for (const [index, record] of records.entries()) {
		const message = storedMessageOf(record);
		if (!message) fail(`a record (${index + 1} of page ${String(body.page)}) without a message key and time`);
		if (message.seconds < fromSeconds) fail(`message ${message.messageId}, older than asked: the server does not filter Find Messages by time`);
		messages.push({ ...message, record: record as IDataObject });
	}
	return { messages, pages };
}

/** The newest stored message's second and the ids of that second; undefined when nothing is stored. */
async function newestStored(ask: Ask, fail: Fail): Promise<{ seconds: number; ids: string[] } | undefined> {
	const { messages } = await readPage(ask, CATCH_UP_READS.newest, windowQuery(0, 1), 0, fail);
	if (messages.length === 0) return undefined;
	const seconds = Math.max(...messages.map((message) => message.seconds));
	return { seconds, ids: messages.filter((message) => message.seconds === seconds).map((message) => message.messageId) };
}

/**
 * One round: the messages stored from `from` on (after its ids), oldest first. A small window
 * is read whole (`complete`). A window of more than `pagesPerRound` pages is read from its
 * oldest pages, and only the messages of the seconds before the newest second read are kept
 * (that second may go on in the pages not read): the next round goes on from that second.
 * Pages are read in rising order, so a message stored meanwhile (which pushes the others
 * towards later pages) can make a message appear twice, never be skipped.
 */
async function readRound(ask: Ask, fail: Fail, from: { seconds: number; ids: readonly string[] }): Promise<{ messages: Found[]; next?: number }> {
	const first = await readPage(ask, CATCH_UP_READS.window, windowQuery(from.seconds, 1), from.seconds, fail);
	const complete = first.pages <= CATCH_UP_LIMITS.pagesPerRound;
	const found: Found[] = complete ? [...first.messages] : [];
	const firstPage = complete ? 2 : first.pages - CATCH_UP_LIMITS.pagesPerRound + 1;
	// Up to one page past the count: what the pages moved towards while they were read.
	let previous = first.messages;
	for (let page = firstPage; page <= firstPage + CATCH_UP_LIMITS.pagesPerRound; page++) {
		const next = await readPage(ask, CATCH_UP_READS.window, windowQuery(from.seconds, page), from.seconds, fail);
		if (next.messages.length === 0) break;
		const repeated = page === firstPage && !complete ? undefined : repeatedPage(page, previous, next.messages);
		if (repeated !== undefined) fail(`${CATCH_UP_READS.window.name} answered ${repeated}`);
		previous = next.messages;
		found.push(...next.messages);
	}
	const known = new Set(from.ids);
	const fresh = found.filter((message) => !(message.seconds === from.seconds && known.has(message.messageId)));
	if (complete) return { messages: inOrder(fresh) as Found[] };
	const newest = Math.max(...found.map((message) => message.seconds));
	if (!(newest > from.seconds)) {
		throw new CatchUpLimit(`More than ${CATCH_UP_LIMITS.pagesPerRound * CATCH_UP_LIMITS.pageSize} messages are stored in one second (${iso(from.seconds)}, server time): Catch Up cannot page through them`);
	}
	return { messages: inOrder(fresh.filter((message) => message.seconds < newest)) as Found[], next: newest };
}

/** A bound of the catch-up was reached: it stops there, and says where. */
class CatchUpLimit extends Error {}

// ------------------------------------------------------------------ emitting

/** The key n8n refuses a second execution with: one per workflow, node and message (its `dedupeKey`). */
export function executionKeyOf(workflowId: string, nodeId: string, dedupeKey: string): string {
	return `messaging-instance-catch-up:${createHash('sha256').update(JSON.stringify([workflowId, nodeId, dedupeKey])).digest('base64url')}`;
}

/** The stored record as the delivery the server would have sent for it (one parser per delivery). */
function deliveryBodyOf(message: Found, instance: string): IDataObject {
	const { id: _row, MessageUpdate: _updates, ...data } = message.record;
	return { event: STORED_EVENT, instance, data: { ...data, messageType: message.messageType } };
}

const NO_STORED_FILE =
	'No binary data: the server stores a message without its file, so a caught-up message has none; Message → Download Media fetches it';

interface Emitter {
	emit(data: INodeExecutionData[][], responsePromise?: undefined, donePromise?: unknown, deduplicationKey?: string): void;
}

interface CatchUpRun {
	ctx: ITriggerFunctions;
	node: INode;
	workflowId: string;
	instance: string;
	options: TriggerOptions;
	connection: Connection;
	stopped: () => boolean;
	fail: Fail;
}

async function emitMessage(run: CatchUpRun, message: Found): Promise<void> {
	const { ctx, options } = run;
	const secrets = [run.connection.apiKey, ...secretsOfUrl(run.connection.baseUrl)];
	const parsed = parseDelivery(deliveryBodyOf(message, run.instance), secrets);
	if (!parsed.ok) return run.fail(`${CATCH_UP_READS.window.name} answered a message that is no delivery (${parsed.reason})`);
	const delivery = parsed.delivery;
	const event = delivery.events[0];
	if (!event || dropReasonOf(event, options)) return;
	// Delivered live to this process already (or about to be): the live path has it.
	if (!firstSighting(`${run.workflowId}|${run.node.id}|webhook`, event.dedupeKey)) return;
	const prepare = async (data: Buffer, fileName: string, mimeType: string) => await ctx.helpers.prepareBinaryData(data, fileName, mimeType);
	const item = markCaughtUp(await itemOf(delivery, event, options, prepare), true);
	if (options.mediaAsBinary && event.message?.media && !item.binary && item.json.mediaError === undefined) item.json.mediaError = NO_STORED_FILE;
	const done = ctx.helpers.createDeferredPromise<IRun | undefined>();
	(ctx as unknown as Emitter).emit([[item]], undefined, done, executionKeyOf(run.workflowId, run.node.id, event.dedupeKey));
	// One execution after the other (oldest first, at the pace n8n runs them); a long one is not waited for.
	const ended = new AbortController();
	await Promise.race([
		done.promise.catch(() => undefined).finally(() => ended.abort()),
		pause(CATCH_UP_LIMITS.executionWaitMs, ended.signal).catch(() => undefined),
	]);
}

async function catchUp(run: CatchUpRun, ask: Ask, from: CatchUpCursor, floor: number): Promise<void> {
	const data = staticDataOf(run.ctx);
	let position = floor > from.seconds ? { seconds: floor, ids: [] as string[] } : { seconds: from.seconds, ids: from.ids };
	let emitted = 0;
	for (let round = 0; round < CATCH_UP_LIMITS.rounds; round++) {
		const { messages, next } = await readRound(ask, run.fail, position);
		for (const message of messages) {
			if (run.stopped()) return;
			// Once a page, the cursor passes what was emitted and waited for; the next emit
			// writes it. A crash makes the catch-up read again from there (n8n refuses what ran).
			if (++emitted % CATCH_UP_LIMITS.pageSize === 0) writeCursor(data, position);
			await emitMessage(run, message);
			position =
				message.seconds === position.seconds
					? { seconds: message.seconds, ids: [...position.ids, message.messageId].slice(-IDS_AT_CURSOR) }
					: { seconds: message.seconds, ids: [message.messageId] };
		}
		if (next === undefined) return;
		// Everything before `next` was read: the next round starts at that second.
		position = { seconds: next, ids: [] };
	}
	throw new CatchUpLimit(`Catch Up stopped after ${CATCH_UP_LIMITS.rounds} rounds of up to ${CATCH_UP_LIMITS.pagesPerRound * CATCH_UP_LIMITS.pageSize} messages: messages stored from ${iso(position.seconds)} (server time) on were not caught up at this start; the next start goes on from there`);
}

function writeCursor(data: IDataObject, position: { seconds: number; ids: string[] }): void {
	const current = cursorOf(data);
	if (current && (position.seconds < current.seconds || (position.seconds === current.seconds && position.ids.length <= current.ids.length))) return;
	(data as { catchUp?: CatchUpCursor }).catchUp = { seconds: position.seconds, ids: position.ids, savedAt: Date.now() };
}

/** What trigger() answers besides n8n's fields: the catch-up's end (n8n ignores it; tests await it). */
export interface CatchUpResponse {
	settled?: Promise<void>;
}

/**
 * The node's `trigger()`: a no-op unless Catch Up is on in a published workflow. The first
 * start with no cursor only notes where the server is (nothing was received before); later
 * starts catch up, in the background (activation does not wait for the server).
 */
export async function startCatchUp(ctx: ITriggerFunctions): Promise<ITriggerResponse> {
	// Never reached in a test run (execute() passes a delivery's items on), and nothing to catch up there.
	if (ctx.getMode() === 'manual') return { manualTriggerFunction: async () => ctx.emit([[]]) };
	const node = ctx.getNode();
	const options = readOptions(ctx.getNodeParameter('options', {}), node.typeVersion);
	const events = ctx.getNodeParameter('events', []);
	if (!options.catchUp || !Array.isArray(events) || !events.includes(STORED_EVENT_NAME)) return {};
	let connection: Connection;
	try {
		connection = await openConnection(ctx);
	} catch (error) {
		// No credential to read with: the failed execution says so; activation goes on.
		ctx.saveFailedExecution(new NodeOperationError(node, `Catch Up cannot read the credential: ${(error as Error).message}`));
		return {};
	}
	const report = (error: Error) => ctx.saveFailedExecution(toNodeError(node, error, connection) as NodeOperationError);
	if (!connection.dialect.servesV2Routes) {
		// The version's default on a server that cannot: nothing to do, and nothing the user
		// asked for to report (a failed execution at every start would be noise). Turned on in
		// the node, it says why it cannot.
		if (!options.catchUpChosen) return {};
		report(new NodeOperationError(node, 'Catch Up needs a v2.x server: the documented dialect has no Find Messages, so stored messages cannot be caught up', {
			description: 'Switch the credential to the v2 dialect, or turn Catch Up off in the trigger\'s options.',
		}));
		return {};
	}
	let stopped = false;
	const run: CatchUpRun = {
		ctx,
		node,
		workflowId: ctx.getWorkflow().id ?? '',
		instance: instanceNameFrom(ctx.getNodeParameter('instance', '')),
		options,
		connection,
		stopped: () => stopped,
		fail: (problem) => {
			throw new NodeOperationError(node, `Catch Up stopped: ${problem}`, {
				description: 'Nothing after the last message caught up was emitted; the next start tries again from there.',
			});
		},
	};
	const ask: Ask = async (read, body) => await askDeclared(ctx, connection, read, { route: FIND_MESSAGES, instance: run.instance, body });
	const data = staticDataOf(ctx);
	const cursor = cursorOf(data);
	let newest: { seconds: number; ids: string[] } | undefined;
	try {
		newest = await newestStored(ask, run.fail);
	} catch (error) {
		report(error as Error);
		return {};
	}
	if (!cursor) {
		// Nothing was received yet: from here on. n8n saves the static data once activation ends.
		// `savedAt` 0: the first live delivery moves it on at once.
		(data as { catchUp?: CatchUpCursor }).catchUp = { ...(newest ?? { seconds: 0, ids: [] }), savedAt: 0 };
		return {};
	}
	if (!newest) return {};
	// How far back, on the server's own clock (n8n's is never compared with it).
	const floor = newest.seconds - options.catchUpHours * 3600;
	const running = catchUp(run, ask, cursor, floor).catch(report);
	const response: ITriggerResponse & CatchUpResponse = {
		closeFunction: async () => {
			stopped = true;
			await Promise.race([running, pause(1_000)]);
		},
		settled: running,
	};
	return response;
}

function toNodeError(node: INode, error: Error, connection: Connection): Error {
	const secrets = [connection.apiKey, ...secretsOfUrl(connection.baseUrl)];
	if (error instanceof HelperAnswerError) {
		// An answer of Find Messages that is not a page of stored messages (the one door's words).
		return redactError(
			new NodeOperationError(node, `Catch Up stopped: ${error.message}`, {
				description: 'Nothing of that answer was emitted. Check the Base URL and the dialect of the credential (a proxy or another server may answer this route); the next start tries again from the cursor.',
			}),
			secrets,
		);
	}
	return redactError(error instanceof NodeOperationError || error.name === 'NodeApiError' ? error : new NodeOperationError(node, error.message), secrets);
}

/**
 * The live delivery's cursor write, again inside its execution (the node's execute()). n8n
 * 2.40.7 saves the static data a webhook() changed only when no execution starts: creating
 * the execution wraps the same static data again, which clears its "changed" mark, so the
 * write in webhook() is lost exactly when it matters. The execution's own change is saved
 * when it ends (workflowExecuteAfter). At most once per LIVE_CURSOR_EVERY_MS, as in webhook().
 */
export function noteLiveExecution(ctx: IExecuteFunctions, items: readonly INodeExecutionData[]): void {
	if (ctx.getMode() !== 'webhook') return;
	const node = ctx.getNode();
	if (!readOptions(ctx.getNodeParameter('options', 0, {}), node.typeVersion).catchUp) return;
	const received = receivedInItems(items);
	if (received.length === 0) return;
	const data = ctx.getWorkflowStaticData('node');
	const before = cursorOf(data);
	noteReceived(data, received);
	// Where the execution shares the static data webhook() just wrote (its save then lost),
	// the cursor naming this delivery's message is set again, so that the execution saves it.
	if (before && cursorOf(data) === before && received.some((message) => message.seconds === before.seconds && before.ids.includes(message.id))) {
		(data as { catchUp?: CatchUpCursor }).catchUp = { ...before };
	}
}
