/**
 * (s) A send n8n's Retry On Fail runs again, in a real n8n: Manual Trigger → Send Text with
 * Retry On Fail on, run by `n8n execute`, against a sandbox playing Evolution API 2.4.0.
 * - The first attempt's answer comes later than the credential's Request Timeout (the sandbox
 *   sends and stores the message, then holds its answer: `answerLate`): the node fails with a
 *   timeout, n8n runs it again, the node looks the message up by its id (Find Messages) and
 *   finds it; the output carries that id, the contact got the message once.
 * - The first attempt is answered 500 (nothing sent): the retry looks it up, does not find it,
 *   sends it with the same id; one message.
 * - The same lost answer on 2.3.7, which ignores the id: the README's warning holds, the retry
 *   sends a second message.
 *
 *   tsx e2e/retriedSend.ts [version]   runs (s) alone: packs, installs into a temp user folder,
 *                                      starts n8n (~40 s)
 */
import * as assert from 'node:assert/strict';

import { executeWorkflow, nodeOutputs, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, credentialRef } from '../scripts/demo-workflow';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const CONTACT = '5511955550001';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
const SEND = '/message/sendText/demo';
const FIND = '/chat/findMessages/demo';
const NODE = 'Send Text';
/** The credential's Request Timeout (its minimum, seconds) and how late the sandbox answers (ms). */
const TIMEOUT_S = 1;
const LATE_MS = 4000;
/** The node's ids: `3EB0` and 18 hex digits (nodes/MessagingInstance/actions/message/messageId.ts). */
const NODE_ID = /^3EB0[0-9A-F]{18}$/;

async function createCredential(rest: RestClient, name: string, sandbox: Sandbox): Promise<string> {
	const made = await rest.call('POST', '/credentials', {
		name,
		type: 'messagingInstanceApi',
		data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2', timeout: TIMEOUT_S },
	});
	return String(made.id);
}

/** Manual Trigger → Send Text with Retry On Fail as the editor saves it (2 tries, 1 s apart). */
function retriedSendWorkflow(credId: string, credName: string, text: string): WorkflowSpec {
	return {
		name: `e2e (s): ${text}`,
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'send',
				name: NODE,
				type: ACTION_TYPE,
				typeVersion: 2,
				position: [200, 0],
				credentials: credentialRef(credId, credName),
				retryOnFail: true,
				maxTries: 2,
				waitBetweenTries: 1000,
				parameters: { resource: 'message', operation: 'sendText', instance: { __rl: true, mode: 'name', value: 'demo' }, number: CONTACT, text, options: {} },
			},
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	};
}

interface Run {
	output: any[];
	/** the requests n8n's node made to the sandbox: path, the id sent or looked up, status */
	calls: Array<[string, unknown, number]>;
	/** the messages the contact received (the sandbox's chat log) */
	received: any[];
}

/** Runs the workflow with `n8n execute` and reads what the node output and what the sandbox saw. */
async function runRetried(tools: E2eTools, rest: RestClient, sandbox: Sandbox, credId: string, credName: string, text: string): Promise<Run> {
	const made = await rest.call('POST', '/workflows', { ...retriedSendWorkflow(credId, credName, text), active: false, settings: { executionOrder: 'v1' } });
	const since = sandbox.requests.length;
	const result = await executeWorkflow(tools.userFolder, String(made.id), tools.version);
	await sandbox.settled();
	const error = result.data?.data?.resultData?.error ?? result.data?.resultData?.error;
	assert.ok(result.ok, `the run failed: ${error ? `${error.message} ${error.description ?? ''}` : result.stdout.slice(-1500)}`);
	const calls = (sandbox.requests as any[]).slice(since).map((r): [string, unknown, number] => {
		// a request failNext answers is not parsed by the sandbox: its body is read here
		const body = r.body ?? (r.rawBody ? JSON.parse(r.rawBody) : {});
		return [r.path, r.path === FIND ? body.where?.key?.id : body.messageId, r.status];
	});
	const received = (sandbox.chat as any[]).filter((c) => c.direction === 'out' && c.chat === CONTACT_JID && c.text === text);
	return { output: nodeOutputs(result.data)[NODE] ?? [], calls, received };
}

/** (s) Send Text with Retry On Fail on a 2.4 server (and on 2.3.7, to show what the README warns of). */
export async function retriedSendChecks(tools: E2eTools, rest: RestClient): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandboxes: Sandbox[] = [];
	try {
		const v24 = await startSandbox({ dialect: 'v2', version: '2.4.0', licensed: true, instances: [{ name: 'demo' }] });
		sandboxes.push(v24);
		const cred24 = 'Evolution API 2.4 (retried sends)';
		const cred24Id = await createCredential(rest, cred24, v24);

		await tools.check(`(s) 2.4: Send Text whose first answer comes after the ${TIMEOUT_S} s Request Timeout, Retry On Fail on: the retry finds the message by its id and sends nothing; the output carries the id; the contact got it once`, async () => {
			v24.answerLate({ ms: LATE_MS, times: 1, path: SEND });
			const text = `late answer ${Date.now().toString(36)}`;
			const { output, calls, received } = await runRetried(tools, rest, v24, cred24Id, cred24, text);
			const id = calls[0]?.[1];
			assert.match(String(id), NODE_ID, `the send carried no node-made id: ${JSON.stringify(calls)}`);
			// the send (answered too late for the node), then the retry's lookup by the same id, which finds it
			assert.deepEqual(calls, [[SEND, id, 201], [FIND, id, 200]]);
			assert.equal(received.length, 1, `the contact received ${received.length} messages`);
			assert.equal(received[0].messageId, id, 'the stored message has another id');
			assert.equal(output.length, 1, `${output.length} output items`);
			assert.equal(output[0].json.messageId, id, `output ${JSON.stringify(output[0].json).slice(0, 400)}`);
			assert.equal(output[0].json.key?.id, id);
			assert.equal(output[0].json.key?.fromMe, true);
		});

		await tools.check('(s) 2.4: Send Text whose first attempt is answered 500, Retry On Fail on: the retry looks it up, finds nothing, sends it with the same id; one message', async () => {
			v24.failNext({ status: 500, message: 'Connection Closed', times: 1, path: SEND });
			const text = `failed first ${Date.now().toString(36)}`;
			const { output, calls, received } = await runRetried(tools, rest, v24, cred24Id, cred24, text);
			const id = calls[0]?.[1];
			assert.match(String(id), NODE_ID, `the send carried no node-made id: ${JSON.stringify(calls)}`);
			assert.deepEqual(calls, [[SEND, id, 500], [FIND, id, 200], [SEND, id, 201]]);
			assert.equal(received.length, 1, `the contact received ${received.length} messages`);
			assert.equal(received[0].messageId, id);
			assert.equal(output[0]?.json.messageId, id);
		});

		const v237 = await startSandbox({ dialect: 'v2', version: '2.3.7', licensed: true, instances: [{ name: 'demo' }] });
		sandboxes.push(v237);
		const cred237 = 'Evolution API 2.3.7 (retried sends)';
		const cred237Id = await createCredential(rest, cred237, v237);
		await tools.check("(s) 2.3.7: the same late answer: the server chose its own id, the lookup cannot find it, the retry sends a second message (the README's warning for 2.3.x)", async () => {
			v237.answerLate({ ms: LATE_MS, times: 1, path: SEND });
			const text = `late answer on 2.3.7 ${Date.now().toString(36)}`;
			const { output, calls, received } = await runRetried(tools, rest, v237, cred237Id, cred237, text);
			const id = calls[0]?.[1];
			assert.deepEqual(calls, [[SEND, id, 201], [FIND, id, 200], [SEND, id, 201]]);
			assert.equal(received.length, 2, `the contact received ${received.length} messages`);
			assert.ok(received.every((m) => m.messageId !== id), 'the server used the id the node chose');
			assert.equal(output[0]?.json.messageId, received[1].messageId, 'the output has not the id of the message sent');
		});
	} finally {
		await Promise.allSettled(sandboxes.map((s) => s.close()));
	}
}

if (require.main === module) void runAlone('retried-send', (tools, rest) => retriedSendChecks(tools, rest));
