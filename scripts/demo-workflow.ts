/**
 * The example workflow "Reply to every incoming message": created by `npm start` in the dev
 * n8n and run by the end-to-end tier (e2e/), so both use this one definition. It is the
 * recipe the README teaches: the trigger's simplified item carries `chatId` and `text`
 * (nodes/MessagingInstanceTrigger/items.ts), and Send Text maps them as they are.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PACKAGE_NAME, REPO_ROOT, type WorkflowSpec } from './n8n-runtime';

export const ACTION_TYPE = `${PACKAGE_NAME}.messagingInstance`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.messagingInstanceTrigger`;
/** The names the editor gives the echo recipe's two nodes (docs/recipes/echo-reply.json). */
export const TRIGGER_NODE = 'Messaging Instance Trigger';
export const REPLY_NODE = 'Send a text message';
export const DEMO_WORKFLOW_NAME = 'Reply to every incoming message';
export const DEMO_INSTANCE = 'demo';
/**
 * The newest versions of the nodes, as a node the user adds in the editor has them (the
 * action's version 2 has the Instance picker: From List / By Name). The e2e tier checks these
 * against the versions n8n reports for the installed package.
 */
export const ACTION_VERSION = 2;
export const TRIGGER_VERSION = 2;

/** The Instance parameter as a node of that version stores it: a picker value from version 2, text before. */
export function instanceParameter(typeVersion: number, name: string): string | { __rl: true; mode: 'list'; value: string; cachedResultName: string } {
	return typeVersion >= 2 ? { __rl: true, mode: 'list', value: name, cachedResultName: name } : name;
}

/** What the Reply node sends back, before the incoming text. */
export const REPLY_PREFIX = 'You said: ';

/** The `credentials` entry of a node that uses a Messaging Instance API credential. */
export function credentialRef(credId: string, name = 'Sandbox'): Record<string, { id: string; name: string }> {
	return { messagingInstanceApi: { id: credId, name } };
}

/**
 * The echo recipe, docs/recipes/echo-reply.json, as the docs give it: the Messaging Instance
 * Trigger → "Send a text message" replying "You said: <text>" to the chat the message came
 * from, with the editor's node names. Here on the given credential and instance, with a webhook
 * id of its own (two published copies must not share a webhook path).
 */
export function replyWorkflow(credId: string, opts: { instance?: string; name?: string; credentialName?: string } = {}): WorkflowSpec {
	const instance = opts.instance ?? DEMO_INSTANCE;
	const file = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'recipes', 'echo-reply.json'), 'utf8')) as { nodes: Array<Record<string, unknown>>; connections: Record<string, unknown> };
	const nodes = file.nodes.map((node) => ({
		...node,
		...(node.webhookId ? { webhookId: randomUUID() } : {}),
		credentials: credentialRef(credId, opts.credentialName),
		parameters: { ...(node.parameters as Record<string, unknown>), instance: instanceParameter(node.typeVersion as number, instance) },
	}));
	return { name: opts.name ?? DEMO_WORKFLOW_NAME, nodes, connections: file.connections };
}
