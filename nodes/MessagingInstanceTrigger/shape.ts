import type { IDataObject } from 'n8n-workflow';

import { isSecretName, REDACTED, Redactor } from '../shared/redact';

/**
 * The one walk over a delivery's body, before anything reads it. It makes the copy that the
 * trigger filters and emits (the same object for both), and on the way:
 *
 * - bounds the work by shape: deeper than MAX_DEPTH or more than MAX_VALUES values is not a
 *   delivery a server sends, and is refused (400) instead of overflowing a stack later, here,
 *   in hashing, in n8n's own copying or in a downstream node;
 * - drops `__proto__`, `constructor` and `prototype` keys, which no event carries and which
 *   would make a copy of the data differ from the data (an assignment to `__proto__` sets a
 *   prototype, and then a field read finds what the filter never saw);
 * - replaces every secret (shared/redact/): in texts, in keys, a number or a short text that
 *   is a secret, and any value under a secret's name (`apiKey`, `token`, … in any case);
 *   except in a `base64` text (a file's content, often megabytes: a secret can only appear
 *   there by a coincidence of the encoding, and the file goes out as the file it is).
 *
 * No recursion: an explicit stack, so the walk itself cannot overflow.
 */

export const MAX_DEPTH = 64;
export const MAX_VALUES = 200_000;

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const FILE_KEY = 'base64';

export type CleanCopy = { ok: true; value: unknown } | { ok: false; reason: string };

function isContainer(value: unknown): value is object {
	return typeof value === 'object' && value !== null;
}

function leaf(value: unknown, hide: (text: string) => string): unknown {
	if (typeof value === 'string') return hide(value);
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return null;
		const text = String(value);
		return hide(text) === text ? value : REDACTED;
	}
	if (typeof value === 'boolean' || value === null) return value;
	return undefined;
}

interface Frame {
	source: object;
	target: IDataObject | unknown[];
	depth: number;
}

/**
 * `limits` widen the bounds for a value that already passed them once and was then wrapped
 * (an emitted item holds the delivery under `raw`, beside the simplified fields); a Redactor
 * built once serves every item of an execution.
 */
export function cleanCopy(root: unknown, secrets: readonly string[] | Redactor, limits = { depth: MAX_DEPTH, values: MAX_VALUES }): CleanCopy {
	const redactor = secrets instanceof Redactor ? secrets : new Redactor(secrets);
	const hide = (text: string) => redactor.text(text);
	if (!isContainer(root)) return { ok: true, value: leaf(root, hide) };
	const top: IDataObject | unknown[] = Array.isArray(root) ? [] : {};
	const stack: Frame[] = [{ source: root, target: top, depth: 1 }];
	let values = 0;
	while (stack.length > 0) {
		const { source, target, depth } = stack.pop() as Frame;
		if (depth > limits.depth) return { ok: false, reason: `nested deeper than ${limits.depth} levels` };
		const isList = Array.isArray(source);
		const keys = isList ? undefined : Object.keys(source);
		const count = isList ? source.length : (keys as string[]).length;
		values += count;
		if (values > limits.values) return { ok: false, reason: `more than ${limits.values} values` };
		for (let index = 0; index < count; index++) {
			const key = isList ? '' : (keys as string[])[index];
			if (!isList && UNSAFE_KEYS.has(key)) continue;
			const entry: unknown = isList ? (source as unknown[])[index] : (source as Record<string, unknown>)[key];
			let value: unknown;
			if (!isList && isSecretName(key) && entry !== null && entry !== undefined && entry !== '') {
				value = REDACTED;
			} else if (isContainer(entry)) {
				value = Array.isArray(entry) ? [] : {};
				stack.push({ source: entry, target: value as IDataObject | unknown[], depth: depth + 1 });
			} else if (key === FILE_KEY && typeof entry === 'string') {
				value = entry;
			} else {
				value = leaf(entry, hide);
			}
			if (isList) (target as unknown[]).push(value ?? null);
			else if (value !== undefined) (target as IDataObject)[redactor.key(key)] = value as IDataObject[string];
		}
	}
	return { ok: true, value: top };
}
