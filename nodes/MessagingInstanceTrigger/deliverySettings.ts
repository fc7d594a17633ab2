import type { INode, IWebhookFunctions } from 'n8n-workflow';

import { secretsOfUrl } from '../shared/redact';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { readOptions, type TriggerOptions } from './description';
import { instanceNameFrom } from './instance';
import { deriveSecret, secretScopeOf } from '../shared/secret';
import { staticDataOf } from './state';

/**
 * What a delivery needs from n8n that stays the same while the workflow is active: the
 * secrets, the instance, the events and the options. Read once and kept in this process per
 * workflow and node, so an ordinary delivery asks n8n only for the credential: what the
 * trigger hides is always the credential's current API key (and the secret derived from it),
 * so a key changed a second ago is hidden from the very next item, while the secrets a
 * delivery may carry stay the kept ones for the kept minute.
 *
 * - kept while the node's saved parameters and credential reference are the same (a
 *   published edit changes them and they are read again) and for at most SETTINGS_TTL_MS,
 *   measured on a monotonic clock (`performance.now()`): a clock stepped back never keeps an
 *   old secret valid longer, and a changed API key reaches every process (queue-mode webhook
 *   processes too) within that;
 * - a delivery whose secret the kept settings refuse reads them again before it is refused,
 *   so a refusal always rests on fresh settings;
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
	/** when they were read, on the monotonic clock (`performance.now()`, milliseconds) */
	readAt: number;
}

/** The credential's values the settings are derived from. */
interface CredentialValues {
	apiKey: string;
	baseUrl: string;
}

/** What this delivery read of the credential: a second look (a refused secret) reads nothing more. */
const readInDelivery = new WeakMap<IWebhookFunctions, CredentialValues>();

async function credentialValues(ctx: IWebhookFunctions): Promise<CredentialValues> {
	const known = readInDelivery.get(ctx);
	if (known) return known;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const values = {
		apiKey: typeof credentials.apiKey === 'string' ? credentials.apiKey : '',
		baseUrl: typeof credentials.baseUrl === 'string' ? credentials.baseUrl : '',
	};
	readInDelivery.set(ctx, values);
	return values;
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

/** The credential's secrets and the webhook secret derived from its key for this node. */
function secretsOf({ apiKey, baseUrl }: CredentialValues, node: INode, workflowId: string): string[] {
	const derived = deriveSecret(apiKey, secretScopeOf({ id: workflowId }, node));
	return [derived ?? '', apiKey, ...secretsOfUrl(baseUrl)].filter((secret) => secret !== '');
}

function readSettings(ctx: IWebhookFunctions, node: INode, workflowId: string, credential: CredentialValues): DeliverySettings {
	const derived = deriveSecret(credential.apiKey, secretScopeOf({ id: workflowId }, node));
	// A node registered by an earlier version kept a random secret in the static data; it
	// stays valid until the next activation registers the derived one (and removes it).
	const legacy = staticDataOf(ctx).secret;
	const accepted = [derived, legacy].filter((secret): secret is string => typeof secret === 'string' && secret !== '');
	const events = parameter(ctx, node, 'events', []);
	return {
		accepted,
		hidden: [...new Set([...accepted, ...secretsOf(credential, node, workflowId)])],
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
export async function deliverySettings(ctx: IWebhookFunctions, node: INode, workflowId: string, again = false, now = performance.now()): Promise<DeliverySettings> {
	const key = keyOf(workflowId, node.id);
	const credential = await credentialValues(ctx);
	const fingerprint = JSON.stringify([ctx.getMode(), node.typeVersion, node.webhookId ?? '', node.credentials ?? null, node.parameters]);
	const entry = kept.get(key);
	// Parameters with an expression may differ per delivery: never kept.
	const keepable = !hasExpression(node.parameters);
	// Aged on the monotonic clock: no clock step makes them younger (or older) than they are.
	if (!again && keepable && entry && entry.fingerprint === fingerprint && now - entry.readAt < SETTINGS_TTL_MS) {
		return { ...entry.settings, hidden: [...new Set([...entry.settings.hidden, ...secretsOf(credential, node, workflowId)])], fresh: false };
	}
	const settings = readSettings(ctx, node, workflowId, credential);
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
