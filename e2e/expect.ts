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

/** Deep-equal with a readable message. */
export function expectBody(actual: unknown, expected: unknown, label: string): void {
	try {
		assert.deepStrictEqual(actual, expected);
	} catch {
		throw new Error(`${label}: body differs\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}`);
	}
}
