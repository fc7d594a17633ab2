/**
 * Part 4 (issue #13): media from n8n binary data, inside one real n8n (the pinned runtime),
 * against a v2 sandbox:
 *
 *   a. one 16 MB video sent from binary by Send Media, against a bare `fetch` of the same
 *      JSON body from this process (the limit); and the n8n process's RSS growth during the
 *      send, against the file's size;
 *   b. 1,000 images of 100 kB sent by Send Media, against n8n's HTTP Request node sending
 *      the same JSON bodies (the base64 taken from `$binary` in n8n's in-memory binary mode).
 *
 * Each contender is `Webhook → Code (makes the files as binary) → sender`; a control
 * workflow without a sender runs in the same round and is subtracted, as in part 1.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	PACKAGE_NAME,
	importCredential,
	importWorkflows,
	installTarballIntoUserFolder,
	setupOwnerAndLogin,
	startN8n,
	type WorkflowSpec,
} from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import { fmt, fmtRatio, log, mb, median, rssOf, rssSampler, sleep, table } from './util';

const VIDEO_BYTES = 16 * 1024 * 1024;
const IMAGE_BYTES = 100 * 1024;
const IMAGES = Number(process.env.BENCH_MEDIA_IMAGES || 1000);

type Contender = 'control' | 'action' | 'httpRequest';

/** Makes `n` files of `size` bytes as binary `data`; the query says which. */
const CODE = [
	'const q = $input.first().json.query;',
	'const n = Number(q.n), size = Number(q.size);',
	"const video = q.kind === 'video';",
	"const data = Buffer.alloc(size, 7).toString('base64');",
	'const out = new Array(n);',
	'for (let i = 0; i < n; i++) {',
	// The base64 also in the JSON (every contender gets the same items): what HTTP Request sends.
	"  out[i] = { json: { number: '5511' + String(900000000 + i), b64: q.json === '1' ? data : undefined }, binary: { data: { data, mimeType: video ? 'video/mp4' : 'image/png', fileName: video ? 'clip.mp4' : 'image.png' } } };",
	'}',
	'return out;',
].join('\n');

const SETTINGS = { executionOrder: 'v1', saveDataSuccessExecution: process.env.BENCH_SAVE === '1' ? 'all' : 'none', saveDataErrorExecution: 'all', saveManualExecutions: false };

function workflow(name: Contender, sender?: Record<string, unknown>): WorkflowSpec {
	const nodes: unknown[] = [
		{
			id: 'hook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: `bench-media-${name}`, responseMode: 'lastNode', responseData: 'noData', options: {} },
		},
		{ id: 'code', name: 'Code', type: 'n8n-nodes-base.code', typeVersion: 2, position: [250, 0], parameters: { jsCode: CODE } },
	];
	const connections: Record<string, unknown> = { Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } };
	if (sender) {
		nodes.push({ id: 'send', name: 'Send', position: [500, 0], ...sender });
		connections.Code = { main: [[{ node: 'Send', type: 'main', index: 0 }]] };
	}
	return { name: `bench media: ${name}`, nodes, connections, settings: SETTINGS };
}

function post(url: string, body = '{}', headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
			let text = '';
			res.on('data', (chunk) => (text += chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
		});
		req.setTimeout(15 * 60 * 1000, () => req.destroy(new Error(`timeout ${url}`)));
		req.on('error', reject);
		req.end(body);
	});
}

/** n8n stores run data "flatted": an array whose string values point at other entries. */
function unflatten(text: string): any {
	const table = JSON.parse(text) as unknown[];
	const seen = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (seen.has(index)) return seen.get(index);
		const value = table[index];
		if (value === null || typeof value !== 'object') return value;
		const copy: any = Array.isArray(value) ? [] : {};
		seen.set(index, copy);
		for (const [key, entry] of Object.entries(value)) copy[key] = typeof entry === 'string' && /^\d+$/.test(entry) ? revive(Number(entry)) : entry;
		return copy;
	};
	return revive(0);
}

/** With BENCH_SAVE=1: each node's own time in the last saved executions, from n8n's run data. */
async function logNodeTimes(rest: { call(method: string, p: string): Promise<any> }): Promise<void> {
	const list = await rest.call('GET', '/executions?limit=12');
	for (const summary of list?.results ?? list?.data?.results ?? []) {
		const execution = await rest.call('GET', `/executions/${summary.id}`);
		const runData = unflatten(execution.data ?? execution.data?.data).resultData?.runData ?? {};
		const times = Object.entries(runData).map(([node, runs]: [string, any]) => `${node} ${runs?.[0]?.executionTime} ms`);
		log(`execution ${summary.id} (${summary.workflowName}): ${times.join(', ')}`);
	}
}

export async function mediaBench(tarball: string, version: string, rounds: number, out: string[]): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const sandbox: Sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }] });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-media-'));
	await installTarballIntoUserFolder(tarball, userFolder);
	const ours = await importCredential(userFolder, { name: 'Sandbox v2 (bench)', type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } }, version);
	const header = await importCredential(userFolder, { name: 'apikey (bench)', type: 'httpHeaderAuth', data: { name: 'apikey', value: sandbox.apiKey } }, version);
	const wfs: Record<Contender, WorkflowSpec> = {
		control: workflow('control'),
		action: workflow('action', {
			type: `${PACKAGE_NAME}.messagingInstance`,
			typeVersion: 2,
			credentials: { messagingInstanceApi: { id: ours, name: 'Sandbox v2 (bench)' } },
			parameters: { resource: 'message', operation: 'sendMedia', instance: { __rl: true, mode: 'name', value: 'demo' }, number: '={{ $json.number }}' },
		}),
		httpRequest: workflow('httpRequest', {
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials: { httpHeaderAuth: { id: header, name: 'apikey (bench)' } },
			parameters: {
				method: 'POST',
				url: `${sandbox.url}/message/sendMedia/demo`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: {
					parameters: [
						{ name: 'number', value: '={{ $json.number }}' },
						{ name: 'mediatype', value: 'image' },
						{ name: 'mimetype', value: '={{ $binary.data.mimeType }}' },
						{ name: 'media', value: '={{ $json.b64 }}' },
						{ name: 'fileName', value: '={{ $binary.data.fileName }}' },
					],
				},
				options: {},
			},
		}),
	};
	const ids = await importWorkflows(userFolder, Object.values(wfs), version);
	const n8n = await startN8n({ version, userFolder, env: { N8N_PAYLOAD_SIZE_MAX: '64', ...(process.env.BENCH_MEDIA_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_MEDIA_PROFILE}` } : {}) } });
	const pid = (n8n as unknown as { pid: number }).pid;
	try {
		const rest = await setupOwnerAndLogin(n8n.url);
		for (const id of ids) await rest.activate(id);
		const hook = (c: Contender, n: number, size: number, kind: string) => `${n8n.url}/webhook/bench-media-${c}?n=${n}&size=${size}&kind=${kind}&json=${kind === 'image' ? 1 : 0}`;
		for (const c of Object.keys(wfs) as Contender[]) {
			const deadline = Date.now() + 60_000;
			for (;;) {
				const res = await post(hook(c, 1, 12, 'image'));
				if (res.status === 200) break;
				if (Date.now() > deadline) {
					const last = await rest.call('GET', '/executions?limit=1').catch(() => undefined);
					const id = last?.results?.[0]?.id ?? last?.data?.results?.[0]?.id;
					const failed = id ? await rest.call('GET', `/executions/${id}`).catch((e: Error) => e.message) : last;
					throw new Error(`bench-media-${c} answers ${res.status}: ${res.body.slice(0, 300)}; last execution: ${JSON.stringify(failed).slice(0, 1500)}`);
				}
				await sleep(500);
			}
		}
		const clear = () => {
			sandbox.clearRequests();
			sandbox.clearMedia();
			(sandbox.chat as unknown[]).length = 0;
		};
		const run = async (c: Contender, n: number, size: number, kind: string) => {
			clear();
			const before = rssOf(pid);
			const sampler = rssSampler(pid, 10);
			const t0 = process.hrtime.bigint();
			const res = await post(hook(c, n, size, kind));
			const ms = Number(process.hrtime.bigint() - t0) / 1e6;
			const growth = sampler.stop() - before;
			const ok = sandbox.requests.filter((r) => r.status >= 200 && r.status < 300).length;
			if (res.status !== 200 || (c !== 'control' && ok !== n)) throw new Error(`${c}: ${res.status}, ${ok}/${n} sends ok ${res.body.slice(0, 300)}`);
			clear();
			return { ms, growth };
		};
		// The same JSON body Send Media sends, by a bare fetch from here: the limit.
		const videoBody = JSON.stringify({ number: '5511900000000', mediatype: 'video', mimetype: 'video/mp4', media: Buffer.alloc(VIDEO_BYTES, 7).toString('base64'), fileName: 'clip.mp4' });
		const bare = async () => {
			clear();
			const t0 = process.hrtime.bigint();
			const res = await fetch(`${sandbox.url}/message/sendMedia/demo`, { method: 'POST', headers: { 'content-type': 'application/json', apikey: sandbox.apiKey }, body: videoBody });
			await res.text();
			if (res.status >= 300) throw new Error(`bare fetch: ${res.status}`);
			clear();
			return Number(process.hrtime.bigint() - t0) / 1e6;
		};

		log('media: warm-up');
		await run('action', 1, VIDEO_BYTES, 'video');
		await run('action', 20, IMAGE_BYTES, 'image');
		await run('httpRequest', 20, IMAGE_BYTES, 'image');
		await bare();

		const video = { control: [] as number[], action: [] as number[], bare: [] as number[], growth: [] as number[], controlGrowth: [] as number[] };
		const images = { control: [] as number[], action: [] as number[], httpRequest: [] as number[] };
		for (let round = 0; round < rounds; round++) {
			const vc = await run('control', 1, VIDEO_BYTES, 'video');
			const va = await run('action', 1, VIDEO_BYTES, 'video');
			video.control.push(vc.ms);
			video.action.push(va.ms);
			video.controlGrowth.push(vc.growth);
			video.growth.push(va.growth);
			video.bare.push(await bare());
			for (const c of ['control', 'action', 'httpRequest'] as Contender[]) images[c].push((await run(c, IMAGES, IMAGE_BYTES, 'image')).ms);
			log(`media round ${round + 1}/${rounds}: video ${fmt(va.ms - vc.ms)} ms vs bare ${fmt(video.bare.at(-1)!)} ms; images ours ${fmt(images.action.at(-1)! - images.control.at(-1)!)} ms, HTTP Request ${fmt(images.httpRequest.at(-1)! - images.control.at(-1)!)} ms`);
		}
		// Medians of per-round figures: a round's contenders ran back to back on the same machine state.
		if (process.env.BENCH_SAVE === '1') await logNodeTimes(rest);
		const videoCost = median(video.action.map((ms, i) => ms - video.control[i]));
		const bareCost = median(video.bare);
		const videoRatio = median(video.action.map((ms, i) => (ms - video.control[i]) / video.bare[i]));
		const imageRatio = median(images.action.map((ms, i) => (ms - images.control[i]) / (images.httpRequest[i] - images.control[i])));
		// The whole run's growth, the Code node's copy of the file included: an upper bound.
		const growth = median(video.growth);
		const oursPer = median(images.action.map((ms, i) => (ms - images.control[i]) / IMAGES));
		const httpPer = median(images.httpRequest.map((ms, i) => (ms - images.control[i]) / IMAGES));
		out.push('## 4. Media from binary data', '');
		out.push(
			table(
				['case', 'ours', 'reference', 'ratio', 'target'],
				[
					[`one ${mb(VIDEO_BYTES, 0)} video, Send Media from binary vs a bare fetch of the same JSON body`, `${fmt(videoCost)} ms`, `${fmt(bareCost)} ms`, fmtRatio(videoRatio), '≤ 1.5×'],
					[`n8n's RSS growth during that run (making the file included)`, mb(growth), `file ${mb(VIDEO_BYTES, 0)}`, fmtRatio(growth / VIDEO_BYTES), '< 4×'],
					[`${fmt(IMAGES)} images of ${mb(IMAGE_BYTES, 1)}, per message, vs HTTP Request with the same bodies`, `${fmt(oursPer * 1000)} µs`, `${fmt(httpPer * 1000)} µs`, fmtRatio(imageRatio), '≤ 0.6×'],
				],
			),
		);
		out.push('', `Medians of ${rounds} rounds (ratios: medians of per-round ratios); control workflow (Webhook + Code making the files) subtracted; n8n's default binary-data mode.`);
	} finally {
		await n8n.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}
