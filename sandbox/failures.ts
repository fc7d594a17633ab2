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

export class InjectedFailures {
	private readonly rules: FailRule[] = [];

	add(opts: FailOptions): void {
		this.rules.push({ status: opts.status, message: opts.message, times: opts.times ?? 1, path: opts.path });
	}

	/** The failure this request gets (counted as used), or undefined. */
	take(path: string): FailRule | undefined {
		const rule = this.rules.find((r) => !r.path || path.includes(r.path));
		if (rule) {
			rule.times -= 1;
			if (rule.times <= 0) this.rules.splice(this.rules.indexOf(rule), 1);
		}
		return rule;
	}

	clear(): void {
		this.rules.length = 0;
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
