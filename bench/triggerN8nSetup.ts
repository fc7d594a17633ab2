/**
 * What part 6 of `npm run bench` (bench/triggerN8n.ts) runs in one real n8n: three workflows
 * that each take a message delivery, and the "floor" community package built here.
 *
 * - webhook: n8n's Webhook node → Edit Fields (chat, sender, id, text), the way people build
 *   it by hand; n8n skips the expression isolate for its own Webhook node;
 * - floor: the cheapest community trigger that can exist: `webhook()` returns the body as one
 *   item (no credential, no parameter read), answered by n8n (`onReceived`);
 * - trigger: our trigger, fresh (Options never opened), on the sandbox's instance.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PACKAGE_NAME, randomId, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';

export type DeliveryContender = 'webhook' | 'floor' | 'trigger';
export const DELIVERY_CONTENDERS: DeliveryContender[] = ['webhook', 'floor', 'trigger'];

export const FLOOR_PACKAGE = 'n8n-nodes-bench-floor';
const FLOOR_NODE = `
class FloorTrigger {
	constructor() {
		this.description = {
			displayName: 'Floor Trigger',
			name: 'floorTrigger',
			group: ['trigger'],
			// 2: n8n evaluates an expression of its own (options.binaryData) for a version-1 webhook node.
			version: 2,
			description: 'Starts a workflow with the posted body as one item',
			defaults: { name: 'Floor Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
			properties: [],
		};
	}
	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}
module.exports = { FloorTrigger };
`;

/** The floor package as a tarball (package/…), for installTarballIntoUserFolder. */
export function floorTarball(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-floor-'));
	const pkg = path.join(dir, 'package');
	fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
	fs.writeFileSync(
		path.join(pkg, 'package.json'),
		JSON.stringify({
			name: FLOOR_PACKAGE,
			version: '0.0.1',
			keywords: ['n8n-community-node-package'],
			main: 'dist/FloorTrigger.node.js',
			n8n: { n8nNodesApiVersion: 1, nodes: ['dist/FloorTrigger.node.js'] },
		}),
	);
	fs.writeFileSync(path.join(pkg, 'dist', 'FloorTrigger.node.js'), FLOOR_NODE);
	const tarball = path.join(dir, `${FLOOR_PACKAGE}-0.0.1.tgz`);
	const tar = spawnSync('tar', ['-czf', tarball, '-C', dir, 'package'], { encoding: 'utf8' });
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
	return tarball;
}

function uuid(): string {
	const hex = Buffer.from(randomId() + randomId()).toString('hex').slice(0, 32);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const field = (name: string, value: string) => ({ id: uuid(), name, value, type: 'string' });

export function deliveryWorkflows(credentialId: string, instance: string): Record<DeliveryContender, WorkflowSpec & { webhookId?: string }> {
	const floorHook = uuid();
	const triggerHook = uuid();
	return {
		webhook: {
			name: 'bench: Webhook → Edit Fields',
			nodes: [
				{
					id: uuid(),
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: uuid(),
					parameters: { httpMethod: 'POST', path: 'bench-delivery', options: {} },
				},
				{
					id: uuid(),
					name: 'Edit Fields',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [250, 0],
					parameters: {
						assignments: {
							assignments: [
								field('chatId', '={{ $json.body.data.key.remoteJid }}'),
								field('messageId', '={{ $json.body.data.key.id }}'),
								field('pushName', '={{ $json.body.data.pushName }}'),
								field('text', '={{ $json.body.data.message.conversation }}'),
							],
						},
						options: {},
					},
				},
			],
			connections: { Webhook: { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		floor: {
			name: 'bench: floor trigger',
			webhookId: floorHook,
			nodes: [
				{ id: uuid(), name: 'Floor Trigger', type: `${FLOOR_PACKAGE}.floorTrigger`, typeVersion: 2, position: [0, 0], webhookId: floorHook, parameters: {} },
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
		trigger: {
			name: 'bench: Messaging Instance Trigger',
			webhookId: triggerHook,
			nodes: [
				{
					id: uuid(),
					name: 'Messaging Instance Trigger',
					type: `${PACKAGE_NAME}.messagingInstanceTrigger`,
					// A new node: version 3, Catch Up on (a v2 server: the live path keeps its cursor).
					typeVersion: 3,
					position: [0, 0],
					webhookId: triggerHook,
					credentials: { messagingInstanceApi: { id: credentialId, name: 'Sandbox (bench)' } },
					parameters: { instance: { __rl: true, mode: 'name', value: instance }, events: ['MESSAGES_UPSERT'], options: {} },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
	};
}

/** Creates and publishes the three workflows; their ids. */
export async function createDeliveryWorkflows(rest: RestClient, credentialId: string, instance: string): Promise<{ ids: Record<DeliveryContender, string>; specs: ReturnType<typeof deliveryWorkflows> }> {
	const specs = deliveryWorkflows(credentialId, instance);
	const ids = {} as Record<DeliveryContender, string>;
	for (const c of DELIVERY_CONTENDERS) {
		ids[c] = ((await rest.call('POST', '/workflows', { ...specs[c], active: false })) as { id: string }).id;
		await rest.activate(ids[c]);
	}
	return { ids, specs };
}

/** One MESSAGES_UPSERT as the server delivers it; `n` makes the message id unique. */
export function messageDelivery(instance: string, token: string, serverUrl: string, n: number, run: string): string {
	return JSON.stringify({
		event: 'messages.upsert',
		instance,
		data: {
			key: { remoteJid: `55119${String(10000000 + (n % 1000)).padStart(8, '0')}@s.whatsapp.net`, fromMe: false, id: `3EB0${run}${String(n).padStart(8, '0')}` },
			pushName: 'Bench',
			status: 'DELIVERY_ACK',
			message: { conversation: `benchmark message ${n}` },
			messageType: 'conversation',
			messageTimestamp: 1_763_870_000 + n,
			instanceId: 'bench-instance-id',
			source: 'android',
		},
		destination: 'http://n8n/webhook',
		date_time: new Date(1_763_870_000_000 + n * 1000).toISOString(),
		sender: '5511900000000@s.whatsapp.net',
		server_url: serverUrl,
		apikey: token,
	});
}
