/**
 * Part 7: what Collect Burst costs per incoming message, beside a bare Find Messages request
 * of the same chat page (the least any "is this the last message?" check can cost against
 * this server): requests per message and CPU per message of this process (the node through
 * n8n-core, or the bare fetch and JSON.parse; the sandbox answers in this process for both,
 * so both carry the same server-side share). Contacts each send a burst; every message gets
 * its own run, all runs at once (each waits its 2 s settling time, Quiet Seconds 0: waiting
 * costs no CPU).
 *
 *   tsx bench/collectBurst.ts   runs part 7 alone (BENCH_BURST_CONTACTS, default 40;
 *                               BENCH_BURST_MESSAGES per contact, default 4; BENCH_ROUNDS, 5)
 */
import type { Sandbox } from '../sandbox/server';
import { runNode } from './nodeRun';
import { envInt, fmt, fmtRatio, log, median, table } from './util';

const CONTACTS = envInt('BENCH_BURST_CONTACTS', 40);
const MESSAGES = envInt('BENCH_BURST_MESSAGES', 4);

interface Measure {
	cpuUsPerMessage: number;
	requestsPerMessage: number;
	/** items output per burst: must be exactly 1 for Collect Burst */
	outputsPerBurst: number;
}

function cpuUs(): number {
	const usage = process.cpuUsage();
	return usage.user + usage.system;
}

function contactOf(index: number): string {
	return `55119${String(index).padStart(8, '0')}`;
}

/** Every contact writes a burst of MESSAGES texts; returns the trigger items, one per message. */
async function bursts(sandbox: Sandbox, round: number): Promise<Array<{ chatId: string; messageId: string }>> {
	const items = [];
	for (let c = 0; c < CONTACTS; c++) {
		for (let m = 0; m < MESSAGES; m++) {
			const id = `B${round}C${c}M${m}`;
			await sandbox.injectMessage('demo', { from: contactOf(c), id, text: `message ${m}` });
			items.push({ chatId: `${contactOf(c)}@s.whatsapp.net`, messageId: id });
		}
	}
	return items;
}

async function collectRound(sandbox: Sandbox, round: number): Promise<Measure> {
	const items = await bursts(sandbox, round);
	sandbox.clearRequests();
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' };
	const started = cpuUs();
	const runs = await Promise.all(
		items.map(async (item) => await runNode({ resource: 'message', operation: 'collectBurst', instance: 'demo', ...item, quietSeconds: 0, maxWaitSeconds: 60 }, credentials)),
	);
	const cpu = cpuUs() - started;
	const failed = runs.find((run) => run.error);
	if (failed) throw new Error(`a Collect Burst run failed: ${failed.error?.message}`);
	const outputs = runs.reduce((sum, run) => sum + run.items.length, 0);
	return { cpuUsPerMessage: cpu / items.length, requestsPerMessage: sandbox.requests.length / items.length, outputsPerBurst: outputs / CONTACTS };
}

async function bareRound(sandbox: Sandbox, round: number): Promise<Measure> {
	const items = await bursts(sandbox, round);
	sandbox.clearRequests();
	const started = cpuUs();
	await Promise.all(
		items.map(async (item) => {
			const answer = await fetch(`${sandbox.url}/chat/findMessages/demo`, {
				method: 'POST',
				headers: { apikey: sandbox.apiKey, 'content-type': 'application/json' },
				body: JSON.stringify({ where: { key: { remoteJid: item.chatId, remoteJidAlt: item.chatId } }, page: 1, offset: 50 }),
			});
			JSON.parse(await answer.text());
		}),
	);
	const cpu = cpuUs() - started;
	return { cpuUsPerMessage: cpu / items.length, requestsPerMessage: sandbox.requests.length / items.length, outputsPerBurst: Number.NaN };
}

export async function collectBurstBench(rounds: number, out: string[]): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const collect: Measure[] = [];
	const bare: Measure[] = [];
	// A fresh sandbox per round keeps the chat log (which the sandbox scans per request) the same size for both.
	for (let round = 1; round <= rounds; round++) {
		for (const [name, measure, into] of [['bare', bareRound, bare], ['collect', collectRound, collect]] as const) {
			const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo' }] });
			try {
				into.push(await measure(sandbox, round));
			} finally {
				await sandbox.close();
			}
			log(`collect burst: round ${round} ${name} done`);
		}
	}
	const cpuCollect = median(collect.map((m) => m.cpuUsPerMessage));
	const cpuBare = median(bare.map((m) => m.cpuUsPerMessage));
	out.push(
		'## 7. Collect Burst: the check per incoming message',
		'',
		`${CONTACTS} contacts × ${MESSAGES} messages each (one burst per contact), one run per message, all at once; medians of ${rounds} rounds. ` +
			'CPU is this process\'s (the node through n8n-core, or the bare request; the in-process sandbox\'s answers are in both).',
		'',
		table(
			['per incoming message', 'requests', 'CPU µs', 'vs bare', 'outputs per burst'],
			[
				['Collect Burst (Quiet Seconds 0; each run waits 2 s)', fmt(median(collect.map((m) => m.requestsPerMessage)), 2), fmt(cpuCollect), fmtRatio(cpuCollect / cpuBare), fmt(median(collect.map((m) => m.outputsPerBurst)), 2)],
				['bare Find Messages (fetch + JSON.parse of the chat page)', fmt(median(bare.map((m) => m.requestsPerMessage)), 2), fmt(cpuBare), '1.00×', '—'],
			],
		),
	);
}

if (require.main === module) {
	const out: string[] = [];
	collectBurstBench(envInt('BENCH_ROUNDS', 5), out).then(
		() => {
			console.log(out.join('\n'));
			process.exit(0);
		},
		(e: Error) => {
			console.error(e.stack ?? e);
			process.exit(1);
		},
	);
}
