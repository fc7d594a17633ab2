/**
 * What the checks of e2e/run.ts share: the requests the sandbox recorded on one path, and a
 * deep-equal that says which body differs and how.
 */
import * as assert from 'node:assert/strict';

// The sandbox is typed loosely here so the e2e keeps compiling while its API grows.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Sandbox = any;

/** The requests the sandbox recorded on this path (a query string ignored), oldest first. */
export function requestsTo(sandbox: Sandbox, p: string): any[] {
	return (sandbox.requests as any[]).filter((r) => r.path === p || String(r.path).split('?')[0] === p);
}

/**
 * The Find Messages requests that read one chat or one message (`where.key`): Collect Burst's,
 * the memory's, the look-ups by id. Not the trigger's catch-up, which reads the instance by time
 * (`where.messageTimestamp`) at publish and at every n8n start, whenever n8n runs it.
 */
export function chatReads(sandbox: Sandbox, instance = 'demo'): any[] {
	return requestsTo(sandbox, `/chat/findMessages/${instance}`).filter((r) => r.body?.where?.key !== undefined);
}

/** Deep-equal with a readable message. */
export function expectBody(actual: unknown, expected: unknown, label: string): void {
	try {
		assert.deepStrictEqual(actual, expected);
	} catch {
		throw new Error(`${label}: body differs\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}`);
	}
}
