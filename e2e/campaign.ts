/**
 * (z) Sending to many in a real n8n: Manual Trigger → Code (30 contacts) → Send Text
 * with the Sending options (Pace 1–2 s, Only Numbers With an Account, Retries on Rate Limit,
 * Stop After Failures in a Row 1) and Continue On Fail, run by `n8n execute`, against a
 * sandbox playing Evolution API 2.3.7 that refuses sends as WhatsApp does.
 * - The 30 numbers are checked in one Check Numbers request before the first send; the 5
 *   without an account come out `skipped` and are never sent to.
 * - WhatsApp answers the 12th contact's message with rate-overlimit: the node waits, sends it
 *   again, and it goes out.
 * - The instance is logged out at the 20th contact: that send fails ("Connection Closed"),
 *   the run stops, and the 10 contacts after it come out `notSent`.
 * - The sandbox saw every pause inside the 1–2 s window, and no contact got two messages.
 *
 *   tsx e2e/campaign.ts [version]   runs (z) alone: packs, installs into a temp user
 *                                   folder, starts n8n (~40 s), then the campaign (~30 s)
 */
import * as assert from 'node:assert/strict';

import { executeWorkflow, nodeOutputs, type RestClient, type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, credentialRef } from '../scripts/demo-workflow';
import { runAlone } from './standalone';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Sandbox = any;

const NODE = 'Send Campaign';
const CONTACTS = 30;
/** The contacts (1-based, as a sheet's rows) whose numbers have no account: the sandbox's numbers starting with 0. */
const WITHOUT_ACCOUNT = [3, 6, 9, 14, 17];
const RATE_LIMITED_AT = 12;
const LOGGED_OUT_AT = 20;
const PAUSE_MS = { min: 1000, max: 2000 };

const numberOf = (contact: number) => `${WITHOUT_ACCOUNT.includes(contact) ? '0' : '5'}5119777700${String(contact).padStart(2, '0')}`;

/** How many sends reach WhatsApp before a contact's: the contacts before it that have an account. */
const sendsBefore = (contact: number) => contact - 1 - WITHOUT_ACCOUNT.filter((other) => other < contact).length;

function campaignWorkflow(credId: string, credName: string): WorkflowSpec {
	return {
		name: 'e2e (z): 30 contacts',
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'sheet',
				name: 'Contacts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: {
					jsCode: `const without = ${JSON.stringify(WITHOUT_ACCOUNT)};\nreturn Array.from({ length: ${CONTACTS} }, (_, i) => ({ json: { row: i + 1, phone: (without.includes(i + 1) ? '0' : '5') + '5119777700' + String(i + 1).padStart(2, '0'), name: 'Contact ' + (i + 1) } }));`,
				},
			},
			{
				id: 'send',
				name: NODE,
				type: ACTION_TYPE,
				typeVersion: 2,
				position: [400, 0],
				credentials: credentialRef(credId, credName),
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'message',
					operation: 'sendText',
					instance: { __rl: true, mode: 'name', value: 'demo' },
					number: '={{ $json.phone }}',
					text: '=Hello {{ $json.name }}, our shop opens on Monday.',
					options: {},
					sending: {
						pauseMinSeconds: PAUSE_MS.min / 1000,
						pauseMaxSeconds: PAUSE_MS.max / 1000,
						onlyNumbersWithAccount: true,
						rateLimitRetries: 2,
						rateLimitWaitSeconds: 1,
						stopAfterFailures: 1,
					},
				},
			},
		],
		connections: {
			Start: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
	};
}

/** (z) the whole campaign in one run. */
export async function campaignChecks(tools: E2eTools, rest: RestClient): Promise<void> {
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }] });
	try {
		const credName = 'Evolution API 2.3.7 (z)';
		const made = await rest.call('POST', '/credentials', { name: credName, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const workflow = await rest.call('POST', '/workflows', { ...campaignWorkflow(String(made.id), credName), active: false, settings: { executionOrder: 'v1' } });
		// WhatsApp refuses the 12th contact's first try, and every send from the 20th contact's on
		// (the refused try and its retry both reach it, so the logout comes one send later).
		sandbox.refuseSends({ kind: 'rateOverlimit', after: sendsBefore(RATE_LIMITED_AT), times: 1 });
		sandbox.refuseSends({ kind: 'loggedOut', after: sendsBefore(LOGGED_OUT_AT) + 1 });

		let output: any[] = [];
		let requests: any[] = [];
		await tools.check('(z) a 30-contact run from a Code node with the Sending options finishes, one output item per contact, in order', async () => {
			const result = await executeWorkflow(tools.userFolder, String(workflow.id), tools.version);
			await sandbox.settled();
			const error = result.data?.data?.resultData?.error ?? result.data?.resultData?.error;
			assert.ok(result.ok, `the run failed: ${error ? `${error.message} ${error.description ?? ''}` : result.stdout.slice(-1500)}`);
			output = nodeOutputs(result.data)[NODE] ?? [];
			requests = sandbox.requests;
			assert.equal(output.length, CONTACTS, `${output.length} output items`);
			assert.deepEqual(output.map((item) => item.pairedItem?.item ?? item.pairedItem?.[0]?.item), Array.from({ length: CONTACTS }, (_, i) => i));
		});

		await tools.check('(z) the numbers are checked in one request before the first send; the 5 without an account are skipped, never sent to', async () => {
			assert.equal(requests[0]?.path, '/chat/whatsappNumbers/demo');
			assert.deepEqual(requests[0].body.numbers, Array.from({ length: CONTACTS }, (_, i) => numberOf(i + 1)));
			assert.equal(requests.filter((r) => r.path.startsWith('/chat/whatsappNumbers')).length, 1);
			for (const contact of WITHOUT_ACCOUNT) {
				assert.equal(output[contact - 1].json.outcome, 'skipped', JSON.stringify(output[contact - 1].json));
				assert.equal(output[contact - 1].json.number, numberOf(contact));
			}
			const sentTo = new Set(requests.filter((r) => r.path === '/message/sendText/demo').map((r) => r.body.number));
			assert.ok(WITHOUT_ACCOUNT.every((contact) => !sentTo.has(numberOf(contact))), 'a number without an account was sent to');
		});

		await tools.check('(z) the rate-overlimit at the 12th contact is waited out and its message goes out; the logout at the 20th stops the run: 10 contacts not sent', async () => {
			const sends = requests.filter((r) => r.path === '/message/sendText/demo');
			const toContact12 = sends.filter((r) => r.body.number === numberOf(RATE_LIMITED_AT)).map((r) => r.status);
			assert.deepEqual(toContact12, [400, 201], `outcomes ${JSON.stringify(output.map((item) => [item.json.outcome, item.json.error ?? item.json.reason]))}; requests ${JSON.stringify(requests.map((r) => [r.path, r.status]))}`);
			assert.equal(output[RATE_LIMITED_AT - 1].json.outcome, 'sent');
			assert.equal(output[LOGGED_OUT_AT - 1].json.outcome, 'failed');
			assert.match(String(output[LOGGED_OUT_AT - 1].json.error), /Connection Closed/);
			const after = output.slice(LOGGED_OUT_AT);
			assert.equal(after.length, 10);
			assert.ok(after.every((item) => item.json.outcome === 'notSent' && /stopped/.test(item.json.reason)), JSON.stringify(after[0]?.json));
			const sent = output.filter((item) => item.json.outcome === 'sent');
			assert.equal(sent.length, CONTACTS - WITHOUT_ACCOUNT.length - 1 - 10);
			assert.ok(sent.every((item) => typeof item.json.messageId === 'string' && item.json.messageId !== ''), 'a sent item without its messageId');
			assert.equal(sends.length, sendsBefore(LOGGED_OUT_AT) + 2, `${sends.length} sends reached the server`);
		});

		await tools.check('(z) the sandbox saw every pause inside the 1–2 s window, and no contact got two messages', async () => {
			const sends = requests.filter((r) => r.path === '/message/sendText/demo');
			const gaps = sends.slice(1).map((r, i) => ({ gap: r.at - sends[i].at, afterRefusal: sends[i].status === 400 }));
			// After a rate limit the node waits the rate limit's wait (1 s, doubling, plus up to 1 s), not the pace.
			const paced = gaps.filter((g) => !g.afterRefusal).map((g) => g.gap);
			assert.ok(paced.every((gap) => gap >= PAUSE_MS.min - 5 && gap <= PAUSE_MS.max + 250), `pauses outside the window: ${JSON.stringify(paced)}`);
			console.log(`(z) ${paced.length} paced gaps between sends, ${Math.min(...paced)}–${Math.max(...paced)} ms (window ${PAUSE_MS.min}–${PAUSE_MS.max} ms)`);
			const delivered = (sandbox.chat as any[]).filter((line) => line.direction === 'out');
			const chats = delivered.map((line) => line.chat);
			assert.equal(new Set(chats).size, chats.length, `a contact got two messages: ${JSON.stringify(chats)}`);
			assert.equal(delivered.length, CONTACTS - WITHOUT_ACCOUNT.length - 1 - 10);
		});
	} finally {
		await sandbox.close();
	}
}

if (require.main === module) void runAlone('campaign', (tools, rest) => campaignChecks(tools, rest));
