import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { pause } from '../../../../shared/pause';
import type { ItemParameters } from '../../parameters';
import type { BuiltRequest, MessageSend } from '../../types';
import { checkAccounts, type AccountCheck } from './accounts';
import { readSending, MAX_WAIT_SECONDS, type SendingSettings } from './options';

/**
 * A run of a send with its Sending options (./options.ts): the router asks it, in its one item
 * loop, whether an item is sent at all (`held`), adds the typing to the request (`typed`),
 * sends through it (`send`: the pause, then the send, tried again after rate limits) and tells
 * it how each item ended (`sent`, `failed`). A node whose Sending options are not set has no
 * Campaign: it sends as it always did.
 */

/** What happened to an item of a send, in its output. */
export type Outcome = 'sent' | 'skipped' | 'notSent' | 'failed';

/** Time as the campaign sees it; tests may give their own. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

/** How long typing lasts per character of the text: about 200 characters a minute, a quick typist. */
export const TYPING_MS_PER_CHARACTER = 300;

/** The body fields whose text the contact would see typed, first found first. */
const TYPED_FIELDS = ['text', 'caption', 'description', 'title', 'name'] as const;

/** The server's text for WhatsApp refusing sends for their rate (Baileys' `rate-overlimit`, inside a 400). */
const RATE_OVERLIMIT = /rate-overlimit/i;

/**
 * Texts that say the account, not the message, is in trouble: the connection closed (Baileys'
 * "Connection Closed", a logged-out or banned instance), a logout, WhatsApp's own refusals.
 */
const ACCOUNT_TROUBLE = /connection closed|connection lost|connection terminated|logged ?out|not-authorized|stream errored|rate-overlimit|forbidden/i;

function statusOf(error: unknown): number {
	return Number((error as { httpCode?: unknown } | null)?.httpCode);
}

function textOf(error: unknown): string {
	const { message, description } = (error ?? {}) as { message?: unknown; description?: unknown };
	return `${typeof message === 'string' ? message : ''} ${typeof description === 'string' ? description : ''}`;
}

/** Whether a failed send was refused for a rate limit: HTTP 429, or WhatsApp's rate-overlimit. */
export function isRateLimit(error: unknown): boolean {
	return statusOf(error) === 429 || RATE_OVERLIMIT.test(textOf(error));
}

/** Whether a failed send looks like the account is in trouble (see ACCOUNT_TROUBLE), or the key is refused (401). */
export function isAccountTrouble(error: unknown): boolean {
	return statusOf(error) === 401 || isRateLimit(error) || ACCOUNT_TROUBLE.test(textOf(error));
}

/** The wait a 429 names in seconds, any number of digits (the transport writes Retry-After into its message as "retry after N s"). */
function retryAfterSeconds(error: unknown): number | undefined {
	const match = /retry after (\d+) s/.exec(textOf(error));
	return match ? Number(match[1]) : undefined;
}

/** The node's waits: shared/pause.ts (n8n-workflow's sleep, ended by the execution's cancel signal), said in the campaign's words. */
const realClock = (node: INode, signal: AbortSignal | undefined): Clock => ({
	now: () => Date.now(),
	sleep: async (ms) => {
		try {
			await pause(ms, signal);
		} catch {
			throw new NodeOperationError(node, 'The execution was stopped during a pause between messages');
		}
	},
	random: () => Math.random(),
});

/** The rate limit's error, saying the server asked for a wait longer than the node waits (MAX_WAIT_SECONDS). */
function tooLongWait(error: unknown, seconds: number): unknown {
	const refusal = error as { message?: unknown; description?: unknown };
	if (typeof refusal.message === 'string') {
		refusal.message = `${refusal.message}: the server asks to wait ${seconds > 1e9 ? 'more than 30 years' : `${seconds} s`}, more than ${MAX_WAIT_SECONDS / 60} minutes, so the message is not tried again`;
	}
	return error;
}

export class Campaign {
	/** When the last message of this run (its first try or a retry) went out, and when the server answered it. */
	private last: { startAt: number; answerAt: number } | undefined;
	private failuresInARow = 0;
	/** Why the run stopped sending, once it has. */
	private stoppedBecause: string | undefined;

	/** A campaign of these settings; `open` reads them from the node. */
	constructor(
		private readonly settings: SendingSettings,
		private accounts: AccountCheck,
		private readonly clock: Clock,
		private readonly itemParameters?: (itemIndex: number) => ItemParameters,
		private readonly itemCount = 0,
	) {}

	/** The run's campaign, or undefined when the Sending options are not set: read from the first item. */
	static open(ctx: IExecuteFunctions, send: MessageSend, itemParameters: (itemIndex: number) => ItemParameters, clock?: Clock): Campaign | undefined {
		const settings = readSending(itemParameters(0), send);
		if (!settings) return undefined;
		const signal = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined }).getExecutionCancelSignal?.();
		return new Campaign(settings, new Map(), clock ?? realClock(ctx.getNode(), signal), itemParameters, ctx.getInputData().length);
	}

	/**
	 * Only Numbers With an Account: checks the numbers of every item in one request per instance
	 * (in batches) before anything is sent. `checkNumbers` is the router's door (the declared
	 * account check): it answers check results or throws, and then nothing is sent.
	 */
	async checkAccounts(checkNumbers: (instance: string, numbers: string[]) => Promise<unknown>): Promise<void> {
		if (!this.settings.onlyNumbersWithAccount || !this.itemParameters) return;
		this.accounts = await checkAccounts(this.itemCount, this.itemParameters, checkNumbers);
	}

	/** What an item comes out as when it is not sent (no account, or the run has stopped); undefined: send it. */
	held(itemIndex: number): IDataObject | undefined {
		const number = this.accounts.get(itemIndex);
		if (this.stoppedBecause !== undefined) {
			return { outcome: 'notSent' satisfies Outcome, reason: this.stoppedBecause, ...(number ? { number: number.number } : {}) };
		}
		if (number?.verdict === 'noAccount') {
			return { outcome: 'skipped' satisfies Outcome, reason: 'The number has no WhatsApp account (checked before the first message)', number: number.number };
		}
		if (number?.verdict === 'notNamed') {
			return {
				outcome: 'notSent' satisfies Outcome,
				reason: 'Not sent: the account check before the first message did not name this number, so nobody said it has a WhatsApp account',
				number: number.number,
			};
		}
		return undefined;
	}

	/**
	 * The request with its typing: the server shows "typing…" (or "recording…") for the body's
	 * `delay` before it sends. A Delay the user set in Options is kept as it is.
	 */
	typed(request: BuiltRequest): BuiltRequest {
		const typing = this.settings.typing;
		if (!typing || !request.body || request.body.delay !== undefined) return request;
		const text = TYPED_FIELDS.map((field) => request.body?.[field]).find((value): value is string => typeof value === 'string');
		const delay = Math.min(typing.maxMs, typing.minMs + (text?.length ?? 0) * TYPING_MS_PER_CHARACTER);
		return { ...request, body: { ...request.body, delay }, extraWaitMs: (request.extraWaitMs ?? 0) + delay };
	}

	/**
	 * Sends after the pause, and again after a rate limit while retries are left: the wait the
	 * server names, else a growing one with a random part. Before sending again, a message that
	 * may have gone out is looked up (`lookUp`), as n8n's retried sends are.
	 */
	async send<T>(send: () => Promise<T>, lookUp?: () => Promise<IDataObject | undefined>): Promise<T | IDataObject> {
		const rateLimit = this.settings.rateLimit;
		for (let retry = 0; ; retry++) {
			await this.pause();
			const startAt = this.clock.now();
			// The send's own error (already the node's, redacted) goes on as it is when it is not retried.
			const [attempt] = await Promise.allSettled([send()]);
			this.last = { startAt, answerAt: this.clock.now() };
			if (attempt.status === 'fulfilled') return attempt.value;
			const error: unknown = attempt.reason;
			if (!rateLimit || retry >= rateLimit.retries || !isRateLimit(error)) throw error;
			const named = retryAfterSeconds(error);
			// A server that asks for longer than the node ever waits gets the error, not a hung run.
			if (named !== undefined && named > MAX_WAIT_SECONDS) throw tooLongWait(error, named);
			const wait = named !== undefined ? named * 1000 : rateLimit.firstWaitMs * 2 ** retry + this.clock.random() * rateLimit.firstWaitMs;
			if (wait > MAX_WAIT_SECONDS * 1000) throw error;
			await this.clock.sleep(wait);
			// A rate limit is an answer that refused the message; the lookup only guards against a
			// server that took it all the same, so a lookup that fails does not stop the retry.
			const stored = await lookUp?.().catch(() => undefined);
			if (stored !== undefined) return stored;
		}
	}

	/**
	 * The pause before a message; none before the first. The next message starts a random time
	 * in the window after the last one started, so the server sees the window's gaps, and never
	 * less than the window's least after the last answer, so that a slow answer (or typing the
	 * server holds) never shortens the gap below it.
	 */
	private async pause(): Promise<void> {
		const pause = this.settings.pause;
		if (!pause || this.last === undefined) return;
		const drawn = pause.minMs + this.clock.random() * (pause.maxMs - pause.minMs);
		const due = Math.max(this.last.startAt + drawn, this.last.answerAt + pause.minMs);
		const wait = due - this.clock.now();
		if (wait > 0) await this.clock.sleep(wait);
	}

	/** The output of a sent item: its records, each saying it was sent and naming the message's id. */
	sent(records: IDataObject[]): IDataObject[] {
		this.failuresInARow = 0;
		return records.map((record) => {
			const keyId = (record.key as { id?: unknown } | undefined)?.id;
			const messageId = record.messageId ?? (typeof keyId === 'string' ? keyId : undefined);
			return { ...record, outcome: 'sent' satisfies Outcome, ...(messageId !== undefined ? { messageId } : {}) };
		});
	}

	/**
	 * Counts a failed item: the failures in a row that look like account trouble stop the run
	 * at the set number. Returns the fields its error item adds.
	 */
	failed(error: unknown): IDataObject {
		const limit = this.settings.stopAfterFailures;
		if (!isAccountTrouble(error)) {
			this.failuresInARow = 0;
		} else if (limit !== undefined && ++this.failuresInARow >= limit && this.stoppedBecause === undefined) {
			const last = textOf(error).trim().slice(0, 300);
			this.stoppedBecause = `Not sent: the run stopped after ${this.failuresInARow} failures in a row that look like account trouble (the last: ${last})`;
		}
		return { outcome: 'failed' satisfies Outcome };
	}
}
