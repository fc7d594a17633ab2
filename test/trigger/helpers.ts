import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeParameters } from 'n8n-workflow';

import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';
import { startSandbox, type Dialect, type Sandbox } from '../../sandbox/server';
import type { SandboxOptions } from '../../sandbox/types';
import { declareSecrets } from '../harness/secrets';
import { TRIGGER_NODE_ID, WEBHOOK_ID, WORKFLOW_ID } from '../harness/triggerWorkflow';
import { TriggerHarness, type TriggerSetup } from '../harness/webhooks';

/**
 * The webhook URL the trigger registers: its address, the ids its secret is derived over
 * (`secret_scope`, base64url of the JSON list of workflow, node and webhook ids: how the
 * action node verifies it) and the secret.
 */
export function registeredUrl(url: string, secret: string): string {
	const scope = Buffer.from(JSON.stringify([WORKFLOW_ID, TRIGGER_NODE_ID, WEBHOOK_ID])).toString('base64url');
	return `${url}?secret_scope=${scope}&secret=${secret}`;
}

export const INSTANCE = 'demo';
export const TOKEN = 'INSTANCE-TOKEN-0123456789';
declareSecrets(TOKEN);

export interface Setup {
	sandbox: Sandbox;
	harness: TriggerHarness;
	close(): Promise<void>;
}

const description = new MessagingInstanceTrigger().description;

/** The parameters n8n saves for a new trigger node of `typeVersion` with `chosen` set (Options never opened: `{}`). */
export function savedParameters(chosen: INodeParameters = {}, typeVersion = 1): INodeParameters {
	const node = { typeVersion } as INode;
	return NodeHelpers.getNodeParameters(description.properties, chosen, true, false, node, description) ?? {};
}

/**
 * A sandbox speaking `dialect` and a trigger node (not yet active) pointed at it, saved as the
 * editor saves it: version 1 with the instance as text unless `typeVersion` says otherwise (a
 * later version gets the instance only where `parameters` gives it).
 */
export async function setup(
	dialect: Dialect,
	parameters: INodeParameters = {},
	typeVersion = 1,
	server: Pick<SandboxOptions, 'version' | 'licensed'> = {},
	n8n: Pick<TriggerSetup, 'deliveryExecutions'> = {},
): Promise<Setup> {
	const sandbox = await startSandbox({
		...server,
		dialect,
		instances: [{ name: INSTANCE, token: TOKEN }, { name: 'other' }],
		delivery: { attempts: 1, backoffMs: 5, timeoutMs: 5000 },
	});
	const harness = await TriggerHarness.start({
		parameters: savedParameters(typeVersion === 1 ? { instance: INSTANCE, ...parameters } : parameters, typeVersion),
		credentials: { baseUrl: `${sandbox.url}/`, apiKey: sandbox.apiKey, dialect },
		typeVersion,
		...n8n,
	});
	return {
		sandbox,
		harness,
		async close() {
			await harness.close();
			await sandbox.close();
		},
	};
}

/** The bodies of the Set Webhook calls the sandbox received, oldest first. */
export function setWebhookBodies(sandbox: Sandbox): unknown[] {
	return sandbox.requests.filter((r) => r.path === `/webhook/set/${INSTANCE}`).map((r) => r.body);
}

export function findCalls(sandbox: Sandbox): number {
	return sandbox.requests.filter((r) => r.path === `/webhook/find/${INSTANCE}`).length;
}

/** The webhook secret the trigger registered, as the server holds it (in the URL's query). */
export function secretOf(s: { sandbox: Sandbox }): string {
	const url = s.sandbox.webhookOf(INSTANCE)?.url;
	const secret = url ? new URL(url).searchParams.get('secret') : null;
	if (!secret) throw new Error('no secret registered');
	return secret;
}

/** Fails when any secret (webhook secret, API key, instance token) appears in the items. */
export function expectNoSecrets(value: unknown, secrets: string[]): void {
	const text = JSON.stringify(value);
	for (const secret of secrets) expect(text).not.toContain(secret);
}
