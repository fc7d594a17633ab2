/**
 * The copy of a JSON-like value without secrets: every text and key redacted, values under
 * secret names replaced whole. Bounded by size (values visited), not by a depth that a secret
 * could hide below, and with an explicit stack, so no nesting overflows it.
 */
import { CUT, MAX_DEPTH, MAX_VALUES, REDACTED, cut } from './limits';
import { isHarmlessHeader, isHeadersName, isSecretName } from './names';
import { MIN_SEARCHED_LENGTH } from './search';

/** What the walk asks of a redaction: a text and a key without secrets. */
export interface TextRedaction {
	text(text: string): string;
	key(key: string): string;
}

/** Own keys that could reach an object's prototype when a copy is assigned or merged later. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

interface Frame {
	source: object;
	target: Record<string, unknown> | unknown[];
	depth: number;
	inHeaders: boolean;
}

export function walk(root: unknown, redactor: TextRedaction, maxText: number): unknown {
	const leaf = (value: unknown, secretByName: boolean): unknown => {
		if (typeof value === 'string') {
			if (secretByName && value !== '') return REDACTED;
			return cut(redactor.text(value), maxText);
		}
		if (typeof value === 'number' || typeof value === 'bigint') {
			if (secretByName) return REDACTED;
			const text = String(value);
			return text.length >= MIN_SEARCHED_LENGTH && redactor.text(text) !== text ? REDACTED : value;
		}
		return value;
	};
	if (root === null || typeof root !== 'object' || Buffer.isBuffer(root)) return leaf(root, false);
	const copyOf = (source: object): Record<string, unknown> | unknown[] => (Array.isArray(source) ? [] : {});
	const top = copyOf(root);
	const stack: Frame[] = [{ source: root, target: top, depth: 1, inHeaders: false }];
	// Each object is copied once: a second reference to it (a cycle, or a shared value) is marked.
	const seen = new Set<object>([root]);
	let visited = 0;
	while (stack.length > 0) {
		const { source, target, depth, inHeaders } = stack.pop() as Frame;
		const isList = Array.isArray(source);
		// A nested error keeps its message and stack, which are not enumerable.
		const keys = isList ? undefined : source instanceof Error ? Object.getOwnPropertyNames(source) : Object.keys(source);
		const count = isList ? source.length : (keys as string[]).length;
		for (let index = 0; index < count; index++) {
			const key = isList ? undefined : (keys as string[])[index];
			if (key !== undefined && PROTOTYPE_KEYS.has(key)) continue;
			let entry: unknown;
			try {
				entry = isList ? (source as unknown[])[index] : (source as Record<string, unknown>)[key as string];
			} catch {
				entry = undefined;
			}
			if (typeof entry === 'function') continue;
			const byName = key !== undefined && (isSecretName(key) || (inHeaders && !isHarmlessHeader(key)));
			let value: unknown;
			if (++visited > MAX_VALUES || depth > MAX_DEPTH) {
				value = CUT;
			} else if (entry !== null && typeof entry === 'object' && !Buffer.isBuffer(entry)) {
				if (byName) {
					value = REDACTED;
				} else if (seen.has(entry)) {
					value = '[circular]';
				} else {
					value = copyOf(entry);
					seen.add(entry);
					stack.push({
						source: entry,
						target: value as Record<string, unknown> | unknown[],
						depth: depth + 1,
						inHeaders: key !== undefined && isHeadersName(key),
					});
				}
			} else {
				value = leaf(entry, byName && entry !== undefined && entry !== null);
			}
			if (isList) (target as unknown[]).push(value);
			else {
				const name = redactor.key(key as string);
				// Assigned, except a name that an assignment would take for the prototype.
				if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
				else (target as Record<string, unknown>)[name] = value;
			}
		}
	}
	return top;
}
