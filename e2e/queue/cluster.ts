/**
 * The queue-mode cluster and what the checks read from it: the n8n processes (main, two
 * webhook processes, two workers) on one Postgres and Redis, their executions over REST, the
 * replies the sandbox recorded and the dedupe counters in Redis.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, freePort, startN8n, type N8nCommand, type N8nHandle, type RestClient } from '../../scripts/n8n-runtime';
import { redisCommands, type Services } from '../../scripts/services';
import type { RecordedDelivery, RecordedRequest, Sandbox } from '../../sandbox/server';
import { sleep } from '../report';
import { DEDUPE_DB, REPLY } from './workflows';

export const VERSION = DEFAULT_N8N_VERSION;
export const VERBOSE = process.env.QUEUE_VERBOSE === '1';

export interface Execution {
	id: string;
	status: string;
	mode: string;
	workflowId: string;
}

const ALL_STATUSES = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];

/** Every execution of a workflow (REST pages of 100, newest first). */
export async function executionsOf(rest: RestClient, workflowId: string): Promise<Execution[]> {
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
export async function settledExecutions(rest: RestClient, workflowId: string, expected: number, timeoutMs = 60000, quietMs = 1500): Promise<Execution[]> {
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

export function idsOf(list: Execution[]): Set<string> {
	return new Set(list.map((e) => e.id));
}

export interface Cluster {
	main: N8nHandle;
	webhooks: N8nHandle[];
	workers: N8nHandle[];
	/** logs of processes already stopped (a restarted webhook process, the main process Catch Up restarts) */
	pastLogs: string[];
	env: NodeJS.ProcessEnv;
	folders: string[];
}

/** The environment every n8n process of the cluster shares. */
export function queueEnv(services: Services, encryptionKey: string, webhookUrl: string): NodeJS.ProcessEnv {
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
export function folderWithPackage(root: string, name: string, installed: string): string {
	const folder = path.join(root, name);
	fs.mkdirSync(path.join(folder, '.n8n'), { recursive: true });
	if (folder !== installed) fs.cpSync(path.join(installed, '.n8n', 'nodes'), path.join(folder, '.n8n', 'nodes'), { recursive: true });
	return folder;
}

export async function startProcess(command: N8nCommand, folder: string, env: NodeJS.ProcessEnv): Promise<N8nHandle> {
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
export function cpuSeconds(pid: number | undefined): number {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// utime, stime, cutime, cstime are fields 14-17 (1-based) of the whole line
		return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
	} catch {
		return NaN;
	}
}

export function processes(cl: Cluster): Array<[string, N8nHandle]> {
	return [['main', cl.main], ['webhook A', cl.webhooks[0]], ['webhook B', cl.webhooks[1]], ['worker 1', cl.workers[0]], ['worker 2', cl.workers[1]]];
}

/** Which worker's log says it started an execution (-1: none). */
export function workerOf(cluster: Cluster, executionId: string): number {
	return cluster.workers.findIndex((w) => w.logs().includes(`Worker started execution ${executionId} `));
}

export function sendTexts(sandbox: Sandbox, instance: string): RecordedRequest[] {
	return sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/message/sendText/${instance}`);
}

export function repliesTo(sandbox: Sandbox, instance: string, text: string): RecordedRequest[] {
	return sendTexts(sandbox, instance).filter((r) => (r.body as { text?: string } | undefined)?.text === `${REPLY}${text}`);
}

export function deliveredOk(d: RecordedDelivery | undefined): boolean {
	const status = d?.attempts.at(-1)?.status;
	return status !== undefined && status >= 200 && status < 300;
}

/** Dedupe counters in Redis database DEDUPE_DB: key → count. */
export async function dedupeCounters(services: Services): Promise<Map<string, number>> {
	const keys = (await redisCommands(services.redis.port, [['SELECT', String(DEDUPE_DB)], ['KEYS', 'messaging-dedupe:*']])) as string[];
	const out = new Map<string, number>();
	if (keys.length === 0) return out;
	const values = (await redisCommands(services.redis.port, [['SELECT', String(DEDUPE_DB)], ['MGET', ...keys]])) as string[];
	keys.forEach((k, i) => out.set(k, Number(values[i])));
	return out;
}

export function newCounters(before: Map<string, number>, after: Map<string, number>): Array<[string, number]> {
	return [...after].filter(([k, v]) => before.get(k) !== v);
}
