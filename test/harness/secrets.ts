import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { lineText, loggedLines } from './logs';

/**
 * The suite-wide check that no secret leaves a node: after every engine run, trigger hook,
 * delivery and credential test the harness looks for each secret the test configured (the
 * credential's API key and Base URL password, the sandbox's instance tokens, the trigger's
 * webhook secret) in everything a user or n8n's database could see — output items, the error
 * (message, description, stack, cause and every other field), the stored run, static data —
 * and in every line n8n logged during the test (message and metadata; see logs.ts).
 * A test never has to ask for it; a leak anywhere fails the test that caused it.
 */

/** A secret shorter than this is looked for as a whole JSON value only (it could be any digit run). */
const MIN_SEARCHED_LENGTH = 8;

const declared = new Set<string>();

/** Secrets a test set up besides its credential's (e.g. the tokens of its sandbox's instances). */
export function declareSecrets(...secrets: Array<string | undefined>): void {
	for (const secret of secrets) if (secret) declared.add(secret);
}

/** The secrets of a credential: its API key, and the user name and password of its Base URL. */
export function credentialSecrets(credentials: ICredentialDataDecryptedObject | undefined): string[] {
	if (!credentials) return [];
	const secrets: string[] = [];
	if (typeof credentials.apiKey === 'string' && credentials.apiKey.trim() !== '') secrets.push(credentials.apiKey.trim());
	if (typeof credentials.baseUrl === 'string') {
		try {
			const url = new URL(credentials.baseUrl.trim());
			for (const part of [url.username, url.password]) if (part) secrets.push(decodeURIComponent(part));
		} catch {
			// not a URL: no password in it
		}
	}
	return secrets;
}

/** Everything of an error: its own fields (message, description, stack, cause, context, …). */
function errorText(error: unknown): string {
	if (!error || typeof error !== 'object') return String(error ?? '');
	const record = error as Record<string, unknown>;
	return Object.getOwnPropertyNames(record)
		.filter((name) => name !== 'node')
		.map((name) => {
			const value = record[name];
			if (typeof value === 'string') return `${name}=${value}`;
			if (value instanceof Error) return `${name}=${errorText(value)}`;
			try {
				return `${name}=${JSON.stringify(value, withoutWorkflowNode)}`;
			} catch {
				return `${name}=[unserialisable]`;
			}
		})
		.join('\n');
}

/**
 * The workflow's node, which errors carry, holds its parameters as the user typed them (a
 * token chosen for a new instance among them): that is the workflow, not what the node showed.
 */
function withoutWorkflowNode(key: string, value: unknown): unknown {
	return key === 'node' && value !== null && typeof value === 'object' && 'parameters' in value ? '[the workflow node]' : value;
}

function textOf(value: unknown): string {
	if (value instanceof Error) return errorText(value);
	try {
		return JSON.stringify(value, withoutWorkflowNode) ?? '';
	} catch {
		return String(value);
	}
}

/** The forms a leaked secret is found in: raw and URL-encoded in any case, base64 as it is. */
function leaks(haystack: string, lower: string, secret: string): boolean {
	if (secret.length < MIN_SEARCHED_LENGTH) return lower.includes(`"${secret.toLowerCase()}"`);
	return (
		lower.includes(secret.toLowerCase()) ||
		lower.includes(encodeURIComponent(secret).toLowerCase()) ||
		haystack.includes(Buffer.from(secret).toString('base64').replace(/=+$/, ''))
	);
}

/**
 * Throws when any of the secrets (with the declared ones) appears in any of the values.
 * `allowed` are values a node may output by design (the token Create was asked for).
 */
export function assertNoSecrets(
	where: string,
	values: Record<string, unknown>,
	secrets: Iterable<string>,
	allowed: ReadonlySet<string> = new Set(),
): void {
	const all = new Set([...secrets, ...declared].filter((secret) => secret !== '' && !allowed.has(secret)));
	if (all.size === 0) return;
	const texts: Array<[string, string]> = [
		...Object.entries(values).map(([part, value]): [string, string] => [part, textOf(value)]),
		// The line's place and level only: its message may be the leak. The workflow node an
		// error carries in the metadata is the workflow, as in errors themselves.
		...loggedLines().map((line, index): [string, string] => [`the log (line ${index + 1}, ${line.level})`, lineText(line, withoutWorkflowNode)]),
	];
	for (const [part, haystack] of texts) {
		const lower = haystack.toLowerCase();
		for (const secret of all) {
			if (leaks(haystack, lower, secret)) {
				throw new Error(`A secret (${secret.slice(0, 3)}…, ${secret.length} characters) leaked into ${where}: ${part}`);
			}
		}
	}
}
