/**
 * The workflows the queue-mode tier activates: the README's reply-once pattern (Redis
 * Increment on the trigger's dedupeKey, then If count = 1), the same reply without that step,
 * and media hashed on both sides of the queue.
 */
import { randomUUID } from 'node:crypto';

import { ACTION_TYPE, TRIGGER_TYPE } from '../../scripts/demo-workflow';
import type { WorkflowSpec } from '../../scripts/n8n-runtime';

/** Redis database for the dedupe counters (n8n's queue uses database 0). */
export const DEDUPE_DB = 1;
export const DEDUPE_TTL = 86400;
export const REPLY = 'You said: ';

const picked = (value: string) => ({ __rl: true, mode: 'list', value });

function link(from: string, to: string, output = 0): Record<string, unknown> {
	const main: unknown[][] = [];
	for (let i = 0; i <= output; i++) main.push([]);
	main[output] = [{ node: to, type: 'main', index: 0 }];
	return { [from]: { main } };
}

function trigger(name: string, instance: string, credId: string, options: Record<string, unknown> = {}) {
	return {
		id: randomUUID(),
		name,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		credentials: { messagingInstanceApi: { id: credId, name: 'Sandbox v2' } },
		parameters: { instance, events: ['MESSAGES_UPSERT'], options },
	};
}

function action(name: string, credId: string, parameters: Record<string, unknown>, x: number) {
	return {
		id: randomUUID(),
		name,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [x, 0],
		credentials: { messagingInstanceApi: { id: credId, name: 'Sandbox v2' } },
		parameters,
	};
}

/**
 * The README's pattern: trigger → Redis Increment `messaging-dedupe:<dedupeKey>` (expire
 * 86400 s) → If the count is 1 → Send Text. Redis INCR is atomic, so of all the copies of one
 * delivery, in any process, at any time within the TTL, exactly one sees 1.
 */
export function dedupeWorkflow(credId: string, redisCredId: string): WorkflowSpec {
	return {
		name: 'queue: reply once (Redis dedupe)',
		nodes: [
			trigger('On Message', 'demo', credId),
			{
				id: randomUUID(),
				name: 'Count Copies',
				type: 'n8n-nodes-base.redis',
				typeVersion: 1,
				position: [200, 0],
				credentials: { redis: { id: redisCredId, name: 'Redis (dedupe)' } },
				// A command in flight when Redis goes away fails (the Redis node's client rejects it
				// when the socket closes; a new connect waits for Redis): without a retry, that run ends
				// in an error and its message, which n8n took and ran, gets no reply.
				// 5 tries 2 s apart outlast an outage short of n8n's own 10 s limit.
				retryOnFail: true,
				maxTries: 5,
				waitBetweenTries: 2000,
				parameters: { operation: 'incr', key: "={{ 'messaging-dedupe:' + $json.dedupeKey }}", expire: true, ttl: DEDUPE_TTL },
			},
			{
				id: randomUUID(),
				name: 'First Copy?',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [400, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{ id: randomUUID(), leftValue: '={{ Object.values($json)[0] }}', rightValue: 1, operator: { type: 'number', operation: 'equals' } },
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			action(
				'Reply',
				credId,
				{
					resource: 'message',
					operation: 'sendText',
					instance: picked('demo'),
					number: "={{ $('On Message').item.json.chatId }}",
					text: `=${REPLY}{{ $('On Message').item.json.text }}`,
				},
				600,
			),
		],
		connections: { ...link('On Message', 'Count Copies'), ...link('Count Copies', 'First Copy?'), ...link('First Copy?', 'Reply') },
		settings: { executionOrder: 'v1' },
	};
}

/** The same reply without the Redis step: what the pattern fixes. */
export function naiveWorkflow(credId: string): WorkflowSpec {
	return {
		name: 'queue: reply (no dedupe step)',
		nodes: [
			trigger('On Message', 'naive', credId),
			action('Reply', credId, { resource: 'message', operation: 'sendText', instance: picked('naive'), number: '={{ $json.chatId }}', text: `=${REPLY}{{ $json.text }}` }, 300),
		],
		connections: link('On Message', 'Reply'),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Media as binary made by the trigger in a webhook process, hashed on a worker; then the file
 * downloaded on the worker (Download Media) and hashed too; the reply carries both hashes.
 */
export function mediaWorkflow(credId: string): WorkflowSpec {
	const hash = (name: string, property: string, x: number) => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.crypto',
		typeVersion: 2,
		position: [x, 0],
		parameters: { action: 'hash', type: 'SHA256', binaryData: true, binaryPropertyName: 'data', dataPropertyName: property, encoding: 'hex' },
	});
	return {
		name: 'queue: media hash',
		nodes: [
			trigger('On Media', 'media', credId, { mediaAsBinary: true }),
			hash('Hash Received', 'receivedHash', 200),
			action('Download', credId, { resource: 'message', operation: 'downloadMedia', instance: picked('media'), messageId: "={{ $('On Media').item.json.messageId }}" }, 400),
			hash('Hash Downloaded', 'downloadedHash', 600),
			action(
				'Reply',
				credId,
				{
					resource: 'message',
					operation: 'sendText',
					instance: picked('media'),
					number: "={{ $('On Media').item.json.chatId }}",
					text: "=sha256 {{ $('Hash Received').item.json.receivedHash }} {{ $json.downloadedHash }}",
				},
				800,
			),
		],
		connections: {
			...link('On Media', 'Hash Received'),
			...link('Hash Received', 'Download'),
			...link('Download', 'Hash Downloaded'),
			...link('Hash Downloaded', 'Reply'),
		},
		settings: { executionOrder: 'v1' },
	};
}
