/**
 * Injected failures (`failNext`, POST /_sandbox/fail): the next requests, or the next ones whose
 * path contains a given part, answer with a chosen status and message instead of their route's
 * answer. The dispatcher takes one where the real servers' order puts errors (./dispatch.ts).
 */

export interface FailRule {
	status: number;
	message: string;
	/** how many requests it still fails */
	times: number;
	/** only requests whose path contains this */
	path?: string;
}

export interface FailOptions {
	status: number;
	message: string;
	times?: number;
	path?: string;
}

/**
 * What the real server answers when WhatsApp refuses a send (`refuseSends`, POST
 * /_sandbox/refuseSends). Its send handler turns any error of the send into a 400 with the
 * error's `toString()` (sendMessageWithTyping: `new BadRequestException(error.toString())`),
 * so Baileys' `rate-overlimit` reads "Error: rate-overlimit". A logged-out instance has its
 * socket closed: the number check before the send throws Baileys' "Connection Closed" outside
 * that handler, which the server's error handler answers as a 500.
 */
export const SEND_REFUSALS = {
	rateOverlimit: { status: 400, message: 'Error: rate-overlimit' },
	loggedOut: { status: 500, message: 'Connection Closed' },
} as const;

export interface SendRefusalOptions {
	kind: keyof typeof SEND_REFUSALS;
	/** how many sends still go through first (0: the next send is refused) */
	after?: number;
	/** how many sends it refuses (a logged-out instance: every one, unless given) */
	times?: number;
}

/** The routes that send a message: every `/message/send…` route. */
const isSend = (path: string) => path.includes('/message/send');

export class InjectedFailures {
	private readonly rules: FailRule[] = [];
	private readonly refusals: Array<{ kind: SendRefusalOptions['kind']; after: number; times: number }> = [];

	/** From the next sends on, after `after` of them, WhatsApp refuses `times` sends. */
	refuseSends(opts: SendRefusalOptions): void {
		this.refusals.push({ kind: opts.kind, after: opts.after ?? 0, times: opts.times ?? (opts.kind === 'loggedOut' ? Infinity : 1) });
	}

	/** The refusal of this send, when one is due (each armed refusal counts the sends it sees). */
	private refusal(path: string): FailRule | undefined {
		if (!isSend(path)) return undefined;
		let due: FailRule | undefined;
		for (const rule of [...this.refusals]) {
			if (rule.after > 0) {
				rule.after -= 1;
				continue;
			}
			if (due) continue;
			due = { ...SEND_REFUSALS[rule.kind], times: 0 };
			rule.times -= 1;
			if (rule.times <= 0) this.refusals.splice(this.refusals.indexOf(rule), 1);
		}
		return due;
	}

	add(opts: FailOptions): void {
		this.rules.push({ status: opts.status, message: opts.message, times: opts.times ?? 1, path: opts.path });
	}

	/**
	 * The failure this request gets (counted as used), or undefined: at `route` an injected one,
	 * at `send` (a send past the server's own checks, as WhatsApp sees it) a refusal of WhatsApp's.
	 */
	take(path: string, stage: 'route' | 'send' = 'route'): FailRule | undefined {
		if (stage === 'send') return this.refusal(path);
		const rule = this.rules.find((r) => !r.path || path.includes(r.path));
		if (rule) {
			rule.times -= 1;
			if (rule.times <= 0) this.rules.splice(this.rules.indexOf(rule), 1);
		}
		return rule;
	}

	clear(): void {
		this.rules.length = 0;
		this.refusals.length = 0;
	}
}

export interface LateOptions {
	ms: number;
	times?: number;
	path?: string;
}

/**
 * Late answers (`answerLate`, POST /_sandbox/late): the next requests, or the next ones whose
 * path contains a given part, run as usual (a send goes out and is stored) and are answered
 * `ms` later: a server slower than the client's timeout, which the client sees as a failure
 * although the message went out.
 */
export class LateAnswers {
	private readonly rules: Array<{ ms: number; times: number; path?: string }> = [];

	add(opts: LateOptions): void {
		this.rules.push({ ms: opts.ms, times: opts.times ?? 1, path: opts.path });
	}

	/** How long this request's answer waits (counted as used), or undefined. */
	take(path: string): number | undefined {
		const rule = this.rules.find((r) => !r.path || path.includes(r.path));
		if (!rule) return undefined;
		rule.times -= 1;
		if (rule.times <= 0) this.rules.splice(this.rules.indexOf(rule), 1);
		return rule.ms;
	}

	clear(): void {
		this.rules.length = 0;
	}
}
