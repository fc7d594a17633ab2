/**
 * Part 4: media from n8n binary data, inside one real n8n (the pinned runtime),
 * against a v2 sandbox:
 *
 *   a. one 16 MB video sent from binary by Send Media, against a bare `fetch` of the same
 *      JSON body from this process (the limit): the file made by a Code node (n8n keeps it in
 *      memory), and the same file read from disk by Read/Write Files (n8n keeps it in its
 *      default filesystem mode); several videos per run (VIDEOS); a floor (n8n's HTTP helper
 *      alone, bench/helperFloor.ts); and the n8n process's RSS growth sending one video,
 *      against the file's size;
 *   b. 1,000 images of 100 kB sent by Send Media, against n8n's HTTP Request node sending
 *      the same JSON bodies (the base64 taken from `$binary` in n8n's in-memory binary mode).
 *
 * Each contender is `Webhook → Code (makes the files as binary) → sender` (or Read/Write
 * Files for the video from disk); a control workflow without a sender runs in the same round,
 * right before or after it, and is subtracted, as in part 1.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	PACKAGE_NAME,
	ensureN8n,
	majorOf,
	importCredential,
	importWorkflows,
	installTarballIntoUserFolder,
	setupOwnerAndLogin,
	startN8n,
	type WorkflowSpec,
} from '../scripts/n8n-runtime';
import type { Sandbox } from '../sandbox/server';
import { fmt, fmtRatio, forkTs, httpRequestNode, log, mb, median, once, rssOf, rssSampler, sleep, table, videoBody } from './util';

const VIDEO_BYTES = 16 * 1024 * 1024;
const IMAGE_BYTES = 100 * 1024;
const IMAGES = Number(process.env.BENCH_MEDIA_IMAGES || 1000);
/**
 * A pause before every timed run, so that garbage collection left over from the run before
 * (n8n's incremental marking finishes in tasks after a run) is not billed to the next one.
 */
const SETTLE_MS = Number(process.env.BENCH_MEDIA_SETTLE_MS ?? 400);
/** Video samples per round: a video pass is short and noisy, images are long. */
const VIDEO_REPEATS = Number(process.env.BENCH_MEDIA_VIDEO_REPEATS || 2);
/**
 * Videos sent per run (one execution, one after another; the bare fetch and the floor send as
 * many). One 16 MB send leaves ~40 MB of dead buffers in n8n that only a full garbage
 * collection of n8n's ~200 MB heap reclaims (50–250 ms here), started whenever buffers pile up
 * past V8's external-memory limit — by this run or the next, sender or control alike. Several
 * sends per run bill each its share instead of all or nothing.
 */
const VIDEOS = Number(process.env.BENCH_MEDIA_VIDEOS || 4);

type Contender = 'control' | 'action' | 'httpRequest' | 'diskControl' | 'diskAction';

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

/**
 * `Webhook → source → sender`. The source is the Code node above (binary kept in memory), or
 * with `readFile` n8n's Read/Write Files node reading that file from disk (binary kept in n8n's
 * default filesystem mode, as a downloaded or uploaded file is).
 */
function workflow(name: Contender, sender?: Record<string, unknown>, readFile?: string): WorkflowSpec {
	const source = readFile
		? { id: 'read', name: 'Read', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1.1, position: [250, 0], parameters: { operation: 'read', fileSelector: readFile, options: {} } }
		: { id: 'code', name: 'Code', type: 'n8n-nodes-base.code', typeVersion: 2, position: [250, 0], parameters: { jsCode: CODE } };
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
		source,
	];
	const connections: Record<string, unknown> = { Webhook: { main: [[{ node: source.name, type: 'main', index: 0 }]] } };
	if (sender) {
		nodes.push({ id: 'send', name: 'Send', position: [500, 0], ...sender });
		connections[source.name] = { main: [[{ node: 'Send', type: 'main', index: 0 }]] };
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
	// The videos on disk, for the Read/Write Files source: the bytes and name the Code node makes.
	const files = path.join(userFolder, 'files');
	for (let i = 0; i < VIDEOS; i++) {
		fs.mkdirSync(path.join(files, String(i)), { recursive: true });
		fs.writeFileSync(path.join(files, String(i), 'clip.mp4'), Buffer.alloc(VIDEO_BYTES, 7));
	}
	// as many files as the run asks for (?n=): one, or all of them
	const videoFile = `={{ $json.query.n === '1' ? ${JSON.stringify(path.join(files, '0', 'clip.mp4'))} : ${JSON.stringify(path.join(files, '*', 'clip.mp4'))} }}`;
	const sendMedia = (number: string) => ({
		type: `${PACKAGE_NAME}.messagingInstance`,
		typeVersion: 2,
		credentials: { messagingInstanceApi: { id: ours, name: 'Sandbox v2 (bench)' } },
		parameters: { resource: 'message', operation: 'sendMedia', instance: { __rl: true, mode: 'name', value: 'demo' }, number },
	});
	const wfs: Record<Contender, WorkflowSpec> = {
		control: workflow('control'),
		action: workflow('action', sendMedia('={{ $json.number }}')),
		diskControl: workflow('diskControl', undefined, videoFile),
		diskAction: workflow('diskAction', sendMedia('5511900000000'), videoFile),
		httpRequest: workflow(
			'httpRequest',
			httpRequestNode(`${sandbox.url}/message/sendMedia/demo`, { id: header, name: 'apikey (bench)' }, [
				['number', '={{ $json.number }}'],
				['mediatype', 'image'],
				['mimetype', '={{ $binary.data.mimeType }}'],
				['media', '={{ $json.b64 }}'],
				['fileName', '={{ $binary.data.fileName }}'],
			]),
		),
	};
	const ids = await importWorkflows(userFolder, Object.values(wfs), version);
	const nodeOptions = [process.env.BENCH_MEDIA_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_MEDIA_PROFILE}` : '', process.env.BENCH_MEDIA_NODE_OPTIONS ?? ''].join(' ').trim();
	const n8n = await startN8n({ version, userFolder, echo: process.env.BENCH_VERBOSE === '1', env: { N8N_PAYLOAD_SIZE_MAX: '64', N8N_RESTRICT_FILE_ACCESS_TO: files, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) } });
	const pid = (n8n as unknown as { pid: number }).pid;
	let floorChild: ChildProcess | undefined;
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
		// With BENCH_MEDIA_PROFILE: each timed run's window on the monotonic clock (µs, the clock
		// of V8's profile timestamps), so a profile can be read run by run.
		const windows: Array<{ label: string; start: number; end: number }> = [];
		const run = async (c: Contender, n: number, size: number, kind: string) => {
			clear();
			await sleep(SETTLE_MS);
			const before = rssOf(pid);
			const sampler = rssSampler(pid, 10);
			if (process.env.BENCH_VERBOSE === '1') log(`run ${c} ${kind} starts`);
			const t0 = process.hrtime.bigint();
			const res = await post(hook(c, n, size, kind));
			const t1 = process.hrtime.bigint();
			if (process.env.BENCH_VERBOSE === '1') log(`run ${c} ${kind} ends`);
			const ms = Number(t1 - t0) / 1e6;
			windows.push({ label: `${c} ${kind}`, start: Number(t0 / 1000n), end: Number(t1 / 1000n) });
			const growth = sampler.stop() - before;
			const ok = sandbox.requests.filter((r) => r.status >= 200 && r.status < 300).length;
			if (res.status !== 200 || (!c.endsWith('ontrol') && ok !== n)) throw new Error(`${c}: ${res.status}, ${ok}/${n} sends ok ${res.body.slice(0, 300)}`);
			clear();
			return { ms, growth };
		};
		// The same JSON body Send Media sends, by a bare fetch from here: the limit.
		const body = videoBody(VIDEO_BYTES);
		const sendUrl = `${sandbox.url}/message/sendMedia/demo`;
		const bare = async () => {
			clear();
			await sleep(SETTLE_MS);
			const t0 = process.hrtime.bigint();
			for (let i = 0; i < VIDEOS; i++) {
				const res = await fetch(sendUrl, { method: 'POST', headers: { 'content-type': 'application/json', apikey: sandbox.apiKey }, body });
				await res.text();
				if (res.status >= 300) throw new Error(`bare fetch: ${res.status}`);
			}
			clear();
			return Number(process.hrtime.bigint() - t0) / 1e6;
		};
		// n8n's HTTP helper alone with that body (bench/helperFloor.ts), and a bare fetch from that
		// process: not available for n8n 1.x (the helper has another home there).
		const floor = async (kind: 'helper' | 'fetch'): Promise<number> => {
			if (!floorChild) return NaN;
			clear();
			await sleep(SETTLE_MS);
			floorChild.send({ kind, url: sendUrl, apiKey: sandbox.apiKey, bytes: VIDEO_BYTES, times: VIDEOS });
			const reply = await once<{ ms?: number; error?: string }>(floorChild);
			clear();
			if (reply.error !== undefined) throw new Error(`helper floor (${kind}): ${reply.error}`);
			return reply.ms ?? NaN;
		};
		if (majorOf(version) >= 2) {
			const rt = await ensureN8n(version);
			floorChild = forkTs(rt, 'bench/helperFloor.ts', { BENCH_N8N_MODULES: path.join(rt.dir, 'node_modules') });
			await once(floorChild);
		}

		log('media: warm-up');
		await run('action', VIDEOS, VIDEO_BYTES, 'video');
		await run('diskAction', VIDEOS, VIDEO_BYTES, 'video');
		await run('action', 20, IMAGE_BYTES, 'image');
		await run('httpRequest', 20, IMAGE_BYTES, 'image');
		await bare();
		await floor('helper');
		await floor('fetch');

		/** Per video sample: each figure of one pass, all measured back to back. */
		const video: Array<{ control: number; action: number; diskControl: number; diskAction: number; bare: number; helper: number; fetch: number }> = [];
		/** Per round, one send of one video: n8n's peak RSS growth during the run. */
		const memory: Array<{ code: number; disk: number }> = [];
		const images = { control: [] as number[], action: [] as number[], httpRequest: [] as number[] };
		/** A control and its sender back to back, in alternating order sample by sample. */
		const pair = async (k: number, control: Contender, action: Contender) => {
			const first = k % 2 === 0 ? control : action;
			const a = await run(first, VIDEOS, VIDEO_BYTES, 'video');
			const b = await run(first === control ? action : control, VIDEOS, VIDEO_BYTES, 'video');
			return first === control ? { c: a, a: b } : { c: b, a };
		};
		for (let round = 0; round < rounds; round++) {
			for (let repeat = 0; repeat < VIDEO_REPEATS; repeat++) {
				const k = round * VIDEO_REPEATS + repeat;
				const code = await pair(k, 'control', 'action');
				const bareMs = await bare();
				const disk = await pair(k, 'diskControl', 'diskAction');
				const helper = await floor('helper');
				const fetchMs = await floor('fetch');
				video.push({
					control: code.c.ms,
					action: code.a.ms,
					diskControl: disk.c.ms,
					diskAction: disk.a.ms,
					bare: bareMs,
					helper,
					fetch: fetchMs,
				});
				const v = video.at(-1)!;
				log(
					`media round ${round + 1}/${rounds}: video ${fmt(v.action - v.control)} ms (${fmt(v.action)} − control ${fmt(v.control)}), from disk ${fmt(v.diskAction - v.diskControl)} ms ` +
						`(${fmt(v.diskAction)} − ${fmt(v.diskControl)}), bare fetch ${fmt(v.bare)} ms, n8n's helper alone ${fmt(v.helper)} ms, fetch from Node 24 ${fmt(v.fetch)} ms`,
				);
			}
			// One video per run. From disk: the whole run's growth, reading the file included (an upper
			// bound). From a Code node, making the file takes ~4× the file of its own (n8n receives the
			// base64 from its task runner as JSON), and how much of that a run shows depends on whether
			// n8n collected the run before: the sender's growth minus its control's, in the order
			// control, sender, sender, control.
			const one = async (c: Contender) => (await run(c, 1, VIDEO_BYTES, 'video')).growth;
			const c1 = await one('control');
			const a1 = await one('action');
			const a2 = await one('action');
			const c2 = await one('control');
			memory.push({ code: (a1 + a2 - c1 - c2) / 2, disk: await one('diskAction') });
			for (const c of ['control', 'action', 'httpRequest'] as const) images[c].push((await run(c, IMAGES, IMAGE_BYTES, 'image')).ms);
			log(`media round ${round + 1}/${rounds}: images ours ${fmt(images.action.at(-1)! - images.control.at(-1)!)} ms, HTTP Request ${fmt(images.httpRequest.at(-1)! - images.control.at(-1)!)} ms`);
		}
		if (process.env.BENCH_MEDIA_PROFILE) {
			fs.mkdirSync(process.env.BENCH_MEDIA_PROFILE, { recursive: true });
			fs.writeFileSync(path.join(process.env.BENCH_MEDIA_PROFILE, 'windows.json'), JSON.stringify(windows));
		}
		if (process.env.BENCH_SAVE === '1') await logNodeTimes(rest);
		// Medians of per-sample figures: a sample's contenders ran back to back on the same machine state.
		const of = (f: (v: (typeof video)[number]) => number) => median(video.map(f));
		const code = (v: (typeof video)[number]) => v.action - v.control;
		const disk = (v: (typeof video)[number]) => v.diskAction - v.diskControl;
		const imageRatio = median(images.action.map((ms, i) => (ms - images.control[i]) / (images.httpRequest[i] - images.control[i])));
		const oursPer = median(images.action.map((ms, i) => (ms - images.control[i]) / IMAGES));
		const httpPer = median(images.httpRequest.map((ms, i) => (ms - images.control[i]) / IMAGES));
		const video16 = mb(VIDEO_BYTES, 0);
		const perVideo = (ms: number) => `${fmt(ms / VIDEOS)} ms`;
		out.push('## 4. Media from binary data', '');
		out.push(
			table(
				['case', 'ours', 'reference', 'ratio', 'target'],
				[
					[`one ${video16} video, Send Media from binary (made by a Code node: n8n keeps it in memory) vs a bare fetch of the same JSON body`, perVideo(of(code)), perVideo(of((v) => v.bare)), fmtRatio(of((v) => code(v) / v.bare)), '≤ 1.5×'],
					[`the same video read from disk by Read/Write Files (n8n's default filesystem mode) vs the same bare fetch`, perVideo(of(disk)), perVideo(of((v) => v.bare)), fmtRatio(of((v) => disk(v) / v.bare)), '≤ 1.5×'],
					[`floor: n8n's HTTP helper alone sending that body as a Buffer (no node, no workflow) vs the same bare fetch`, perVideo(of((v) => v.helper)), perVideo(of((v) => v.bare)), fmtRatio(of((v) => v.helper / v.bare)), ''],
					[`for scale: a bare fetch of that body from a Node 24 process of its own (as n8n is) vs the bare fetch`, perVideo(of((v) => v.fetch)), perVideo(of((v) => v.bare)), fmtRatio(of((v) => v.fetch / v.bare)), ''],
					[`n8n's peak RSS growth sending one video from a Code node (the sender's run minus its control's)`, mb(median(memory.map((m) => m.code))), `file ${video16}`, fmtRatio(median(memory.map((m) => m.code)) / VIDEO_BYTES), '< 4×'],
					[`the same from disk (reading the file included)`, mb(median(memory.map((m) => m.disk))), `file ${video16}`, fmtRatio(median(memory.map((m) => m.disk)) / VIDEO_BYTES), '< 4×'],
					[`${fmt(IMAGES)} images of ${mb(IMAGE_BYTES, 1)}, per message, vs HTTP Request with the same bodies`, `${fmt(oursPer * 1000)} µs`, `${fmt(httpPer * 1000)} µs`, fmtRatio(imageRatio), '≤ 0.6×'],
				],
			),
		);
		out.push(
			'',
			`Video: ${VIDEOS} videos per run (one execution; as many bare fetches and helper sends in a row), times per video; medians of ${video.length} samples (${rounds} rounds × ${VIDEO_REPEATS}), ` +
				'ratios medians of per-sample ratios; each sample ran the control and the sender back to back ' +
				'(in alternating order), the bare fetch and the floor right after. The control workflow (Webhook + the node that makes or reads the file) is subtracted. ' +
				`Memory: one video per run, medians of ${rounds} rounds; RSS keeps what an earlier run grew, so this is the growth beyond that. ` +
				`Images: medians of ${rounds} rounds, the control subtracted. The sandbox and the bare fetch share this process; n8n and the floor run in processes of their own.`,
		);
	} finally {
		floorChild?.kill();
		await n8n.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}
