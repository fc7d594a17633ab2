/**
 * (y) Collect Burst in a real n8n: the recipe "answer once per burst". An active workflow
 * Messaging Instance Trigger → Collect Burst (Quiet Seconds 2) → Send Text `You said: {{ $json.text }}`
 * to the chat, with a second branch for files: Split Out `messages` → Filter `hasFile` →
 * Download Media by `{{ $json.messageId }}` → Send Text naming the file. On a v2 sandbox:
 * - three messages 1 s apart get ONE reply holding all three (the runs of the first two
 *   output nothing);
 * - a fourth message after that reply starts a new burst: one reply with it alone;
 * - a text and a voice note in one burst: one reply with the text, and the voice note reaches
 *   the workflow as a file (Download Media of its message id, the exact bytes);
 * - the server's clock 5 s behind n8n's and the phone's owner writing 1 s after two messages:
 *   still one reply holding both (no rule compares the run's start with the server's time).
 *
 *   tsx e2e/collectBurst.ts [version]   runs (y) alone: packs, installs into a temp user
 *                                       folder, starts n8n and a v2 sandbox (~1 min)
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import type { RestClient, WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, ACTION_VERSION, credentialRef, instanceParameter, REPLY_PREFIX, replyWorkflow, TRIGGER_NODE } from '../scripts/demo-workflow';
import { chatReads } from './expect';
import { publish } from './serverVersions';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const CONTACT = '5511933330000';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;
const QUIET_SECONDS = 2;
const VOICE = Buffer.from('OggS burst voice note').toString('base64');
/** What the phone's owner writes in the chat: it ends the contact's burst, it is no reply of the workflow's. */
const OWNER_TEXT = 'One moment please';

/**
 * The recipe's workflow: the echo example (Trigger → Send Text `You said: {{ $json.text }}` to
 * `{{ $json.chatId }}`) with Collect Burst between the two, and the files of the burst →
 * Download Media → Send Text naming the file.
 */
export function burstWorkflow(credId: string, credName: string, instance = 'demo'): WorkflowSpec {
	const echo = replyWorkflow(credId, { instance, name: `e2e (y): answer once per burst (${instance})`, credentialName: credName });
	const [trigger, reply] = echo.nodes as [Record<string, unknown>, { name: string } & Record<string, unknown>];
	const action = (name: string, parameters: Record<string, unknown>, x: number, y = 0) => ({
		id: randomUUID(),
		name,
		type: ACTION_TYPE,
		typeVersion: ACTION_VERSION,
		position: [x, y],
		credentials: credentialRef(credId, credName),
		parameters: { instance: instanceParameter(ACTION_VERSION, instance), ...parameters },
	});
	const link = (from: string, ...to: string[]) => ({ [from]: { main: [to.map((node) => ({ node, type: 'main', index: 0 }))] } });
	return {
		name: echo.name,
		nodes: [
			trigger,
			// As the editor saves a new node: Chat ID and Message ID keep their defaults (the trigger's chatId / messageId).
			action('Collect Burst', { resource: 'message', operation: 'collectBurst', quietSeconds: QUIET_SECONDS }, 200),
			{ ...reply, position: [400, 0] },
			{ id: randomUUID(), name: 'Each Message', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 200], parameters: { fieldToSplitOut: 'messages', include: 'allOtherFields', options: {} } },
			{
				id: randomUUID(),
				name: 'With a File',
				type: 'n8n-nodes-base.filter',
				typeVersion: 2.2,
				position: [600, 200],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [{ id: randomUUID(), leftValue: '={{ $json.messages.hasFile }}', rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } }],
						combinator: 'and',
					},
					options: {},
				},
			},
			action('Download Media', { resource: 'message', operation: 'downloadMedia', messageId: '={{ $json.messages.messageId }}' }, 800, 200),
			action(
				'Name the File',
				{ resource: 'message', operation: 'sendText', number: "={{ $('Collect Burst').item.json.chatId }}", text: '=File: {{ $binary.data.mimeType }}, {{ $binary.data.fileSize }}', options: {} },
				1000,
				200,
			),
		],
		connections: {
			...link(TRIGGER_NODE, 'Collect Burst'),
			...link('Collect Burst', reply.name, 'Each Message'),
			...link('Each Message', 'With a File'),
			...link('With a File', 'Download Media'),
			...link('Download Media', 'Name the File'),
		},
	};
}

/** The texts the instance sent to the contact, in order. */
function replies(sandbox: Sandbox): string[] {
	return (sandbox.requests as any[]).filter((r) => r.path === '/message/sendText/demo' && String(r.body?.number ?? '').startsWith(CONTACT)).map((r) => String(r.body?.text ?? ''));
}

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the workflow has `count` runs and none is running or waiting (every run of a burst has ended). */
async function settled(tools: E2eTools, rest: RestClient, workflowId: string, count: number): Promise<void> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	await tools.waitFor(`${count} runs to end`, async () => {
		const page = (await rest.call('GET', `/executions?filter=${filter}&limit=50`)) as { results: Array<{ status: string }> };
		return page.results.length >= count && page.results.every((run) => !['running', 'new', 'waiting'].includes(run.status)) ? true : undefined;
	}, 60_000);
}

/** What the runs did, for a failed check: each execution's status and error, and the requests the sandbox got. */
async function whatHappened(rest: RestClient, sandbox: Sandbox, workflowId: string): Promise<string> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = (await rest.call('GET', `/executions?filter=${filter}&limit=20`)) as { results: Array<{ id: string; status: string }> };
	const runs = [];
	for (const run of page.results.slice(0, 6)) {
		const full = (await rest.call('GET', `/executions/${run.id}`)) as { data?: string };
		const error = /"message":"([^"]{0,300})"/.exec(String(full.data ?? ''))?.[1];
		runs.push(`${run.id} ${run.status}${error ? ` (${error})` : ''}`);
	}
	const requests = (sandbox.requests as any[]).map((r) => `${r.method} ${r.path} ${r.status}`);
	return `runs: ${runs.join('; ')}\nrequests: ${requests.slice(-20).join(', ')}`;
}

/** The contact writes each message, `gapMs` apart; each delivery must reach n8n. */
async function contactWrites(sandbox: Sandbox, messages: Array<Record<string, unknown>>, gapMs: number): Promise<void> {
	for (const [index, message] of messages.entries()) {
		if (index > 0) await pause(gapMs);
		const delivery = await sandbox.injectMessage('demo', { from: CONTACT, pushName: 'Ana', ...message });
		assert.equal(delivery?.attempts?.at(-1)?.status, 200, JSON.stringify(delivery?.attempts));
	}
}

export async function collectBurstChecks(tools: E2eTools, rest: RestClient, n8nUrl: string): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }], delivery: { attempts: 3, backoffMs: 500, timeoutMs: 30000 } });
	let workflowId: string | undefined;
	try {
		const credName = 'Sandbox (collect burst)';
		const made = await rest.call('POST', '/credentials', { name: credName, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const created = await rest.call('POST', '/workflows', { ...burstWorkflow(String(made.id), credName), active: false, settings: { executionOrder: 'v1' } });
		workflowId = String(created.id);
		const id = workflowId;

		const ready = await tools.check("(y) the burst workflow is active: the instance's webhook points at it", async () => await publish(tools, rest, n8nUrl, sandbox, 'demo', id));
		if (!ready) return;

		await tools.check('(y) three messages 1 s apart get ONE reply holding all three', async () => {
			await contactWrites(sandbox, [{ id: 'XB1', text: 'hi' }, { id: 'XB2', text: 'I need help' }, { id: 'XB3', text: 'with my order 4411' }], 1000);
			await settled(tools, rest, id, 3);
			assert.deepEqual(replies(sandbox), [`${REPLY_PREFIX}hi\nI need help\nwith my order 4411`], await whatHappened(rest, sandbox, id));
			// Three runs, each one Find Messages of the chat, after its quiet time.
			const reads = chatReads(sandbox);
			assert.deepEqual(reads.map((r) => r.body), Array(3).fill({ where: { key: { remoteJid: CONTACT_JID, remoteJidAlt: CONTACT_JID } }, page: 1, offset: 50 }));
		});

		await tools.check('(y) a fourth message after the reply starts a new burst: one more reply, with it alone', async () => {
			await contactWrites(sandbox, [{ id: 'XB4', text: 'thanks!' }], 0);
			await settled(tools, rest, id, 4);
			assert.deepEqual(replies(sandbox), [`${REPLY_PREFIX}hi\nI need help\nwith my order 4411`, `${REPLY_PREFIX}thanks!`]);
		});

		await tools.check('(y) a text and a voice note in one burst: one reply with the text, and the voice note reaches the workflow as a file (Download Media of its message id)', async () => {
			const before = replies(sandbox).length;
			await contactWrites(sandbox, [{ id: 'XB5', text: 'listen to this' }, { id: 'XB6', media: { kind: 'audio', mimetype: 'audio/ogg; codecs=opus', base64: VOICE } }], 1000);
			await settled(tools, rest, id, 6);
			const answers = replies(sandbox).slice(before);
			assert.equal(answers.length, 2, JSON.stringify(answers));
			assert.ok(answers.includes(`${REPLY_PREFIX}listen to this`), JSON.stringify(answers));
			// The file's type and size as n8n's binary data has them: the downloaded file itself.
			assert.ok(answers.includes(`File: audio/ogg; codecs=opus, ${Buffer.from(VOICE, 'base64').length} B`), JSON.stringify(answers));
			const downloads = (sandbox.requests as any[]).filter((r) => r.path === '/chat/getBase64FromMediaMessage/demo');
			assert.deepEqual(downloads.map((r) => r.body?.message?.key?.id), ['XB6']);
		});

		await tools.check("(y) the server's clock 5 s behind n8n's, the phone's owner writing 1 s after two messages: the burst still gets ONE reply holding both", async () => {
			sandbox.historyQuirks({ clockSkewMs: -5000 });
			const before = replies(sandbox).length;
			await contactWrites(sandbox, [{ id: 'XB7', text: 'is the shop open?' }, { id: 'XB8', text: 'today' }], 1000);
			await pause(1000);
			const owner = await fetch(`${sandbox.url}/message/sendText/demo`, {
				method: 'POST',
				headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
				body: JSON.stringify({ number: CONTACT, text: OWNER_TEXT }),
			});
			assert.equal(owner.status, 201);
			await settled(tools, rest, id, 8);
			const answers = replies(sandbox).slice(before).filter((text) => text !== OWNER_TEXT);
			assert.deepEqual(answers, [`${REPLY_PREFIX}is the shop open?\ntoday`], await whatHappened(rest, sandbox, id));
		});
	} finally {
		if (workflowId) await rest.deactivate(workflowId).catch(() => undefined);
		// n8n switches the trigger's webhook off in the background: closing the sandbox first would leave a "deregistration failed" error in n8n's log.
		await tools.waitFor('the instance\'s webhook switched off', () => sandbox.webhookOf('demo')?.enabled !== true, 15000).catch(() => undefined);
		await sandbox.close();
	}
}

if (require.main === module) void runAlone('collect-burst', collectBurstChecks);
