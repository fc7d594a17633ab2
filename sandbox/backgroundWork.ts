/**
 * The work a sandbox runs beside its answers: deliveries it waits for before it closes, and
 * sleeps (retry back-offs, held sends, late answers) that closing cuts short. Dev/test tool only.
 */
export class BackgroundWork {
	private readonly pending = new Set<Promise<unknown>>();
	private readonly sleepers = new Set<() => void>();
	private stopped = false;

	/** Keeps the promise until it settles, so `settled()` waits for it. */
	track<T>(p: Promise<T>): Promise<T> {
		this.pending.add(p);
		const done = (): void => {
			this.pending.delete(p);
		};
		p.then(done, done);
		return p;
	}

	/** Waits `ms`, or not at all once stopped; `stop()` wakes every sleep still waiting. */
	sleep(ms: number): Promise<void> {
		if (ms <= 0 || this.stopped) return Promise.resolve();
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

	/** Ends every sleep now and every later one at once (the sandbox is closing). */
	stop(): void {
		this.stopped = true;
		for (const wake of this.sleepers) wake();
	}

	/** Resolves once every tracked promise (and any it started meanwhile) has settled. */
	async settled(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}
}
