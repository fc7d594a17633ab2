/**
 * The sandbox's state file while it runs: read once at start (or removed, with `fresh`),
 * written shortly after each change and on close. Changes come in bursts, so one write serves
 * a burst; an unchanged state is not written again. What the file holds and how it is written
 * safely: ./store.ts.
 */
import { unlinkSync } from 'fs';
import type { ChatEntry, Instance } from './types';
import { loadState, serialize, writeStateAtomically } from './store';

/** What the server's state is made of, as saved. */
export interface StateParts {
	instances: Instance[];
	chat: ChatEntry[];
}

export class StateFile {
	/** what loading found when the file could not be used (undefined when all went well) */
	note?: string;
	private timer?: NodeJS.Timeout;
	private savedText = '';
	private closed = false;

	/**
	 * @param file where the state lives; without one, nothing is read or written
	 * @param current the state as it is now
	 */
	constructor(
		private readonly file: string | undefined,
		private readonly current: () => StateParts,
		private readonly log: (line: string) => void,
	) {}

	/** At start: the saved state, or nothing (no file, `fresh`, or a file that cannot be used). */
	load(fresh: boolean): StateParts | undefined {
		const file = this.file;
		if (!file) return undefined;
		if (fresh) {
			for (const f of [file, `${file}.corrupt`]) {
				try {
					unlinkSync(f);
				} catch {
					/* not there */
				}
			}
			return undefined;
		}
		const loaded = loadState(file);
		if (loaded.problem) {
			this.note = loaded.problem;
			this.log(`sandbox: ${loaded.problem}`);
		}
		return loaded.state;
	}

	/** Something changed: writes the state shortly. */
	changed(): void {
		if (!this.file || this.closed || this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.save();
		}, 200);
		this.timer.unref();
	}

	/** Writes the state now, unless it is what was written last. */
	save(): void {
		const file = this.file;
		if (!file) return;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		try {
			const { instances, chat } = this.current();
			const text = serialize(instances, chat);
			if (text === this.savedText) return;
			writeStateAtomically(file, text);
			this.savedText = text;
		} catch (e) {
			this.log(`sandbox: could not save the state to ${file}: ${e instanceof Error ? e.message : String(e)}`);
		}
	}

	/** The server closes: a last write, and no more writes scheduled by changes. */
	close(): void {
		this.save();
		this.closed = true;
	}
}
