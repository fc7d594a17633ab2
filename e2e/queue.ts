/**
 * Queue-mode tier: the package, packed and installed from its tarball, inside the pinned n8n
 * (2.40.7) run the way users scale it out — Postgres, Redis, one main process, two webhook
 * processes behind a load balancer and two workers — against the v2 sandbox.
 *
 *   npm run test:queue            (tsx e2e/queue.ts)
 *
 * Postgres and Redis are Debian's packages (`.ci/services.sh` installs them; the tier runs it
 * when they are missing), started by scripts/services.ts on free loopback ports in a
 * temporary folder and stopped by PID. The balancer (e2e/balancer.ts) is the webhook URL n8n
 * registers; it forwards each delivery to webhook process A or B (alternating, one of them,
 * or both at once). The cross-process duplicate pattern proven here — Redis Increment on the
 * trigger's `dedupeKey`, then If count = 1 — is the one the README's "Running in queue mode"
 * describes.
 *
 * Env: QUEUE_BURST (messages in the burst, default 300), QUEUE_VERBOSE=1 echoes n8n's output,
 * QUEUE_KEEP=1 keeps the user folders, QUEUE_PROFILE=<dir> writes a CPU profile of every n8n
 * process there (<dir>/<command>/*.cpuprofile, written when it stops), E2E_TARBALL=<file> tests that tarball. CI=true turns a
 * missing n8n, Postgres or Redis into a failure instead of a skip.
 * Prints PASS/FAIL lines and ends with `queue: N passed, N failed`; exit 1 on a failure.
 */
import * as assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	DEFAULT_N8N_VERSION,
	ensureN8n,
	freePort,
	installTarballIntoUserFolder,
	packRepo,
	request,
	setupOwnerAndLogin,
	startN8n,
	type N8nCommand,
	type N8nHandle,
	type RestClient,
	type WorkflowSpec,
} from '../scripts/n8n-runtime';
import { ensureServiceBinaries, redisCommands, startServices, type Services } from '../scripts/services';
import { ACTION_TYPE, TRIGGER_TYPE } from '../scripts/demo-workflow';
import { startBalancer, type Balancer } from './balancer';
import type { RecordedDelivery, RecordedRequest, Sandbox } from '../sandbox/server';
import { Report, sleep, waitFor } from './report';

const VERSION = DEFAULT_N8N_VERSION;
const BURST = Math.max(1, Number(process.env.QUEUE_BURST ?? 300));
const VERBOSE = process.env.QUEUE_VERBOSE === '1';
const CI = process.env.CI === 'true';
/** Redis database for the dedupe counters (n8n's queue uses database 0). */
const DEDUPE_DB = 1;
const DEDUPE_TTL = 86400;
const REPLY = 'You said: ';

// ---------------------------------------------------------------------------------------
// reporting

const report = new Report('queue');
const record = report.record.bind(report);
const check = report.check.bind(report);
const skip = report.skip.bind(report);

function figure(line: string): void {
	console.log(`     ${line}`);
}

const summary = (): never => report.summary();

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

// ---------------------------------------------------------------------------------------
// workflows

const picked = (value: string) => ({ __rl: true, mode: 'list', value });

function link(from: string, to: string, output = 0): Record<string, unknown> {
	const main: unknown[][] = [];
	for (let i = 0; i <= output; i++) main.push([]);
	main[output] = [{ node: to, type: 'main', index: 0 }];
	return { [from]: { main } };
}

function trigger(name: string, instance: string, credId: string, options: Record<string, unknown> = {}) {
	return {
		id: randomUUID(),
		name,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		credentials: { messagingInstanceApi: { id: credId, name: 'Sandbox v2' } },
		parameters: { instance, events: ['MESSAGES_UPSERT'], options },
	};
}

function action(name: string, credId: string, parameters: Record<string, unknown>, x: number) {
	return {
		id: randomUUID(),
		name,
		type: ACTION_TYPE,
		typeVersion: 2,
		position: [x, 0],
		credentials: { messagingInstanceApi: { id: credId, name: 'Sandbox v2' } },
		parameters,
	};
}

/**
 * The README's pattern: trigger → Redis Increment `messaging-dedupe:<dedupeKey>` (expire
 * 86400 s) → If the count is 1 → Send Text. Redis INCR is atomic, so of all the copies of one
 * delivery, in any process, at any time within the TTL, exactly one sees 1.
 */
function dedupeWorkflow(credId: string, redisCredId: string): WorkflowSpec {
	return {
		name: 'queue: reply once (Redis dedupe)',
		nodes: [
			trigger('On Message', 'demo', credId),
			{
				id: randomUUID(),
				name: 'Count Copies',
				type: 'n8n-nodes-base.redis',
				typeVersion: 1,
				position: [200, 0],
				credentials: { redis: { id: redisCredId, name: 'Redis (dedupe)' } },
				parameters: { operation: 'incr', key: "={{ 'messaging-dedupe:' + $json.dedupeKey }}", expire: true, ttl: DEDUPE_TTL },
			},
			{
				id: randomUUID(),
				name: 'First Copy?',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [400, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{ id: randomUUID(), leftValue: '={{ Object.values($json)[0] }}', rightValue: 1, operator: { type: 'number', operation: 'equals' } },
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			action(
				'Reply',
				credId,
				{
					resource: 'message',
					operation: 'sendText',
					instance: picked('demo'),
					number: "={{ $('On Message').item.json.chatId }}",
					text: `=${REPLY}{{ $('On Message').item.json.text }}`,
				},
				600,
			),
		],
		connections: { ...link('On Message', 'Count Copies'), ...link('Count Copies', 'First Copy?'), ...link('First Copy?', 'Reply') },
		settings: { executionOrder: 'v1' },
	};
}

/** The same reply without the Redis step: what the pattern fixes. */
function naiveWorkflow(credId: string): WorkflowSpec {
	return {
		name: 'queue: reply (no dedupe step)',
		nodes: [
			trigger('On Message', 'naive', credId),
			action('Reply', credId, { resource: 'message', operation: 'sendText', instance: picked('naive'), number: '={{ $json.chatId }}', text: `=${REPLY}{{ $json.text }}` }, 300),
		],
		connections: link('On Message', 'Reply'),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Media as binary made by the trigger in a webhook process, hashed on a worker; then the file
 * downloaded on the worker (Download Media) and hashed too; the reply carries both hashes.
 */
function mediaWorkflow(credId: string): WorkflowSpec {
	const hash = (name: string, property: string, x: number) => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.crypto',
		typeVersion: 2,
		position: [x, 0],
		parameters: { action: 'hash', type: 'SHA256', binaryData: true, binaryPropertyName: 'data', dataPropertyName: property, encoding: 'hex' },
	});
	return {
		name: 'queue: media hash',
		nodes: [
			trigger('On Media', 'media', credId, { mediaAsBinary: true }),
			hash('Hash Received', 'receivedHash', 200),
			action('Download', credId, { resource: 'message', operation: 'downloadMedia', instance: picked('media'), messageId: "={{ $('On Media').item.json.messageId }}" }, 400),
			hash('Hash Downloaded', 'downloadedHash', 600),
			action(
				'Reply',
				credId,
				{
					resource: 'message',
					operation: 'sendText',
					instance: picked('media'),
					number: "={{ $('On Media').item.json.chatId }}",
					text: "=sha256 {{ $('Hash Received').item.json.receivedHash }} {{ $json.downloadedHash }}",
				},
				800,
			),
		],
		connections: {
			...link('On Media', 'Hash Received'),
			...link('Hash Received', 'Download'),
			...link('Download', 'Hash Downloaded'),
			...link('Hash Downloaded', 'Reply'),
		},
		settings: { executionOrder: 'v1' },
	};
}

// ---------------------------------------------------------------------------------------
// n8n REST helpers

interface Execution {
	id: string;
	status: string;
	mode: string;
	workflowId: string;
}

const ALL_STATUSES = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];

/** Every execution of a workflow (REST pages of 100, newest first). */
async function executionsOf(rest: RestClient, workflowId: string): Promise<Execution[]> {
	const all: Execution[] = [];
	let lastId: string | undefined;
	for (;;) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ALL_STATUSES }));
		const page = (await rest.call('GET', `/executions?filter=${filter}&limit=100${lastId ? `&lastId=${lastId}` : ''}`)) as { results: Execution[] };
		all.push(...page.results);
		if (page.results.length < 100) break;
		lastId = page.results[page.results.length - 1].id;
	}
	return all;
}

/**
 * Waits until a workflow has at least `expected` executions and none is still new or
 * running, then `quietMs` more without a new one (a late copy would show); returns them.
 */
async function settledExecutions(rest: RestClient, workflowId: string, expected: number, timeoutMs = 60000, quietMs = 1500): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	let last: Execution[] = [];
	for (;;) {
		last = await executionsOf(rest, workflowId);
		const busy = last.filter((e) => e.status === 'new' || e.status === 'running').length;
		if (last.length >= expected && busy === 0) {
			await sleep(quietMs);
			const again = await executionsOf(rest, workflowId);
			if (again.length === last.length && again.every((e) => e.status !== 'new' && e.status !== 'running')) return again;
		} else if (Date.now() > deadline) {
			throw new Error(`expected ${expected} finished executions within ${timeoutMs} ms, have ${last.length} (${busy} still new/running)`);
		}
		await sleep(300);
	}
}

function idsOf(list: Execution[]): Set<string> {
	return new Set(list.map((e) => e.id));
}

// ---------------------------------------------------------------------------------------
// the cluster

interface Cluster {
	main: N8nHandle;
	webhooks: N8nHandle[];
	workers: N8nHandle[];
	/** logs of processes already stopped (a restarted webhook process) */
	pastLogs: string[];
	env: NodeJS.ProcessEnv;
	folders: string[];
}

/** The environment every n8n process of the cluster shares. */
function queueEnv(services: Services, encryptionKey: string, webhookUrl: string): NodeJS.ProcessEnv {
	const pg = services.postgres;
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: pg.password,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: services.redis.host,
		QUEUE_BULL_REDIS_PORT: String(services.redis.port),
		N8N_ENCRYPTION_KEY: encryptionKey,
		// the public address of the webhooks: the balancer (2.x name of WEBHOOK_URL)
		N8N_WEBHOOK_URL: `${webhookUrl}/`,
	};
}

/** A user folder with the package in its nodes folder, copied from the one npm installed into. */
function folderWithPackage(root: string, name: string, installed: string): string {
	const folder = path.join(root, name);
	fs.mkdirSync(path.join(folder, '.n8n'), { recursive: true });
	if (folder !== installed) fs.cpSync(path.join(installed, '.n8n', 'nodes'), path.join(folder, '.n8n', 'nodes'), { recursive: true });
	return folder;
}

async function startProcess(command: N8nCommand, folder: string, env: NodeJS.ProcessEnv): Promise<N8nHandle> {
	const extra: NodeJS.ProcessEnv = { ...env };
	const args: string[] = [];
	if (process.env.QUEUE_PROFILE) extra.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.QUEUE_PROFILE, command)}`;
	if (command === 'start') extra.N8N_DISABLE_PRODUCTION_MAIN_PROCESS = 'true';
	if (command === 'worker') {
		extra.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
		extra.QUEUE_HEALTH_CHECK_PORT = String(await freePort());
		extra.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
		args.push('--concurrency=10');
	}
	return startN8n({ version: VERSION, userFolder: folder, command, args, env: extra, echo: VERBOSE, timeoutMs: 240000 });
}

/** CPU seconds a process (and its children that ended) has used so far, from /proc. */
function cpuSeconds(pid: number | undefined): number {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// utime, stime, cutime, cstime are fields 14-17 (1-based) of the whole line
		return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
	} catch {
		return NaN;
	}
}

function processes(cl: Cluster): Array<[string, N8nHandle]> {
	return [['main', cl.main], ['webhook A', cl.webhooks[0]], ['webhook B', cl.webhooks[1]], ['worker 1', cl.workers[0]], ['worker 2', cl.workers[1]]];
}

// ---------------------------------------------------------------------------------------
// sandbox helpers

function sendTexts(sandbox: Sandbox, instance: string): RecordedRequest[] {
	return sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/message/sendText/${instance}`);
}

function repliesTo(sandbox: Sandbox, instance: string, text: string): RecordedRequest[] {
	return sendTexts(sandbox, instance).filter((r) => (r.body as { text?: string } | undefined)?.text === `${REPLY}${text}`);
}

function deliveredOk(d: RecordedDelivery | undefined): boolean {
	const status = d?.attempts.at(-1)?.status;
	return status !== undefined && status >= 200 && status < 300;
}

/** Dedupe counters in Redis database DEDUPE_DB: key → count. */
async function dedupeCounters(services: Services): Promise<Map<string, number>> {
	const keys = (await redisCommands(services.redis.port, [['SELECT', String(DEDUPE_DB)], ['KEYS', 'messaging-dedupe:*']])) as string[];
	const out = new Map<string, number>();
	if (keys.length === 0) return out;
	const values = (await redisCommands(services.redis.port, [['SELECT', String(DEDUPE_DB)], ['MGET', ...keys]])) as string[];
	keys.forEach((k, i) => out.set(k, Number(values[i])));
	return out;
}

function newCounters(before: Map<string, number>, after: Map<string, number>): Array<[string, number]> {
	return [...after].filter(([k, v]) => before.get(k) !== v);
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
	const t0 = Date.now();

	// --- what the tier needs: n8n, Postgres, Redis -------------------------------------
	try {
		await ensureN8n(VERSION);
	} catch (e) {
		const msg = e instanceof Error ? e.message : String(e);
		if (CI) {
			record(`install n8n@${VERSION}`, false, msg);
			summary();
		}
		skip('queue-mode tier', `n8n@${VERSION} cannot be installed on this machine: ${msg.split('\n')[0]}`);
		summary();
	}
	const bins = await ensureServiceBinaries({ install: true });
	if (bins.missing.length > 0) {
		const why = `missing ${bins.missing.join(', ')} (install with: bash .ci/services.sh)${bins.installLog ? `\n${bins.installLog.slice(-1500)}` : ''}`;
		if (CI) {
			record('Postgres and Redis are installed (Debian packages postgresql, redis-server)', false, `${why}; CI=true, so this is a failure`);
			summary();
		}
		skip('queue-mode tier', `${why}; queue mode is NOT tested`);
		summary();
	}

	let services: Services | undefined;
	let sandbox: Sandbox | undefined;
	let balancer: Balancer | undefined;
	let cluster: Cluster | undefined;
	let tarball = '';
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	let stopping: Promise<void> | undefined;
	const stopAll = () =>
		(stopping ??= (async () => {
			if (cluster) {
				const procs = [cluster.main, ...cluster.webhooks, ...cluster.workers];
				await Promise.allSettled(procs.map((p) => p.stop()));
			}
			await Promise.allSettled([services?.stop(), sandbox?.close(), balancer?.close()]);
			if (process.env.QUEUE_KEEP === '1') console.log(`queue: user folders kept in ${root}`);
			else fs.rmSync(root, { recursive: true, force: true });
			if (tarball && !process.env.E2E_TARBALL) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
		})());
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.once(sig, () => {
			report.interrupted = true;
			console.log(`queue: ${sig}, stopping n8n, Postgres, Redis and the sandbox`);
			void stopAll().then(() => process.exit(130));
		});
	}

	try {
		const packed = await check('npm pack builds the package and makes a tarball', async () => {
			tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
			assert.ok(fs.existsSync(tarball), `no tarball at ${tarball}`);
		});
		if (!packed) return;

		const up = await check('Postgres and Redis start on free loopback ports in a temporary folder (Postgres as the postgres user)', async () => {
			services = await startServices(bins);
			const owner = fs.statSync(path.join(services.dir, 'data')).uid;
			if (process.getuid?.() === 0) assert.notEqual(owner, 0, 'the Postgres data folder belongs to root');
		});
		if (!up || !services) return;
		figure(
			`Postgres ${services.postgres.host}:${services.postgres.port} (pid ${services.postgres.pid}), Redis ${services.redis.host}:${services.redis.port} (pid ${services.redis.pid}), both ready in ${services.startupMs} ms`,
		);

		const { startSandbox } = await import('../sandbox/server');
		sandbox = await startSandbox({
			dialect: 'v2',
			instances: [{ name: 'demo' }, { name: 'naive' }, { name: 'media' }],
			// one attempt: a retry would be a second copy, and the counts below are exact
			delivery: { attempts: 1, timeoutMs: 30000 },
		});
		const sb = sandbox;
		balancer = await startBalancer([]);
		const lb = balancer;

		// --- the cluster --------------------------------------------------------------
		const encryptionKey = randomBytes(24).toString('hex');
		const env = queueEnv(services, encryptionKey, lb.url);
		const installed = path.join(root, 'main');
		await installTarballIntoUserFolder(tarball, installed);
		const folders = ['main', 'webhook-a', 'webhook-b', 'worker-1', 'worker-2'].map((n) => folderWithPackage(root, n, installed));
		const started = Date.now();
		let c: Cluster | undefined;
		const clusterUp = await check('n8n in queue mode: main (start) + 2 webhook processes + 2 workers start on one Postgres and Redis', async () => {
			const mainProcess = await startProcess('start', folders[0], env);
			cluster = { main: mainProcess, webhooks: [], workers: [], pastLogs: [], env, folders };
			const rest = await Promise.all([
				startProcess('webhook', folders[1], env),
				startProcess('webhook', folders[2], env),
				startProcess('worker', folders[3], env),
				startProcess('worker', folders[4], env),
			]);
			cluster.webhooks = rest.slice(0, 2);
			cluster.workers = rest.slice(2);
			c = cluster;
		});
		if (!clusterUp || !c) return;
		const cl: Cluster = c;
		lb.backends.push(cl.webhooks[0].url, cl.webhooks[1].url);
		figure(
			`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: main ${cl.main.url} (${(cl.main.startupMs / 1000).toFixed(1)} s), ` +
				`webhook A ${cl.webhooks[0].url}, webhook B ${cl.webhooks[1].url}, workers with health ports ${cl.workers.map((w) => w.env.QUEUE_HEALTH_CHECK_PORT).join(', ')}; balancer ${lb.url}`,
		);

		const rest = await setupOwnerAndLogin(cl.main.url);
		const cred = (await rest.call('POST', '/credentials', {
			name: 'Sandbox v2',
			type: 'messagingInstanceApi',
			data: { baseUrl: sb.url, apiKey: sb.apiKey, dialect: 'v2' },
		})) as { id: string };
		const redisCred = (await rest.call('POST', '/credentials', {
			name: 'Redis (dedupe)',
			type: 'redis',
			data: { host: services.redis.host, port: services.redis.port, database: DEDUPE_DB, password: '', user: '', ssl: false },
		})) as { id: string };
		const create = async (wf: WorkflowSpec) => ((await rest.call('POST', '/workflows', { ...wf, active: false })) as { id: string }).id;
		const ids = {
			demo: await create(dedupeWorkflow(cred.id, redisCred.id)),
			naive: await create(naiveWorkflow(cred.id)),
			media: await create(mediaWorkflow(cred.id)),
		};
		const instances = Object.keys(ids) as Array<keyof typeof ids>;

		// --- registration on activation ----------------------------------------------
		const registered: Record<string, string> = {};
		const activated = await check('activation: the main process registers each trigger (Set Webhook recorded, the balancer URL, enabled)', async () => {
			for (const inst of instances) await rest.activate(ids[inst]);
			for (const inst of instances) {
				const hook = await waitFor(`the ${inst} webhook`, () => {
					const h = sb.webhookOf(inst);
					return h?.enabled && h.url.startsWith(`${lb.url}/webhook/`) ? h : undefined;
				});
				const set = sb.requests.filter((r) => r.path === `/webhook/set/${inst}` && (r.body as { webhook?: { enabled?: boolean } })?.webhook?.enabled !== false);
				assert.ok(set.length >= 1, `no Set Webhook request for ${inst}`);
				assert.ok(hook.events.includes('MESSAGES_UPSERT'), `${inst} events ${JSON.stringify(hook.events)}`);
				assert.ok(new URL(hook.url).search, `${inst}: the registered URL has no secret`);
				registered[inst] = hook.url;
			}
		});
		if (!activated) return;

		await check('both webhook processes serve the registered path and refuse a delivery without the secret (401)', async () => {
			for (const inst of instances) {
				const u = new URL(registered[inst]);
				for (const backend of lb.backends) {
					await waitFor(
						`401 from ${backend}${u.pathname}`,
						async () => ((await request('POST', `${backend}${u.pathname}`, { event: 'messages.upsert' })).status === 401 ? true : undefined),
						30000,
					);
				}
			}
		});

		const logsOf = (h: N8nHandle) => h.logs();
		const workerOf = (id: string): number => cl.workers.findIndex((w) => logsOf(w).includes(`Worker started execution ${id} `));

		// --- a delivery through either webhook process runs on a worker and replies ------
		for (const [i, label] of [[0, 'A'], [1, 'B']] as const) {
			await check(`a delivery through webhook process ${label} is enqueued there, runs on a worker and the reply reaches the sandbox`, async () => {
				lb.route = i;
				const before = idsOf(await executionsOf(rest, ids.demo));
				const text = `via ${label} ${randomBytes(3).toString('hex')}`;
				const d = await sb.injectMessage('demo', { from: '5511988880000', text, pushName: 'Ana' });
				assert.ok(deliveredOk(d), `delivery answered ${JSON.stringify(d?.attempts)}`);
				await waitFor('the reply', () => repliesTo(sb, 'demo', text)[0], 30000);
				const runs = (await settledExecutions(rest, ids.demo, before.size + 1)).filter((e) => !before.has(e.id));
				assert.equal(runs.length, 1, `${runs.length} new executions`);
				const id = runs[0].id;
				assert.equal(runs[0].status, 'success');
				assert.match(logsOf(cl.webhooks[i]), new RegExp(`Enqueued execution ${id} \\(job`), `webhook ${label}'s log has no "Enqueued execution ${id}"`);
				const w = await waitFor(`a worker log line for execution ${id}`, () => (workerOf(id) >= 0 ? workerOf(id) + 1 : undefined), 10000);
				assert.ok(!logsOf(cl.main).includes(`execution ${id} `), 'the main process logged this execution');
				figure(`execution ${id}: enqueued by webhook ${label}, run by worker ${w}`);
			});
		}

		// --- media as binary reaches the worker intact -----------------------------------
		await check('media: the trigger\'s binary (made in a webhook process) and Download Media\'s file on a worker both hash to the bytes sent', async () => {
			lb.route = 'alternate';
			const photo = randomBytes(48 * 1024);
			photo.set([0xff, 0xd8, 0xff, 0xe0], 0);
			const expected = createHash('sha256').update(photo).digest('hex');
			const d = await sb.injectMessage('media', { from: '5511955550000', media: { kind: 'image', mimetype: 'image/jpeg', base64: photo.toString('base64') } });
			assert.ok(deliveredOk(d), `delivery answered ${JSON.stringify(d?.attempts)}`);
			const reply = await waitFor('the hash reply', () => sendTexts(sb, 'media')[0], 30000);
			assert.equal((reply.body as { text: string }).text, `sha256 ${expected} ${expected}`);
			const [run] = await settledExecutions(rest, ids.media, 1);
			assert.ok(workerOf(run.id) >= 0, `execution ${run.id} is in no worker's log`);
		});

		// --- the problem: the same delivery to both webhook processes, no dedupe step ------
		await check('without the Redis step, the same delivery sent to both webhook processes at once runs twice and replies twice (the problem)', async () => {
			lb.route = 'both';
			const text = `twice ${randomBytes(3).toString('hex')}`;
			const d = await sb.injectMessage('naive', { from: '5511977770000', text });
			assert.ok(deliveredOk(d), `delivery answered ${JSON.stringify(d?.attempts)}`);
			assert.deepEqual(lb.forwards.at(-1)?.statuses, [200, 200], 'both webhook processes took it');
			const runs = await settledExecutions(rest, ids.naive, 2, 30000, 2500);
			assert.equal(runs.length, 2, `${runs.length} runs`);
			await waitFor('two replies', () => (repliesTo(sb, 'naive', text).length >= 2 ? true : undefined), 15000);
			assert.equal(repliesTo(sb, 'naive', text).length, 2);
		});

		// --- the pattern: the same delivery to both, concurrently -> one reply -------------
		let dup: RecordedDelivery | undefined;
		let dupKey = '';
		const dupText = `once ${randomBytes(3).toString('hex')}`;
		await check('with the Redis step, the same delivery sent to both webhook processes at once runs twice but replies once (counter 2)', async () => {
			lb.route = 'both';
			const counters = await dedupeCounters(services!);
			const before = idsOf(await executionsOf(rest, ids.demo));
			dup = await sb.injectMessage('demo', { from: '5511966660000', text: dupText });
			assert.ok(deliveredOk(dup), `delivery answered ${JSON.stringify(dup?.attempts)}`);
			assert.deepEqual(lb.forwards.at(-1)?.statuses, [200, 200], 'both webhook processes took it');
			const runs = (await settledExecutions(rest, ids.demo, before.size + 2, 30000, 2500)).filter((e) => !before.has(e.id));
			assert.equal(runs.length, 2, `${runs.length} runs (each process's own filter lets its copy through)`);
			await sleep(1000);
			assert.equal(repliesTo(sb, 'demo', dupText).length, 1, 'replies');
			const changed = newCounters(counters, await dedupeCounters(services!));
			assert.equal(changed.length, 1, `counters changed: ${JSON.stringify(changed)}`);
			[dupKey] = changed[0];
			assert.equal(changed[0][1], 2, 'the counter');
			const ttl = (await redisCommands(services!.redis.port, [['SELECT', String(DEDUPE_DB)], ['TTL', dupKey]])) as number;
			assert.ok(ttl > DEDUPE_TTL - 120 && ttl <= DEDUPE_TTL, `TTL ${ttl}`);
		});

		// --- the burst ------------------------------------------------------------------
		await check(`a burst of ${BURST} distinct deliveries spread over both webhook processes: exactly one run and one reply per message`, async () => {
			lb.route = 'alternate';
			const before = idsOf(await executionsOf(rest, ids.demo));
			const countersBefore = await dedupeCounters(services!);
			const receivedBefore = lb.received();
			const repliesBefore = sendTexts(sb, 'demo').length;
			const tag = randomBytes(3).toString('hex');
			const messages = Array.from({ length: BURST }, (_, n) => ({ text: `burst ${tag} ${n}`, from: `55119${String(10000000 + n)}`, sentAt: 0, answered: false }));
			const cpuBefore = processes(cl).map(([, h]) => cpuSeconds(h.pid));
			const harnessBefore = process.cpuUsage();
			const burstStart = Date.now();
			let lastAnswer = burstStart;
			let nextIndex = 0;
			const worker = async () => {
				while (nextIndex < messages.length) {
					const m = messages[nextIndex++];
					m.sentAt = Date.now();
					const d = await sb.injectMessage('demo', { from: m.from, text: m.text });
					m.answered = deliveredOk(d);
					lastAnswer = Math.max(lastAnswer, Date.now());
				}
			};
			await Promise.all(Array.from({ length: 16 }, worker));
			const failedDeliveries = messages.filter((m) => !m.answered).length;
			assert.equal(failedDeliveries, 0, `${failedDeliveries} deliveries were not answered 2xx`);
			const received = lb.received().map((n, i) => n - receivedBefore[i]);
			const answerMs = lb.forwards.slice(-BURST).map((f) => f.ms).sort((a, b) => a - b);
			await waitFor(`${BURST} replies`, () => (sendTexts(sb, 'demo').length - repliesBefore >= BURST ? true : undefined), 240000).catch((e: Error) => {
				throw new Error(`${e.message}; have ${sendTexts(sb, 'demo').length - repliesBefore}`);
			});
			const lastReply = Math.max(...sendTexts(sb, 'demo').slice(repliesBefore).map((r) => r.at));
			const cpu = processes(cl).map(([name, h], i) => `${name} ${(cpuSeconds(h.pid) - cpuBefore[i]).toFixed(1)}`);
			const harness = process.cpuUsage(harnessBefore);
			cpu.push(`this test with the sandbox and balancer ${((harness.user + harness.system) / 1e6).toFixed(1)}`);
			const runs = (await settledExecutions(rest, ids.demo, before.size + BURST, 120000, 3000)).filter((e) => !before.has(e.id));
			assert.equal(runs.length, BURST, `${runs.length} runs for ${BURST} messages`);
			const notOk = runs.filter((e) => e.status !== 'success');
			assert.equal(notOk.length, 0, `runs not successful: ${JSON.stringify(notOk.slice(0, 5))}`);
			const latencies: number[] = [];
			const wrong: string[] = [];
			for (const m of messages) {
				const replies = repliesTo(sb, 'demo', m.text);
				if (replies.length !== 1) wrong.push(`${m.text}: ${replies.length} replies`);
				else latencies.push(replies[0].at - m.sentAt);
			}
			assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} messages without exactly one reply`);
			const counters = newCounters(countersBefore, await dedupeCounters(services!));
			assert.equal(counters.length, BURST, `${counters.length} new dedupe counters`);
			assert.ok(counters.every(([, v]) => v === 1), 'a burst counter is not 1');
			const perWorker = cl.workers.map(() => 0);
			const orphans: string[] = [];
			for (const r of runs) {
				const w = workerOf(r.id);
				if (w < 0) orphans.push(r.id);
				else perWorker[w]++;
			}
			assert.deepEqual(orphans.slice(0, 10), [], `${orphans.length} executions in no worker's log`);
			assert.ok(received.every((n) => n > 0), `deliveries per webhook process ${received.join('/')}`);
			latencies.sort((a, b) => a - b);
			const deliverySeconds = (lastAnswer - burstStart) / 1000;
			const allSeconds = (lastReply - burstStart) / 1000;
			figure(
				`burst: ${BURST} deliveries in ${deliverySeconds.toFixed(1)} s = ${(BURST / deliverySeconds).toFixed(0)} deliveries/s accepted (16 at a time); ` +
					`all ${BURST} replies after ${allSeconds.toFixed(1)} s = ${(BURST / allSeconds).toFixed(0)} messages/s end to end; ` +
					`a webhook process answered a delivery in p50 ${percentile(answerMs, 0.5)} ms, p90 ${percentile(answerMs, 0.9)} ms`,
			);
			figure(
				`delivery-to-reply latency: p50 ${percentile(latencies, 0.5)} ms, p90 ${percentile(latencies, 0.9)} ms, max ${latencies.at(-1)} ms; ` +
					`webhook A/B took ${received.join('/')}, workers ran ${perWorker.join('/')}`,
			);
			figure(`CPU seconds used until the last reply: ${cpu.join(', ')}`);
		});

		// --- the same delivery again after restarting one webhook process ----------------
		await check('the same delivery again, after webhook process A restarted (its memory empty): it runs, the counter says 3, still one reply', async () => {
			if (!dup || !dupKey) throw new Error('not run: the concurrent duplicate check did not pass');
			const old = cl.webhooks[0];
			cl.pastLogs.push(old.logs());
			await old.stop();
			cl.webhooks[0] = await startProcess('webhook', cl.folders[1], cl.env);
			lb.backends[0] = cl.webhooks[0].url;
			lb.route = 0;
			const before = idsOf(await executionsOf(rest, ids.demo));
			const again = await sb.redeliver(dup);
			assert.ok(deliveredOk(again), `redelivery answered ${JSON.stringify(again.attempts)}`);
			const runs = (await settledExecutions(rest, ids.demo, before.size + 1, 30000, 2500)).filter((e) => !before.has(e.id));
			assert.equal(runs.length, 1, `${runs.length} runs`);
			await sleep(1000);
			assert.equal(repliesTo(sb, 'demo', dupText).length, 1, 'replies');
			const count = Number(await redisCommands(services!.redis.port, [['SELECT', String(DEDUPE_DB)], ['GET', dupKey]]));
			assert.equal(count, 3, 'the counter');
			// and the restarted process serves new messages
			const text = `after restart ${randomBytes(3).toString('hex')}`;
			const d = await sb.injectMessage('demo', { from: '5511944440000', text });
			assert.ok(deliveredOk(d), `delivery answered ${JSON.stringify(d?.attempts)}`);
			await waitFor('the reply after the restart', () => repliesTo(sb, 'demo', text)[0], 30000);
		});

		// --- deactivation ----------------------------------------------------------------
		await check('deactivation deregisters: Set Webhook with enabled:false for each workflow, the sandbox\'s webhooks are off', async () => {
			for (const inst of instances) await rest.deactivate(ids[inst]);
			for (const inst of instances) {
				await waitFor(`${inst} webhook off`, () => (sb.webhookOf(inst)?.enabled === false ? true : undefined), 30000);
				const off = sb.requests.find((r) => r.path === `/webhook/set/${inst}` && (r.body as { webhook?: { enabled?: boolean } })?.webhook?.enabled === false);
				assert.ok(off, `no Set Webhook enabled:false for ${inst}`);
			}
		});

		// --- no secrets in logs or execution data ---------------------------------------
		const secrets = new Map<string, string>([['the API key', sb.apiKey]]);
		for (const inst of instances) {
			secrets.set(`${inst}'s instance token`, sb.instanceToken(inst));
			for (const [k, v] of new URL(registered[inst]).searchParams) secrets.set(`${inst}'s webhook secret (${k})`, v);
		}
		const found = (text: string) => [...secrets].filter(([, v]) => v && text.includes(v)).map(([k]) => k);
		await check('no API key, instance token or webhook secret in any n8n process log, nor in the Postgres or Redis log', () => {
			const logs: Array<[string, string]> = [
				['main', cl.main.logs()],
				['webhook A', cl.webhooks[0].logs()],
				['webhook A before the restart', cl.pastLogs.join('\n')],
				['webhook B', cl.webhooks[1].logs()],
				['worker 1', cl.workers[0].logs()],
				['worker 2', cl.workers[1].logs()],
				['postgres', services!.postgresLog()],
				['redis', services!.redis.logs()],
			];
			const leaks = logs.flatMap(([name, text]) => found(text).map((s) => `${s} in the ${name} log`));
			assert.deepEqual(leaks, []);
		});
		await check('no API key, instance token or webhook secret in the execution data of any run (every execution, with its data)', async () => {
			const all = (await Promise.all(instances.map((inst) => executionsOf(rest, ids[inst])))).flat();
			const leaks: string[] = [];
			let withData = 0;
			let nextIndex = 0;
			const fetcher = async () => {
				while (nextIndex < all.length) {
					const e = all[nextIndex++];
					const res = await rest.raw('GET', `/executions/${e.id}`);
					if (res.status !== 200) throw new Error(`GET /rest/executions/${e.id} -> ${res.status}`);
					if (res.body.includes('On Message') || res.body.includes('On Media')) withData++;
					for (const s of found(res.body)) leaks.push(`${s} in execution ${e.id}`);
				}
			};
			await Promise.all(Array.from({ length: 8 }, fetcher));
			assert.equal(withData, all.length, `${all.length - withData} executions came without their data`);
			assert.deepEqual(leaks.slice(0, 10), [], `${leaks.length} leaks`);
			figure(`checked ${all.length} executions with their data`);
		});
	} catch (e) {
		record('queue run aborted', false, e instanceof Error ? (e.stack ?? e.message) : String(e));
		if (cluster?.webhooks.length) {
			for (const [name, h] of processes(cluster)) console.log(`--- last output of ${name} ---\n${h.logs().slice(-2500)}`);
		} else if (cluster) console.log(`--- last output of main ---\n${cluster.main.logs().slice(-2500)}`);
	} finally {
		await stopAll();
		console.log(`queue: took ${Math.round((Date.now() - t0) / 1000)} s`);
	}
}

main()
	.catch((e) => record('queue runner crashed', false, e instanceof Error ? (e.stack ?? e.message) : String(e)))
	.finally(() => summary());
