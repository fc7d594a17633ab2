import { NodeOperationError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, INode, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { Redactor, secretsOfUrl } from '../shared/redact';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { readOptions, type TriggerOptions } from './description';
import { instanceNameFrom } from './instance';
import { deriveSecret, secretScopeOf } from '../shared/secret';
import { cleanCopy, MAX_DEPTH, MAX_VALUES } from './shape';
import { staticDataOf } from './state';

/**
 * What a delivery needs from n8n that stays the same while the workflow is active: the
 * secrets, the instance, the events and the options. Read once and kept in this process per
 * workflow and node, so an ordinary delivery asks n8n for nothing:
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
 *
 * Why the credential is not read per delivery here: in n8n 2.x a webhook's `getCredentials`
 * resolves the credential outside any execution, which makes n8n start an expression isolate
 * of its own for it (credentials-helper `applyDefaultsAndOverwrites` → `acquireIsolate()`
 * while the webhook request already holds the pool's one): some 40–55 ms of n8n's CPU per
 * delivery (docs/performance.md). The credential's current secrets are hidden instead where
 * reading it costs a database read only, in the delivery's execution (`withoutCurrentSecrets`,
 * below): every item the trigger outputs is without the current API key, changed a second ago
 * or not.
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

function valuesOf(credentials: ICredentialDataDecryptedObject): CredentialValues {
	return {
		apiKey: typeof credentials.apiKey === 'string' ? credentials.apiKey : '',
		baseUrl: typeof credentials.baseUrl === 'string' ? credentials.baseUrl : '',
	};
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

/**
 * The secrets a delivery may carry to be let in: the webhook secret derived from the
 * credential's key for this node, and the random one a node registered by an earlier version
 * kept in the static data (valid until the next activation registers the derived one).
 */
function acceptedSecrets(ctx: { getWorkflowStaticData(type: string): IDataObject }, { apiKey }: CredentialValues, node: INode, workflowId: string): string[] {
	const derived = deriveSecret(apiKey, secretScopeOf({ id: workflowId }, node));
	const legacy = staticDataOf(ctx).secret;
	return [derived, legacy].filter((secret): secret is string => typeof secret === 'string' && secret !== '');
}

/** Every secret to hide: the accepted ones, the credential's API key and its Base URL's user and password. */
function hiddenSecrets(accepted: readonly string[], { apiKey, baseUrl }: CredentialValues): string[] {
	return [...new Set([...accepted, apiKey, ...secretsOfUrl(baseUrl)])].filter((secret) => secret !== '');
}

function readSettings(ctx: IWebhookFunctions, node: INode, workflowId: string, credential: CredentialValues): DeliverySettings {
	const accepted = acceptedSecrets(ctx, credential, node, workflowId);
	const events = parameter(ctx, node, 'events', []);
	return {
		accepted,
		hidden: hiddenSecrets(accepted, credential),
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
	const fingerprint = JSON.stringify([ctx.getMode(), node.typeVersion, node.webhookId ?? '', node.credentials ?? null, node.parameters]);
	const entry = kept.get(key);
	// Parameters with an expression may differ per delivery: never kept.
	const keepable = !hasExpression(node.parameters);
	// Aged on the monotonic clock: no clock step makes them younger (or older) than they are.
	if (!again && keepable && entry && entry.fingerprint === fingerprint && now - entry.readAt < SETTINGS_TTL_MS) {
		return { ...entry.settings, fresh: false };
	}
	const settings = readSettings(ctx, node, workflowId, valuesOf(await ctx.getCredentials(CREDENTIAL_TYPE)));
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

/**
 * Secrets learnt by an execution of this process (the credential's current ones): later
 * deliveries hide them too, while the kept settings still decide who is let in.
 */
function learnHidden(workflowId: string, nodeId: string, secrets: readonly string[]): void {
	const entry = kept.get(keyOf(workflowId, nodeId));
	if (!entry || secrets.every((secret) => entry.settings.hidden.includes(secret))) return;
	entry.settings = { ...entry.settings, hidden: [...new Set([...entry.settings.hidden, ...secrets])] };
}

/**
 * The items of a delivery (or of the catch-up) without the credential's current secrets, as
 * the trigger outputs them in their execution. The credential is read here on every
 * execution: inside an execution n8n resolves it with the execution's own expression engine,
 * so the read is a database read and a decryption, not the isolate a webhook's read costs. So
 * an API key changed in n8n a second ago is hidden from the very next item, whatever the
 * settings kept for the delivery knew; the delivery was already cleaned of those (and of any
 * value under a secret's name) when it was parsed. Bounded like that walk, with room for the
 * item wrapping the delivery (`raw` beside the simplified fields).
 */
export async function withoutCurrentSecrets(ctx: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (items.length === 0) return items;
	const node = ctx.getNode();
	const workflowId = ctx.getWorkflow().id ?? '';
	const credential = valuesOf(await ctx.getCredentials(CREDENTIAL_TYPE, 0));
	const secrets = hiddenSecrets(acceptedSecrets(ctx, credential, node, workflowId), credential);
	learnHidden(workflowId, node.id, secrets);
	// One redaction for every item of the execution (a batch is many).
	const redactor = new Redactor(secrets);
	return items.map((item, index) => {
		const copy = cleanCopy(item.json, redactor, { depth: MAX_DEPTH + 2, values: 2 * MAX_VALUES + 64 });
		if (!copy.ok) throw new NodeOperationError(node, `The item is ${copy.reason}`, { itemIndex: index });
		return { ...item, json: copy.value as INodeExecutionData['json'] };
	});
}
