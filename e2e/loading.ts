/**
 * Checks (c) of e2e/run.ts: n8n loads the package as a user's n8n would. Its node types are
 * served (with the AI-tool variant), and n8n's logs (server and CLI runs) hold no warning or
 * error about it and no crash.
 */
import * as assert from 'node:assert/strict';

import { PACKAGE_NAME, type RestClient } from '../scripts/n8n-runtime';
import type { Report } from './report';

export async function nodeTypeChecks(report: Report, rest: RestClient): Promise<void> {
	await report.check('(c) n8n exposes messagingInstance, messagingInstanceTrigger, messagingInstanceChatMemory and the messagingInstanceTool variant (and no tool variant of the memory)', async () => {
		const types = (await rest.nodeTypes()) as Array<{ name: string; codex?: { subcategories?: Record<string, string[]> } }>;
		const names = new Set(types.map((t) => t.name));
		// The memory's node loads on every n8n (1.x included): only its supplyData needs the AI node SDK.
		assert.ok(!names.has(`${PACKAGE_NAME}.messagingInstanceChatMemoryTool`), 'a tool variant of the chat memory');
		// Listed where the editor offers memories for an agent's Memory input: AI → Memory.
		const memory = types.find((t) => t.name === `${PACKAGE_NAME}.messagingInstanceChatMemory`);
		assert.deepEqual(memory?.codex?.subcategories?.AI, ['Memory'], `the memory's codex: ${JSON.stringify(memory?.codex)}`);
		const missing = ['messagingInstance', 'messagingInstanceTrigger', 'messagingInstanceChatMemory', 'messagingInstanceTool'].filter(
			(n) => !names.has(`${PACKAGE_NAME}.${n}`),
		);
		assert.deepEqual(missing, [], `missing node types (prefix ${PACKAGE_NAME}.): ${missing.join(', ')}; ours seen: ${[...names].filter((n) => /messaging/i.test(n)).join(', ') || 'none'}`);
	});
}

/** @param serverLog the served n8n's output; @param allLogs it and every CLI run's output */
export async function logChecks(report: Report, serverLog: string, allLogs: string): Promise<void> {
	await report.check('(c) no warnings or errors about loading our package in the n8n logs', () => {
		const bad = allLogs
			.split('\n')
			.filter((l) => /messaging|n8n-nodes-messaging-instance/i.test(l))
			.filter((l) => /warn|error|skipping|failed|cannot|could not|not found|deprecat/i.test(l));
		const generic = allLogs.split('\n').filter((l) => /Skipping package|Can't enable lazy-loading|failed to load/i.test(l));
		assert.deepEqual([...bad, ...generic], [], 'log lines');
	});
	await report.check('(c) n8n stopped cleanly (no crash output)', () => {
		assert.ok(!/UnhandledPromiseRejection|Uncaught|FATAL/i.test(serverLog), serverLog.slice(-1500));
	});
}
