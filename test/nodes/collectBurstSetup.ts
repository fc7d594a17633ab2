import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type IncomingMessage, type Sandbox } from '../../sandbox/server';
import type { ServerVersion } from '../../sandbox/versions';
import { runNode, type NodeRun } from '../harness/engine';
import { declareSecrets } from '../harness/secrets';
import { credentialsFor } from './helpers';

/**
 * Collect Burst's tests: a v2 sandbox per test (each starts with an empty chat log), contacts
 * who write through the sandbox's injection (stored as the release stores them, then
 * delivered), and runs of the node with the item the trigger gives it. Quiet times are one
 * second: a run then waits 1 s + the 2 s settling time before it reads the chat.
 */
export const CONTACT = '5511988887777';
export const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
export const CONTACT_LID = '204381957623451@lid';
export const GROUP = '120363000000000077@g.us';
export const QUIET = { quietSeconds: 1, maxWaitSeconds: 60 };

export function useBurstSandbox(version?: ServerVersion): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeEach(async () => {
		holder.current = await startSandbox({ dialect: 'v2', ...(version ? { version } : {}), instances: [{ name: 'demo', token: 'demo-token' }] });
		declareSecrets('demo-token');
	});
	afterEach(async () => await holder.current.close());
	return holder;
}

/** A contact's message arrives (stored, then delivered): the trigger's item for it. */
export async function arrives(sandbox: Sandbox, message: IncomingMessage & { id: string }): Promise<{ chatId: string; messageId: string }> {
	await sandbox.injectMessage('demo', message);
	return { chatId: message.group ?? `${message.from}@s.whatsapp.net`, messageId: message.id };
}

/** The instance writes in the chat (the workflow's reply, or a person on the phone). */
export async function instanceWrites(sandbox: Sandbox, number: string, text: string): Promise<void> {
	const answer = await fetch(`${sandbox.url}/message/sendText/demo`, {
		method: 'POST',
		headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ number, text }),
	});
	expect(answer.status).toBe(201);
}

/** Runs Collect Burst for one trigger item, as a workflow Trigger → Collect Burst does. */
export async function collect(sandbox: Sandbox, item: IDataObject, parameters: INodeParameters = QUIET, credentials: IDataObject = {}): Promise<NodeRun> {
	return await runNode({
		parameters: { resource: 'message', operation: 'collectBurst', instance: 'demo', ...parameters },
		items: [item],
		credentials: { ...credentialsFor(sandbox), ...credentials },
	});
}

/** The item a run output, or undefined when it output nothing; a failed run fails the test. */
export function output(run: NodeRun): IDataObject | undefined {
	expect(run.error).toBeUndefined();
	expect(run.items.length).toBeLessThanOrEqual(1);
	if (run.items.length === 0) return undefined;
	expect(run.items[0].pairedItem).toEqual({ item: 0 });
	return run.items[0].json;
}

/** The message ids of a burst item, in order. */
export function idsOf(item: IDataObject | undefined): string[] | undefined {
	return (item?.messages as Array<{ messageId: string }> | undefined)?.map((message) => message.messageId);
}

/** The Find Messages bodies the sandbox received, in order. */
export function findRequests(sandbox: Sandbox): unknown[] {
	return sandbox.requests.filter((request) => request.path === '/chat/findMessages/demo').map((request) => request.body);
}

/** The body of a run's read of one chat's page. */
export function chatPage(jid: string, page = 1): IDataObject {
	return { where: { key: { remoteJid: jid, remoteJidAlt: jid } }, page, offset: 50 };
}

export async function pause(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the sandbox has answered `count` Find Messages requests. */
export async function findRequestsReach(sandbox: Sandbox, count: number): Promise<void> {
	for (let waited = 0; findRequests(sandbox).length < count; waited += 20) {
		if (waited > 15_000) throw new Error(`the sandbox saw ${findRequests(sandbox).length} Find Messages requests, not ${count}`);
		await pause(20);
	}
}
