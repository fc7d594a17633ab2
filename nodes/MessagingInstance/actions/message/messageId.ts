import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ownMessageId } from '../../../shared/ownMessageId';
import type { Dialect } from '../../../shared/dialect';
import type { ItemParameters } from '../parameters';
import type { BuiltRequest, OperationRun } from '../types';

/**
 * A message id the node chooses for Send Text, Media, Video Note, Sticker and Poll, so that a
 * send n8n runs again does not reach the contact twice.
 *
 * Evolution API 2.4 makes a send's `messageId` the message's `key.id`; 2.3.x ignores the field
 * (no schema of any version refuses an extra property, so it goes to every v2 server and costs
 * no version request). The server does not deduplicate by it: a second send with the same id
 * goes out and is stored again. So the id alone prevents nothing; what it gives is a way to
 * ask, before sending again, whether the first attempt went out (Find Messages by `key.id`).
 *
 * When to ask: n8n's Retry On Fail runs the whole node again, every item, with nothing telling
 * the node it is a retry (n8n-core's WorkflowExecute calls the node again in the same run).
 * The node keeps what became of each item's send in its node context, which lives as long as
 * the execution (SendRecord): on a retry, an item whose earlier try may have gone out is
 * looked up first. A first run, and an item that was refused or never tried, sends straight
 * away: no extra request.
 *
 * The id is the same on every try of the same item: it is made from the workflow, the
 * execution, the node, the node's run (a loop runs a node several times) and the item.
 */

/** What a user may set: WhatsApp ids are short runs of letters and digits. */
const USER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const messageIdOption: INodeProperties = {
	displayName: 'Message ID',
	name: 'messageId',
	type: 'string',
	default: '',
	placeholder: '3EB0C431C26A1916E07A',
	description:
		"The ID the message gets on Evolution API 2.4 (older servers choose their own). Left empty, the node makes one from the execution, the node and the item, the same on every retry. Set it only to an ID no other message has: a retry that finds a message with this ID does not send again. Letters, digits, '-' and '_', at most 64.",
};

/** The options collection with Message ID among its options, in the order the editor lists them. */
export function withMessageIdOption(options: INodeProperties): INodeProperties {
	return {
		...options,
		options: [...(options.options as INodeProperties[]), messageIdOption].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** Which run of the node this is in the execution (0 unless a loop runs it again); n8n's `$runIndex`. */
export function runIndexOf(ctx: IExecuteFunctions): number {
	const runIndex = Number(ctx.getWorkflowDataProxy(0).$runIndex);
	return Number.isInteger(runIndex) && runIndex >= 0 ? runIndex : 0;
}

/**
 * The node's id for one item of one run: a hash of what makes the send unique, in the form
 * the package's sends are known by again (../../../shared/ownMessageId.ts), or undefined
 * without an execution id (then no two runs could be told apart).
 */
export function nodeMessageId(ctx: IExecuteFunctions, runIndex: number, itemIndex: number): string | undefined {
	const executionId = ctx.getExecutionId();
	if (typeof executionId !== 'string' || executionId === '') return undefined;
	return ownMessageId(JSON.stringify([ctx.getWorkflow().id ?? '', executionId, ctx.getNode().id, runIndex, itemIndex]));
}

/**
 * The item's message id: the one the user set, else the node's; undefined on the documented
 * interface (it has no such field) or when the node cannot make one.
 */
export function messageIdFor(params: ItemParameters, dialect: Dialect, run: OperationRun): string | undefined {
	if (!dialect.servesV2Routes) return undefined;
	const options = params.collection('options');
	const given = params.checkText(options.messageId, params.label('options.messageId')).trim();
	if (given !== '') {
		if (!USER_ID_PATTERN.test(given)) {
			params.fail(params.label('options.messageId'), "must be 1 to 64 letters, digits, '-' or '_'", 'Leave it empty to let the node choose one.');
		}
		return given;
	}
	return run.messageId(params.itemIndex);
}

/** A send's request with its message id in the body, when it has one. */
export function withMessageId(request: BuiltRequest, messageId: string | undefined): BuiltRequest {
	return messageId === undefined ? request : { ...request, body: { ...request.body, messageId } };
}

/** The message id a built request carries. */
export function messageIdOf(request: BuiltRequest): string | undefined {
	const id = request.body?.messageId;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Where the node context keeps what became of this run's sends. */
const SEND_RECORD = 'messageSends';

/** An item's send: answered (`s`), refused by an HTTP answer (`r`), or no answer to tell (`u`). */
type Outcome = 's' | 'r' | 'u';

/**
 * Whether a failed send may have gone out: no HTTP answer (a timeout, a dropped connection),
 * a 2xx the node could not read, or a 5xx (the server, or a gateway before it, may fail after
 * sending). A 3xx or 4xx answer means the send was refused.
 */
function outcomeOfFailure(error: unknown): Outcome {
	const status = Number((error as { httpCode?: unknown } | null)?.httpCode);
	return Number.isInteger(status) && status >= 300 && status < 500 ? 'r' : 'u';
}

/**
 * What became of each item's send in this run of the node, kept in the node context, which
 * n8n keeps for the whole execution and so across its Retry On Fail. One letter per item sent
 * (the node's earlier runs are dropped: n8n retries a run straight away).
 */
export class SendRecord {
	private constructor(
		private readonly outcomes: Outcome[],
		/** Whether this run of the node ran before: n8n is retrying it. */
		readonly retried: boolean,
	) {}

	/** This run's record; a context n8n does not keep (no execution data) gives one for this run alone. */
	static open(ctx: IExecuteFunctions, runIndex: number): SendRecord {
		let context: IDataObject;
		try {
			context = ctx.getContext('node') as IDataObject;
		} catch {
			return new SendRecord([], false);
		}
		const kept = context[SEND_RECORD] as { run?: unknown; outcomes?: unknown } | undefined;
		if (kept && kept.run === runIndex && Array.isArray(kept.outcomes)) return new SendRecord(kept.outcomes as Outcome[], true);
		const outcomes: Outcome[] = [];
		context[SEND_RECORD] = { run: runIndex, outcomes };
		return new SendRecord(outcomes, false);
	}

	/** Which item of this run of the node gave each message id: two items must never share one. */
	private readonly owners = new Map<string, number>();

	/**
	 * The item's message id, once per run of the node: an id another item of the run already
	 * has is refused (its look-up would find the other item's message and output it as this
	 * item's, or a lost send would never be told).
	 */
	claim(messageId: string, itemIndex: number, params: ItemParameters): void {
		const owner = this.owners.get(messageId);
		if (owner !== undefined && owner !== itemIndex) {
			params.fail(params.label('options.messageId'), `is "${messageId}", the Message ID of item ${owner} too`, 'Give each item its own Message ID (e.g. from the item\'s own order number), or leave it empty to let the node choose one per item.');
		}
		this.owners.set(messageId, itemIndex);
	}

	/**
	 * Sends the item's message once: on a retry, when the try before may have sent it, the
	 * server's stored message answers instead of a second send.
	 */
	async sendOnce(itemIndex: number, lookUp: () => Promise<IDataObject | undefined>, send: () => Promise<unknown>): Promise<unknown> {
		const before = this.outcomes[itemIndex];
		if (this.retried && (before === 's' || before === 'u')) {
			const stored = await lookUp();
			if (stored !== undefined) {
				this.outcomes[itemIndex] = 's';
				return stored;
			}
		}
		// The send's own error (already the node's) goes on as it is, once its outcome is kept.
		const [attempt] = await Promise.allSettled([send()]);
		this.outcomes[itemIndex] = attempt.status === 'fulfilled' ? 's' : outcomeOfFailure(attempt.reason);
		if (attempt.status === 'rejected') throw attempt.reason;
		return attempt.value;
	}
}

/**
 * The message this instance sent with this id, as the server stores it, or undefined when it
 * has none. `ask` is the router's door (requests.ts LOOK_UP_BEFORE_RESEND): an answer that is
 * not a page of message records fails the item there — sending without knowing could send
 * twice. Of the records, only this message in this chat belongs to the look-up.
 */
export async function findSentMessage(ask: (body: IDataObject) => Promise<unknown>, lookup: { messageId: string; chat: unknown }): Promise<IDataObject | undefined> {
	const answer = (await ask({ where: { key: { id: lookup.messageId, fromMe: true } }, page: 1, offset: 10 })) as { messages: { records: IDataObject[] } };
	const chat = typeof lookup.chat === 'string' ? lookup.chat : undefined;
	return answer.messages.records.find((entry) => {
		const key = entry.key as { id?: unknown; remoteJid?: unknown } | null | undefined;
		return key?.id === lookup.messageId && (chat === undefined || sameChat(key.remoteJid, chat));
	});
}

/** The digits of a chat's user part: `5511999990000` of `5511999990000@s.whatsapp.net` or of `+55 11 99999-0000`. */
function userOf(chat: string): string {
	const user = chat.split('@')[0];
	return /^[\d\s()+-]+$/.test(user) ? user.replace(/\D/g, '') : user;
}

/**
 * Whether a stored message's chat (or a check result's number) is the one this send goes to. Brazilian mobile numbers are
 * stored with or without the ninth digit (the server asks WhatsApp), so both forms match.
 */
export function sameChat(stored: unknown, sentTo: string): boolean {
	if (typeof stored !== 'string') return false;
	const a = userOf(stored);
	const b = userOf(sentTo);
	if (a === b) return true;
	const withoutNinth = (digits: string) => (/^55\d{2}9\d{8}$/.test(digits) ? `${digits.slice(0, 4)}${digits.slice(5)}` : digits);
	return /^\d+$/.test(a) && /^\d+$/.test(b) && withoutNinth(a) === withoutNinth(b);
}
