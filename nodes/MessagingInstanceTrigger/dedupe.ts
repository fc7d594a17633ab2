import { createHash, hash as oneShotHash, type Hash } from 'node:crypto';

/**
 * Servers deliver at least once: a delivery that timed out is sent again, so the same event
 * can arrive twice. Two parts:
 *
 * - `dedupeKey`: a stable text per event, the same for every copy of it in any process (made
 *   of the event alone: no process memory, no time, no secret), different for different
 *   events. Every item carries it, so a queue-mode setup can drop copies that reached
 *   another process (README, "Running in queue mode").
 * - an in-process memory of the keys emitted recently, per workflow and node, that drops a
 *   repeat reaching the same process. It keeps fixed-size hashes, never the ids themselves,
 *   so its size is bounded in bytes whatever the deliveries carry; and it is bounded in
 *   entries and age. No timers (ages are checked on use).
 */

export const MAX_ENTRIES = 20_000;
export const MAX_AGE_MS = 10 * 60 * 1_000;
/** Longest (scope, key) kept as it is; a longer one is kept as its 44-character hash. */
export const MAX_ENTRY_CHARS = 160;

function digest(hash: Hash): string {
	return hash.digest('base64url');
}

/** A message event: instance, event, chat, direction and message id name it. */
export function messageDedupeKey(parts: {
	instance: string;
	event: string;
	remoteJid: string;
	fromMe: boolean;
	id: string;
}): string {
	const { instance, event, remoteJid, fromMe, id } = parts;
	return oneShotHash('sha256', JSON.stringify(['message', instance, event, remoteJid, fromMe, id]), 'base64url');
}

/** Feeds a JSON value to the hash with its keys sorted, so key order does not matter. */
function feed(hash: Hash, value: unknown, depth: number): void {
	// The value comes from the bounded walk (shape.ts), so this recursion is bounded too.
	if (depth > 100) throw new Error('nested too deeply to hash');
	if (Array.isArray(value)) {
		hash.update('[');
		for (const entry of value) {
			feed(hash, entry, depth + 1);
			hash.update(',');
		}
		hash.update(']');
	} else if (typeof value === 'object' && value !== null) {
		hash.update('{');
		for (const key of Object.keys(value).sort()) {
			hash.update(JSON.stringify(key));
			hash.update(':');
			feed(hash, (value as Record<string, unknown>)[key], depth + 1);
			hash.update(',');
		}
		hash.update('}');
	} else {
		hash.update(JSON.stringify(value ?? null));
	}
}

/**
 * Any other event: the whole event in canonical form, with the time the server stamped on it
 * (the same in every retry of it): a connection that opens again later is a new event.
 */
export function eventDedupeKey(instance: string, event: string, dateTime: unknown, data: unknown): string {
	const stamp = typeof dateTime === 'string' || typeof dateTime === 'number' ? dateTime : null;
	const hash = createHash('sha256').update(JSON.stringify(['event', instance, event, stamp]));
	feed(hash, data, 0);
	return digest(hash);
}

/** (scope, key) -> time first seen; Map order = least recent first. */
const seen = new Map<string, number>();

/** A bounded text for (scope, key): the keys made above are hashes already; anything longer is hashed. */
function entryOf(scope: string, key: string): string {
	const entry = `${scope}\u0000${key}`;
	return entry.length <= MAX_ENTRY_CHARS ? entry : oneShotHash('sha256', entry, 'base64');
}

/**
 * Records `key` in `scope` and says whether it is new. A key seen within MAX_AGE_MS is a
 * duplicate. Check and record happen together, so two copies arriving at once cannot both pass.
 */
export function firstSighting(scope: string, key: string, now: number = Date.now()): boolean {
	// Drop what has aged out, oldest first.
	for (const [oldEntry, at] of seen) {
		if (now - at < MAX_AGE_MS) break;
		seen.delete(oldEntry);
	}
	const entry = entryOf(scope, key);
	const at = seen.get(entry);
	if (at !== undefined && now - at < MAX_AGE_MS) return false;
	seen.delete(entry);
	seen.set(entry, now);
	while (seen.size > MAX_ENTRIES) {
		const oldest = seen.keys().next().value;
		if (oldest === undefined) break;
		seen.delete(oldest);
	}
	return true;
}

/** Forgets `key` again, when the event it stands for could not be emitted after all. */
export function forget(scope: string, key: string): void {
	seen.delete(entryOf(scope, key));
}

/** What the memory holds: entries and the characters of their keys (for the memory test). */
export function dedupeFootprint(): { entries: number; keyChars: number } {
	let keyChars = 0;
	for (const entry of seen.keys()) keyChars += entry.length;
	return { entries: seen.size, keyChars };
}
