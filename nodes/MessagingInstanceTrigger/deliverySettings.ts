import type { INode, IWebhookFunctions } from 'n8n-workflow';

import { secretsOfUrl } from '../shared/redact';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { readOptions, type TriggerOptions } from './description';
import { instanceNameFrom } from './instance';
import { deriveSecret, secretScopeOf } from '../shared/secret';
import { staticDataOf } from './state';

/**
 * What a delivery needs from n8n that stays the same while the workflow is active: the
 * secrets (from the credential: a database read, a decryption and n8n's credential defaults
 * in n8n, the largest share of the trigger's own cost per delivery), the instance, the events
 * and the options. Read once and kept in this process per workflow and node, so an ordinary
 * delivery asks n8n for none of it:
 *
 * - kept while the node's saved parameters and credential reference are the same (a
 *   published edit changes them and they are read again) and for at most SETTINGS_TTL_MS,
 *   so a changed API key reaches every process (queue-mode webhook processes too) within that;
 * - a delivery whose secret the kept settings refuse reads them again before it is refused
 *   (the key may have changed since), so a refusal always rests on fresh settings;
 * - parameters that hold an expression are evaluated per delivery, as n8n would (only those);
 * - activation and deactivation (registration.ts) forget the node's entry.
 * No timers: ages are checked on use. At most MAX_KEPT nodes are kept (the oldest gives way).
 */

export const SETTINGS_TTL_MS = 60_000;
const MAX_KEPT = 256;

export interface DeliverySettings {
	/** secrets a delivery may carry to be let in */
	accepted: string[];
	/** every secret to hide from what the trigger emits */
	hidden: string[];
	instance: string;
	events: string[];
	options: TriggerOptions;
	/** read in this delivery (not kept from an earlier one) */
	fresh: boolean;
}

interface Kept {
	settings: DeliverySettings;
	fingerprint: string;
	readAt: number;
}

const kept = new Map<string, Kept>();

function keyOf(workflowId: string, nodeId: string): string {
	return `${workflowId}\u0000${nodeId}`;
}

/** Forgets what was kept for a node (its workflow is being activated or deactivated). */
export function forgetSettings(workflowId: string, nodeId: string): void {
	kept.delete(keyOf(workflowId, nodeId));
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/** The parameter as saved when it holds no expression (n8n returns it unchanged then); evaluated by n8n when it does. */
function parameter(ctx: IWebhookFunctions, node: INode, name: string, fallback: unknown): unknown {
	const saved = node.parameters[name];
	if (saved === undefined) return fallback;
	return hasExpression(saved) ? ctx.getNodeParameter(name, fallback) : saved;
}

async function readSettings(ctx: IWebhookFunctions, node: INode, workflowId: string): Promise<DeliverySettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const baseUrlSecrets = typeof credentials.baseUrl === 'string' ? secretsOfUrl(credentials.baseUrl) : [];
	const derived = deriveSecret(apiKey, secretScopeOf({ id: workflowId }, node));
	// A node registered by an earlier version kept a random secret in the static data; it
	// stays valid until the next activation registers the derived one (and removes it).
	const legacy = staticDataOf(ctx).secret;
	const accepted = [derived, legacy].filter((secret): secret is string => typeof secret === 'string' && secret !== '');
	const events = parameter(ctx, node, 'events', []);
	return {
		accepted,
		hidden: [...accepted, ...(apiKey ? [apiKey] : []), ...baseUrlSecrets],
		instance: instanceNameFrom(parameter(ctx, node, 'instance', '')),
		events: Array.isArray(events) ? events.map(String) : [],
		options: readOptions(parameter(ctx, node, 'options', {}), node.typeVersion),
		fresh: true,
	};
}

/**
 * The node's settings for this delivery: kept ones when they are still good, else read now.
 * `again` reads them now whatever is kept (a secret the kept ones refused).
 */
export async function deliverySettings(ctx: IWebhookFunctions, node: INode, workflowId: string, again = false, now = Date.now()): Promise<DeliverySettings> {
	const key = keyOf(workflowId, node.id);
	const fingerprint = JSON.stringify([ctx.getMode(), node.typeVersion, node.webhookId ?? '', node.credentials ?? null, node.parameters]);
	const entry = kept.get(key);
	// Parameters with an expression may differ per delivery: never kept.
	const keepable = !hasExpression(node.parameters);
	if (!again && keepable && entry && entry.fingerprint === fingerprint && now - entry.readAt < SETTINGS_TTL_MS) {
		return { ...entry.settings, fresh: false };
	}
	const settings = await readSettings(ctx, node, workflowId);
	kept.delete(key);
	if (keepable) {
		if (kept.size >= MAX_KEPT) {
			const oldest = kept.keys().next().value;
			if (oldest !== undefined) kept.delete(oldest);
		}
		kept.set(key, { settings, fingerprint, readAt: now });
	}
	return settings;
}
