import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun, type RunNodeOptions } from '../harness/engine';
import { postJson, type LinkAnswer } from '../harness/waiting';
import { INSTANCE, secretOf, setup, TOKEN, type Setup } from '../trigger/helpers';

/**
 * What the tests of Send and Wait for Response answered in the chat share. Send and Wait for Response answered in the chat (`chatReply`): a Messaging Instance Trigger
 * active on the sandbox's instance, the action node waiting in its own execution, and the
 * contact's messages injected into the sandbox, which delivers them to the trigger. The
 * trigger hands the reply to the execution's waiting webhook; here the test harness plays
 * n8n at that address (the trigger harness serves `/webhook-waiting/…` too) and resumes the
 * execution with what the node answered, as n8n does.
 */

export const ASKED = '5511977770000';
export const OTHER = '5511966660000';
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export let s: Setup;
/** The action's run options by execution id, and the answers its waiting webhook gave. */
let runs: Map<string, RunNodeOptions>;
export let answers: Array<{ executionId: string; answer: LinkAnswer }>;
/** What the test's n8n answers at the waiting address instead of running the node (an execution gone). */
let waitingGone: boolean;
/** n8n answers that the execution is still running (it has not reached its wait yet), this many times. */
let stillRunning: number;

/** Registers the hooks each test of a file needs: a v2 sandbox, an active trigger, n8n's waiting address played. */
export function useChatReplySetup(): void {
beforeEach(async () => {
	s = await setup('v2');
	await s.harness.activate();
	s.sandbox.clearRequests();
	runs = new Map();
	answers = [];
	waitingGone = false;
	stillRunning = 0;
	s.harness.waiting = async (link, body) => {
		const executionId = new URL(link).pathname.split('/')[2];
		const options = runs.get(executionId);
		if (!options || waitingGone) return { status: 404, body: { message: `The execution "${executionId}" does not exist.` } };
		if (stillRunning > 0) {
			stillRunning--;
			return { status: 409, body: { code: 409, message: `The execution "${executionId}" is running already.` } };
		}
		const answer = await postJson(options, link, body);
		answers.push({ executionId, answer });
		return { status: answer.status, body: answer.json ?? answer.html };
	};
});

afterEach(async () => await s.close());
}

/** n8n answers that the execution is gone (404) from now on. */
export function executionGone(): void {
	waitingGone = true;
}

/** n8n answers that the execution is still running, this many times. */
export function executionStillRunning(times: number): void {
	stillRunning = times;
}

export function optionsFor(parameters: INodeParameters, executionId = 'exec-1', extra: Partial<RunNodeOptions> = {}): RunNodeOptions {
	const options: RunNodeOptions = {
		parameters: { resource: 'message', operation: 'sendAndWait', instance: INSTANCE, number: ASKED, responseType: 'chatReply', ...parameters },
		credentials: { baseUrl: s.sandbox.url, apiKey: s.sandbox.apiKey, dialect: 'v2' },
		baseUrl: s.harness.baseUrl,
		executionId,
		...extra,
	};
	runs.set(executionId, options);
	return options;
}

/** The interface requests the action made, as `METHOD path`. */
export function calls(): string[] {
	return s.sandbox.requests.map((request) => `${request.method} ${request.path}`);
}

export function bodyOf(path: string): IDataObject {
	const found = s.sandbox.requests.find((request) => request.path === path);
	if (!found) throw new Error(`no request to ${path}`);
	return found.body as IDataObject;
}

export async function waitingRun(options: RunNodeOptions): Promise<NodeRun> {
	const run = await runNode(options);
	expect(run.error).toBeUndefined();
	expect(run.run.status).toBe('waiting');
	return run;
}

/** The waits the trigger keeps in its static data, as n8n's database holds them. */
export function storedWaits(): IDataObject[] {
	return (s.harness.nodeStaticData.waits as IDataObject[] | undefined) ?? [];
}

export function secrets(): string[] {
	return [secretOf(s), s.sandbox.apiKey, TOKEN];
}

export function expectNoSecret(value: unknown): void {
	const text = JSON.stringify(value);
	for (const secret of secrets()) expect(text).not.toContain(secret);
}
