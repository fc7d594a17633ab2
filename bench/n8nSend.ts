/**
 * Part 1: sending N messages from a real n8n (the pinned runtime of the e2e tier).
 *
 * How a run is timed — one long-running `n8n start`, not `n8n execute`:
 * each contender is a workflow `Webhook → Code (emits N items) → sender`, activated once.
 * A run is one POST to its production webhook with `?n=N`; the Webhook node answers when
 * the last node has finished (responseMode "lastNode"), so the client-side wall time covers
 * the whole execution and nothing else. A CLI `n8n execute` per run would add 3–6 s of
 * start-up and, worse, run every execution on a cold JIT and count start-up CPU; inside one
 * warm process the per-message figures are what a production n8n pays.
 * The control workflow (same Webhook and Code node, no sender) runs in the same round; its
 * time and CPU are subtracted, which removes the webhook round trip, the Code node (task
 * runner) and n8n's per-execution bookkeeping, leaving the sender's cost for N messages.
 *
 * CPU: utime+stime of every process in n8n's process group (n8n + its task runner) from
 * /proc/<pid>/stat before and after the run, minus the control's. Memory: n8n's main process
 * RSS sampled every 20 ms during the run; growth = peak − RSS just before the run. RSS keeps
 * whatever heap an earlier run grew (V8 seldom gives it back), so a run after a big one shows
 * little RSS growth: the fairer figure is the V8 heap in use (n8n's Prometheus /metrics,
 * N8N_METRICS=true, `nodejs_heap_size_used_bytes`), polled every 100 ms: peak − before.
 *
 * The workflows do not save successful executions (saveDataSuccessExecution "none"): the
 * saved run data would be the same items for every sender, and writing 10,000 items to
 * SQLite after each run would only add noise. Failed executions are saved.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	DEFAULT_N8N_VERSION,
	PACKAGE_NAME,
	installTarballIntoUserFolder,
	n8nCli,
	randomId,
	request,
	setupOwnerAndLogin,
	startN8n,
	type N8nHandle,
	type RestClient,
	type WorkflowSpec,
} from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import { groupCpuMs, httpRequestNode, log, rssOf, rssSampler, sleep } from './util';

export type N8nContender = 'control' | 'action' | 'httpRequest';

export interface RunMeasure {
	wallMs: number;
	cpuMs: number;
	rssBefore: number;
	rssPeak: number;
	/** interface requests the sandbox recorded, and how many of them succeeded */
	requests: number;
	okRequests: number;
	/** V8 heap used (n8n main process, from its /metrics) just before and at its peak during the run */
	heapBefore?: number;
	heapPeak?: number;
}

const INSTANCE = 'demo';
const SEND_PATH = `/message/sendText/${INSTANCE}`;

/** Emits N items; N comes from the webhook's query string. Same code in every workflow. */
const CODE = [
	'const n = Number($input.first().json.query.n);',
	'const out = new Array(n);',
	'for (let i = 0; i < n; i++) {',
	"  out[i] = { json: { number: '5511' + String(900000000 + i), text: 'Benchmark message ' + i } };",
	'}',
	'return out;',
].join('\n');

function baseNodes(name: string): unknown[] {
	return [
		{
			id: 'hook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUIDish(),
			parameters: { httpMethod: 'POST', path: `bench-${name}`, responseMode: 'lastNode', responseData: 'noData', options: {} },
		},
		{
			id: 'code',
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [250, 0],
			parameters: { jsCode: CODE },
		},
	];
}

function randomUUIDish(): string {
	const hex = Buffer.from(randomId() + randomId()).toString('hex').slice(0, 32);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'all',
	saveManualExecutions: false,
	saveExecutionProgress: false,
};

function workflow(name: N8nContender, sender?: Record<string, unknown>): WorkflowSpec {
	const nodes = baseNodes(name);
	const connections: Record<string, unknown> = { Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } };
	if (sender) {
		nodes.push({ id: 'send', name: 'Send', position: [500, 0], ...sender });
		connections.Code = { main: [[{ node: 'Send', type: 'main', index: 0 }]] };
	}
	return { id: randomId(), name: `bench: ${name}`, nodes, connections, settings: SETTINGS };
}

/** The three workflows: control, our action node, n8n's HTTP Request node. */
export function benchWorkflows(sandboxUrl: string, credIds: { ours: string; header: string }): Record<N8nContender, WorkflowSpec> {
	return {
		control: workflow('control'),
		// Send Text with `number` and `text` as expressions, as a user maps them from the items.
		action: workflow('action', {
			type: `${PACKAGE_NAME}.messagingInstance`,
			typeVersion: 1,
			credentials: { messagingInstanceApi: { id: credIds.ours, name: 'Sandbox (bench)' } },
			parameters: {
				resource: 'message',
				operation: 'sendText',
				instance: INSTANCE,
				number: '={{ $json.number }}',
				text: '={{ $json.text }}',
				options: {},
			},
		}),
		// The same POST as a user builds it by hand: JSON body from fields, the key in a
		// Header Auth credential (name `apikey`).
		httpRequest: workflow(
			'httpRequest',
			httpRequestNode(`${sandboxUrl}${SEND_PATH}`, { id: credIds.header, name: 'Sandbox apikey (bench)' }, [
				['number', '={{ $json.number }}'],
				['text', '={{ $json.text }}'],
			]),
		),
	};
}

export interface N8nBench {
	n8n: N8nHandle;
	pid: number;
	rest: RestClient;
	/**
	 * One run. With `heap`, n8n's V8 heap is polled from its /metrics during the run: each
	 * poll costs n8n's main thread 10–20 ms, so timed rounds leave it off and the heap is
	 * measured in runs of its own.
	 */
	run(contender: N8nContender, n: number, options?: { heap?: boolean }): Promise<RunMeasure>;
	stop(): Promise<void>;
}

function writeTemp(name: string, content: unknown): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-import-'));
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(content, null, 2));
	return file;
}

async function cliImport(folder: string, kind: 'credentials' | 'workflow', items: unknown[], version: string): Promise<void> {
	const file = writeTemp(`${kind}.json`, items);
	try {
		const res = await n8nCli(folder, [`import:${kind}`, `--input=${file}`], { version });
		if (res.code !== 0) throw new Error(`import:${kind} failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
	} finally {
		fs.rmSync(path.dirname(file), { recursive: true, force: true });
	}
}

/** POST to a production webhook; resolves when n8n answers (after the last node). */
function callWebhook(url: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 2 } }, (res) => {
			let body = '';
			res.on('data', (c) => (body += c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
		});
		req.setTimeout(15 * 60 * 1000, () => req.destroy(new Error(`timeout ${url}`)));
		req.on('error', reject);
		req.end('{}');
	});
}

export async function startN8nBench(opts: {
	tarball: string;
	sandbox: Sandbox;
	version?: string;
	echo?: boolean;
	/** extra environment for `n8n start` (e.g. NODE_OPTIONS for a CPU profile) */
	env?: NodeJS.ProcessEnv;
}): Promise<N8nBench & { userFolder: string }> {
	const version = opts.version ?? DEFAULT_N8N_VERSION;
	const { sandbox } = opts;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
	log(`installing the package into ${userFolder}`);
	await installTarballIntoUserFolder(opts.tarball, userFolder);

	const credIds = { ours: randomId(), header: randomId() };
	const now = new Date().toISOString();
	await cliImport(
		userFolder,
		'credentials',
		[
			{
				id: credIds.ours,
				name: 'Sandbox (bench)',
				type: 'messagingInstanceApi',
				data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'documented' },
				createdAt: now,
				updatedAt: now,
			},
			{
				id: credIds.header,
				name: 'Sandbox apikey (bench)',
				type: 'httpHeaderAuth',
				data: { name: 'apikey', value: sandbox.apiKey },
				createdAt: now,
				updatedAt: now,
			},
		],
		version,
	);
	const wfs = benchWorkflows(sandbox.url, credIds);
	await cliImport(
		userFolder,
		'workflow',
		Object.values(wfs).map((wf) => ({ pinData: {}, active: false, ...wf })),
		version,
	);

	log('starting n8n');
	const n8n = await startN8n({ version, userFolder, echo: opts.echo, env: { N8N_METRICS: 'true', ...opts.env } });
	const pid = (n8n as unknown as { pid: number }).pid;
	log(`n8n ${version} ready in ${(n8n.startupMs / 1000).toFixed(1)} s (pid ${pid})`);
	const rest = await setupOwnerAndLogin(n8n.url);
	for (const wf of Object.values(wfs)) await rest.activate(wf.id!);

	const hookUrl = (c: N8nContender, n: number) => `${n8n.url}/webhook/bench-${c}?n=${n}`;
	// Production webhooks answer a few seconds after activation.
	for (const c of Object.keys(wfs) as N8nContender[]) {
		const deadline = Date.now() + 60000;
		for (;;) {
			const res = await callWebhook(hookUrl(c, 1));
			if (res.status === 200) break;
			if (Date.now() > deadline) throw new Error(`webhook bench-${c} answers ${res.status}: ${res.body.slice(0, 500)}`);
			await sleep(500);
		}
	}

	const clearSandbox = () => {
		sandbox.clearRequests();
		(sandbox.chat as unknown[]).length = 0; // every send adds a chat-log line
	};

	const heapUsed = async (): Promise<number> => {
		const res = await request('GET', `${n8n.url}/metrics`);
		const m = /nodejs_heap_size_used_bytes(?:\{[^}]*\})?\s+([0-9.e+]+)/.exec(res.body);
		return m ? Number(m[1]) : NaN;
	};
	// A poll can fail while n8n is saturated (HTTP Request opens a socket per item at once):
	// failed polls are skipped, and one more sample right after the run closes the window.
	const heapSampler = () => {
		let stopped = false;
		let peak = NaN;
		const sample = async () => {
			const h = await heapUsed().catch(() => NaN);
			if (!Number.isNaN(h)) peak = Number.isNaN(peak) ? h : Math.max(peak, h);
		};
		const loop = (async () => {
			while (!stopped) {
				await sample();
				await sleep(100);
			}
		})();
		return {
			async stop(): Promise<number> {
				stopped = true;
				await loop;
				await sample();
				return peak;
			},
		};
	};
	if (Number.isNaN(await heapUsed())) log('n8n /metrics has no nodejs_heap_size_used_bytes: heap figures will be n/a');

	return {
		n8n,
		pid,
		rest,
		userFolder,
		async run(contender, n, options = {}) {
			clearSandbox();
			const heapBefore = options.heap ? await heapUsed().catch(() => NaN) : undefined;
			const heap = options.heap ? heapSampler() : undefined;
			const rssBefore = rssOf(pid);
			const sampler = rssSampler(pid, 20);
			const cpu0 = groupCpuMs(pid);
			const t0 = process.hrtime.bigint();
			const res = await callWebhook(hookUrl(contender, n));
			const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
			const cpuMs = groupCpuMs(pid) - cpu0;
			const rssPeak = sampler.stop();
			const heapPeak = heap ? await heap.stop() : undefined;
			if (res.status !== 200) {
				throw new Error(`${contender} n=${n}: webhook answered ${res.status} ${res.body.slice(0, 1000)}`);
			}
			const reqs = sandbox.requests;
			const okRequests = reqs.filter((r) => r.path === SEND_PATH && r.status >= 200 && r.status < 300).length;
			const measure = { wallMs, cpuMs, rssBefore, rssPeak, heapBefore, heapPeak, requests: reqs.length, okRequests };
			clearSandbox();
			return measure;
		},
		async stop() {
			await n8n.stop();
		},
	};
}
