/**
 * One check of a tier, named for the behaviour it checks: `run` throws to fail. A gate sets up
 * what the checks after it need, so when it fails they are listed as not run.
 */
export interface NamedCheck<C> {
	name: string;
	run: (context: C) => unknown | Promise<unknown>;
	gate?: boolean;
}

/**
 * What every end-to-end runner prints: one PASS/FAIL line per check (the failure's detail
 * indented under it), SKIP banners that cannot be missed, and a last line
 * `<label>: N passed, N failed[, N skipped]` whose exit code CI reads.
 */
export class Report {
	private readonly results: Array<{ name: string; ok: boolean }> = [];
	private readonly skipped: string[] = [];
	/** Set on Ctrl-C: the checks still running fail as everything stops; they are not reported. */
	interrupted = false;

	constructor(private readonly label: string) {}

	record(name: string, ok: boolean, detail?: string): void {
		if (this.interrupted) return;
		this.results.push({ name, ok });
		console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${!ok && detail ? `\n     ${detail.replace(/\n/g, '\n     ')}` : ''}`);
	}

	/** Runs one check: PASS when `fn` returns, FAIL with the thrown message otherwise. */
	async check(name: string, fn: () => unknown | Promise<unknown>): Promise<boolean> {
		try {
			await fn();
			this.record(name, true);
			return true;
		} catch (e) {
			this.record(name, false, e instanceof Error ? e.message : String(e));
			return false;
		}
	}

	/** Runs the checks one after another; false when a gate failed and the rest were not run. */
	async runInOrder<C>(checks: ReadonlyArray<NamedCheck<C>>, context: C): Promise<boolean> {
		for (const [index, c] of checks.entries()) {
			const ok = await this.check(c.name, () => c.run(context));
			if (!ok && c.gate) {
				for (const later of checks.slice(index + 1)) console.log(`NOT RUN ${later.name}`);
				return false;
			}
		}
		return true;
	}

	skip(name: string, why: string): void {
		this.skipped.push(name);
		console.log('!'.repeat(78));
		console.log(`SKIP ${name}\n!!!  ${why}`);
		console.log('!'.repeat(78));
	}

	get failed(): number {
		return this.results.filter((r) => !r.ok).length;
	}

	/** Prints the last line and exits: 1 on any failure, 130 when interrupted. */
	summary(): never {
		const passed = this.results.length - this.failed;
		const skipped = this.skipped.length > 0 ? `, ${this.skipped.length} skipped` : '';
		console.log(`${this.label}: ${passed} passed, ${this.failed} failed${skipped}${this.interrupted ? ' (interrupted)' : ''}`);
		process.exit(this.interrupted ? 130 : this.failed > 0 ? 1 : 0);
	}
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Polls `fn` until it gives a value (not undefined, null or false), or fails after the timeout. */
export async function waitFor<T>(
	what: string,
	fn: () => T | undefined | Promise<T | undefined>,
	timeoutMs = 30000,
	pollMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v !== undefined && v !== null && (v as unknown) !== false) return v as T;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(pollMs);
	}
}
