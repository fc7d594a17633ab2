import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Dialect, type Sandbox } from '../../sandbox/server';
import { TriggerHarness } from '../harness/webhooks';

export const INSTANCE = 'demo';
export const TOKEN = 'INSTANCE-TOKEN-0123456789';

export interface Setup {
	sandbox: Sandbox;
	harness: TriggerHarness;
	close(): Promise<void>;
}

/** A sandbox speaking `dialect` and a trigger node (not yet active) pointed at it. */
export async function setup(dialect: Dialect, parameters: INodeParameters = {}): Promise<Setup> {
	const sandbox = await startSandbox({
		dialect,
		instances: [{ name: INSTANCE, token: TOKEN }, { name: 'other' }],
		delivery: { attempts: 1, backoffMs: 5, timeoutMs: 5000 },
	});
	const harness = await TriggerHarness.start({
		parameters: { instance: INSTANCE, events: ['MESSAGES_UPSERT'], options: {}, ...parameters },
		credentials: { baseUrl: `${sandbox.url}/`, apiKey: sandbox.apiKey, dialect },
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

export function secretOf(harness: TriggerHarness): string {
	const secret = harness.nodeStaticData.secret;
	if (typeof secret !== 'string') throw new Error('no secret in static data');
	return secret;
}

/** Fails when any secret (webhook secret, API key, instance token) appears in the items. */
export function expectNoSecrets(value: unknown, secrets: string[]): void {
	const text = JSON.stringify(value);
	for (const secret of secrets) expect(text).not.toContain(secret);
}
