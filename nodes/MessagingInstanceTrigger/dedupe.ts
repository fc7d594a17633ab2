/**
 * Servers deliver at least once: a delivery that timed out is sent again, so the same event
 * can arrive twice. The trigger remembers what it emitted recently, per workflow and node,
 * and drops a repeat. Bounded in size and age; no timers (ages are checked on use).
 */

export const MAX_ENTRIES = 1_000;
export const MAX_AGE_MS = 10 * 60 * 1_000;
const MAX_SCOPES = 1_000;

/** scope (workflow + node + mode) -> key -> time first seen; Map order = least recent first. */
const seenByScope = new Map<string, Map<string, number>>();

function scopeOf(scope: string): Map<string, number> {
	let seen = seenByScope.get(scope);
	if (seen) {
		seenByScope.delete(scope);
	} else {
		seen = new Map();
		if (seenByScope.size >= MAX_SCOPES) {
			const oldest = seenByScope.keys().next().value;
			if (oldest !== undefined) seenByScope.delete(oldest);
		}
	}
	seenByScope.set(scope, seen);
	return seen;
}

/**
 * Records `key` and says whether it is new. A key seen within MAX_AGE_MS is a duplicate.
 * Check and record happen together, so two copies arriving at once cannot both pass.
 */
export function firstSighting(scope: string, key: string, now: number = Date.now()): boolean {
	const seen = scopeOf(scope);
	// Drop what has aged out, oldest first.
	for (const [oldKey, at] of seen) {
		if (now - at < MAX_AGE_MS) break;
		seen.delete(oldKey);
	}
	const at = seen.get(key);
	if (at !== undefined && now - at < MAX_AGE_MS) return false;
	seen.delete(key);
	seen.set(key, now);
	while (seen.size > MAX_ENTRIES) {
		const oldest = seen.keys().next().value;
		if (oldest === undefined) break;
		seen.delete(oldest);
	}
	return true;
}

/** Forgets `key` again, when the event it stands for could not be emitted after all. */
export function forget(scope: string, key: string): void {
	seenByScope.get(scope)?.delete(key);
}
