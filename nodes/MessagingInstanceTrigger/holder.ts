import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { FoundWebhook } from '../shared/routes';
import { scopeInUrl, secretInUrl, type UrlScope } from '../shared/secretUrl';

/**
 * Who holds an instance's webhook, and whether publishing may take it. An Evolution API
 * instance has exactly one webhook: registering ours silently stops whatever received the
 * instance's events before (another workflow's trigger, a CRM, a bridge). So publishing
 * looks first (Find Webhook) and takes only a webhook that is switched off, empty or already
 * this trigger's; another Messaging Instance Trigger of this n8n that is switched on is never
 * taken; anything else switched on only with the option Replace Existing Webhook. What it
 * takes from another system (on or off) it remembers, to put back on unpublish.
 */

/** What the instance's webhook is, seen from this trigger. */
export type Holder =
	/** No webhook (none stored, or one without a URL). */
	| { kind: 'none' }
	/** This very trigger (its production or test URL, on this host or an earlier one). */
	| { kind: 'ours' }
	/** Another Messaging Instance Trigger of this n8n (its URL is on our host and says its ids). */
	| { kind: 'trigger'; enabled: boolean; scope: UrlScope | undefined; test: boolean; address: string }
	/** Anything else: another n8n, another system. */
	| { kind: 'foreign'; enabled: boolean; address: string };

/** Longest address an error shows (a path can be anything the other system chose). */
const MAX_ADDRESS = 200;

/** Host and path of a URL: never its query, its fragment or a `user:password@` part. */
export function addressOf(url: string): string {
	try {
		const parsed = new URL(url);
		const address = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
		return address.length > MAX_ADDRESS ? `${address.slice(0, MAX_ADDRESS)}…` : address;
	} catch {
		return 'an address that is not a URL';
	}
}

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

function pathOf(url: string): string | undefined {
	try {
		return new URL(url).pathname;
	} catch {
		return undefined;
	}
}

function sameScope(a: UrlScope, b: UrlScope): boolean {
	return a.workflowId === b.workflowId && a.nodeId === b.nodeId && a.webhookId === b.webhookId;
}

/** n8n's webhook path of a trigger: `…/webhook/<id>/webhook` (production) or `…/webhook-test/<id>/webhook`. */
const TRIGGER_PATH = /\/(webhook|webhook-test)\/[^/]+\/webhook$/;

/**
 * Who holds the instance's webhook. `ownUrl` is this trigger's production URL as n8n gives it
 * (no query); `ownScope` the ids its secret is derived over.
 */
export function holderOf(found: FoundWebhook | null, ownUrl: string, ownScope: UrlScope): Holder {
	if (!found || found.url === '') return { kind: 'none' };
	const enabled = found.enabled;
	const scope = scopeInUrl(found.url);
	if (scope && sameScope(scope, ownScope)) return { kind: 'ours' };
	if (pathOf(found.url) === pathOf(ownUrl) && originOf(found.url) === originOf(ownUrl)) return { kind: 'ours' };
	const path = pathOf(found.url) ?? '';
	const match = TRIGGER_PATH.exec(path);
	// A trigger's URL carries its ids (or, from an earlier version, only its secret).
	const isTrigger = match !== null && (scope !== undefined || secretInUrl(found.url) !== undefined);
	if (isTrigger && originOf(found.url) === originOf(ownUrl)) {
		return { kind: 'trigger', enabled, scope, test: match[1] === 'webhook-test', address: addressOf(found.url) };
	}
	return { kind: 'foreign', enabled, address: addressOf(found.url) };
}

/** Where the editor shows a workflow, from n8n's base URL (`getInstanceBaseUrl`). */
function editorLink(instanceBaseUrl: string, workflowId: string): string {
	return `${instanceBaseUrl.replace(/\/+$/, '')}/workflow/${encodeURIComponent(workflowId)}`;
}

const BOTH =
	'An instance has one webhook, so it starts one workflow. To do both, keep one trigger per instance and do the rest in that workflow: after its trigger, a Switch node (or an If node) sends each message to the right branch, or an Execute Workflow node runs this workflow with the message. Or give this workflow another instance.';

/** The error that stops publishing because another trigger of this n8n holds the instance. */
export function heldByTriggerError(
	node: INode,
	instance: string,
	holder: Extract<Holder, { kind: 'trigger' }>,
	ownWorkflowId: string,
	instanceBaseUrl: string,
): NodeOperationError {
	const id = holder.scope?.workflowId;
	if (holder.test) {
		const who = id ? `workflow ${id} (${editorLink(instanceBaseUrl, id)})` : 'another workflow';
		return new NodeOperationError(node, `The instance "${instance}" is listening for a test event of another workflow`, {
			description: `${who} is running "Listen for test event" on this instance. Stop that test (or let it receive its event), then publish this workflow again. ${BOTH}`,
		});
	}
	if (id === ownWorkflowId) {
		return new NodeOperationError(node, `Another trigger of this workflow already receives the events of instance "${instance}"`, {
			description: `${BOTH} Remove one of the two Messaging Instance Trigger nodes for "${instance}" (one trigger can choose several events).`,
		});
	}
	const who = id ? `workflow ${id}` : 'another workflow';
	const where = id ? ` Open it at ${editorLink(instanceBaseUrl, id)}.` : ` Its trigger's webhook is ${holder.address}.`;
	return new NodeOperationError(node, `The instance "${instance}" already starts ${who} on this n8n`, {
		description: `Publishing this workflow would have silently stopped that one, so it was not published; ${who} keeps receiving the messages.${where} ${BOTH} To move the instance to this workflow, unpublish ${who} first.`,
	});
}

/** The error that stops publishing because the instance's webhook points at another system. */
export function heldElsewhereError(node: INode, instance: string, address: string): NodeOperationError {
	return new NodeOperationError(node, `The instance "${instance}" already sends its events to ${address}`, {
		description: `An instance has one webhook, and publishing would replace that one: whatever receives at ${address} would stop receiving. To let this workflow take the instance over, turn on "Replace Existing Webhook" in the trigger's options: the webhook it replaces is put back (address, events, headers, on or off) when this workflow is unpublished. Or give this workflow another instance.`,
	});
}

/**
 * The documented dialect cannot ask the server which webhook an instance has. What this n8n
 * process registered itself it does know: which trigger's production URL it last registered
 * for each server and instance. Kept in memory (gone after a restart), at most MAX_HELD.
 */
const MAX_HELD = 256;
const registered = new Map<string, { url: string; scope: UrlScope }>();

function heldKey(baseUrl: string, instance: string): string {
	return `${baseUrl}\u0000${instance}`;
}

/** The trigger this process last registered for the instance, as a found webhook (switched on). */
export function registeredHere(baseUrl: string, instance: string): FoundWebhook | null {
	const entry = registered.get(heldKey(baseUrl, instance));
	return entry ? { enabled: true, url: entry.url, events: [], base64: false, byEvents: false, headers: {} } : null;
}

/** Notes that this process registered the trigger's production URL (with its ids, no secret) for the instance. */
export function noteRegistered(baseUrl: string, instance: string, url: string, scope: UrlScope): void {
	const key = heldKey(baseUrl, instance);
	registered.delete(key);
	if (registered.size >= MAX_HELD) {
		const oldest = registered.keys().next().value;
		if (oldest !== undefined) registered.delete(oldest);
	}
	registered.set(key, { url, scope });
}

/** Forgets the note, when it is this trigger's (its workflow is being unpublished). */
export function forgetRegistered(baseUrl: string, instance: string, scope: UrlScope): void {
	const key = heldKey(baseUrl, instance);
	const entry = registered.get(key);
	if (entry && sameScope(entry.scope, scope)) registered.delete(key);
}
