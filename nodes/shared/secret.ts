import { createHmac, hash as oneShotHash, timingSafeEqual } from 'node:crypto';

/**
 * The trigger's webhook secret.
 *
 * It is derived, not stored: an HMAC-SHA256 keyed with the credential's API key over the
 * workflow, node and webhook ids. n8n makes a webhook reachable before it runs the trigger's
 * `create` and stores the workflow's static data only afterwards (and a queue-mode webhook
 * process reads that data from the database later still), so a stored secret is missing for
 * the first deliveries after activation, which the server never retries after a 401. The
 * derived secret is the same in `create()` and `webhook()`, in every process, the moment the
 * server can deliver. Whoever can compute it holds the API key, which already controls the
 * instance; changing the API key changes the secret, and the next activation (or n8n
 * restart) registers the new one.
 */

/** Bumped only if the derivation ever has to change (old registrations then re-register). */
const DERIVATION = 'messaging-instance-trigger/webhook-secret/v1';

export interface SecretScope {
	workflowId: string;
	nodeId: string;
	webhookId: string;
}

/** Derivations made recently: a delivery then costs a map lookup, not an HMAC. */
const derivedCache = new Map<string, string>();
const CACHE_ENTRIES = 256;

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
	if (cache.size >= CACHE_ENTRIES) {
		const oldest = cache.keys().next().value;
		if (oldest !== undefined) cache.delete(oldest);
	}
	cache.set(key, value);
	return value;
}

/** 32 bytes as URL-safe text (43 characters): goes into a query string and a header unchanged. */
export function deriveSecret(apiKey: string, scope: SecretScope): string | undefined {
	if (apiKey === '') return undefined;
	const parts = JSON.stringify([DERIVATION, scope.workflowId, scope.nodeId, scope.webhookId]);
	const cacheKey = `${apiKey}\u0000${parts}`;
	return (
		derivedCache.get(cacheKey) ??
		remember(derivedCache, cacheKey, createHmac('sha256', apiKey).update(parts).digest('base64url'))
	);
}

/** The ids the secret is derived over, as both the hook and the webhook context know them. */
export function secretScopeOf(workflow: { id?: string | null }, node: { id: string; webhookId?: string }): SecretScope {
	return { workflowId: String(workflow.id ?? ''), nodeId: node.id, webhookId: node.webhookId ?? '' };
}

const digestCache = new Map<string, Buffer>();

function digestOf(text: string): Buffer {
	return oneShotHash('sha256', text, 'buffer');
}

/**
 * Whether `given` is one of the expected secrets, in constant time. Both sides are hashed
 * first, so each comparison runs on two equal-length buffers and its time does not depend on
 * where (or whether) the texts differ, nor on the length of the text the caller sent; every
 * expected secret is compared, not only up to the first match. (The expected hashes are kept.)
 */
export function sameSecret(given: unknown, expected: string | readonly string[]): boolean {
	if (typeof given !== 'string' || given === '') return false;
	const a = digestOf(given);
	let match = false;
	for (const secret of typeof expected === 'string' ? [expected] : expected) {
		if (secret === '') continue;
		const b = digestCache.get(secret) ?? remember(digestCache, secret, digestOf(secret));
		if (timingSafeEqual(a, b)) match = true;
	}
	return match;
}
