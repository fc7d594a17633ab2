/**
 * The queue-mode tier's checks, in the order they run (e2e/queue.ts runs them with the
 * Report's runner). The first ones are gates: they set up what the rest need.
 */
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { installTarballIntoUserFolder, packRepo, request, setupOwnerAndLogin, type WorkflowSpec } from '../../scripts/n8n-runtime';
import { redisCommands, startServices } from '../../scripts/services';
import type { RecordedDelivery } from '../../sandbox/server';
import { startBalancer } from '../balancer';
import { sleep, waitFor, type NamedCheck } from '../report';
import { burstUnderCpuLoadGetsOneReplyPerMessage } from './burst';
import { chatReplyAfterWebhookRestart } from './chatReply';
import { redisOutageCheck } from './redisOutage';
import { chatMemoryAcrossWorkers } from './chatMemory';
import { collectBurstAnswersOncePerBurst } from './collectBurst';
import { handOverStaysSilentAcrossProcesses } from './handOver';
import { catchUpAcrossTheQueue } from './catchUp';
import {
	dedupeCounters,
	deliveredOk,
	executionsOf,
	folderWithPackage,
	idsOf,
	newCounters,
	queueEnv,
	repliesTo,
	sendTexts,
	settledExecutions,
	startProcess,
	workerOf,
	type Cluster,
} from './cluster';
import { describeAttempts, figure, INSTANCES, running, type InstanceName, type Tier } from './tier';
import { DEDUPE_DB, DEDUPE_TTL, dedupeWorkflow, mediaWorkflow, naiveWorkflow } from './workflows';

/**
 * The checks that count runs exactly need each delivery to arrive once: a retry would be a
 * second copy. When one took more than one attempt, every attempt is in the failure.
 */
function answeredAtFirstAttempt(d: RecordedDelivery | undefined): void {
	assert.ok(deliveredOk(d) && d?.attempts.length === 1, `the delivery was not answered 2xx at its first attempt: ${describeAttempts(d)}`);
}

async function packsTheTarball(t: Tier): Promise<void> {
	t.tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
	assert.ok(fs.existsSync(t.tarball), `no tarball at ${t.tarball}`);
}

async function startsPostgresAndRedis(t: Tier): Promise<void> {
	const services = await startServices(t.bins);
	t.services = services;
	const owner = fs.statSync(path.join(services.dir, 'data')).uid;
	if (process.getuid?.() === 0) assert.notEqual(owner, 0, 'the Postgres data folder belongs to root');
	figure(
		`Postgres ${services.postgres.host}:${services.postgres.port} (pid ${services.postgres.pid}), Redis ${services.redis.host}:${services.redis.port} (pid ${services.redis.pid}), both ready in ${services.startupMs} ms`,
	);
}

async function startsTheCluster(t: Tier): Promise<void> {
	if (!t.services) throw new Error('not run: Postgres and Redis are not up');
	const { startSandbox } = await import('../../sandbox/server');
	t.sandbox = await startSandbox({
		dialect: 'v2',
		instances: INSTANCES.map((name) => ({ name })),
		// Real servers' policy (Evolution API: up to 10 attempts, doubling backoff from 5 s, none
		// after 400/401/403/404/422, 30 s per attempt), with the backoff starting at 250 ms so a
		// retried delivery lands within the checks' waits.
		delivery: { attempts: 10, backoffMs: 250, timeoutMs: 30000 },
	});
	const lb = await startBalancer([]);
	t.balancer = lb;
	const env = queueEnv(t.services, randomBytes(24).toString('hex'), lb.url);
	const installed = path.join(t.root, 'main');
	await installTarballIntoUserFolder(t.tarball, installed);
	const folders = ['main', 'webhook-a', 'webhook-b', 'worker-1', 'worker-2'].map((n) => folderWithPackage(t.root, n, installed));
	const started = Date.now();
	const mainProcess = await startProcess('start', folders[0], env);
	const cluster: Cluster = { main: mainProcess, webhooks: [], workers: [], pastLogs: [], env, folders };
	t.cluster = cluster;
	const others = await Promise.all([
		startProcess('webhook', folders[1], env),
		startProcess('webhook', folders[2], env),
		startProcess('worker', folders[3], env),
		startProcess('worker', folders[4], env),
	]);
	cluster.webhooks = others.slice(0, 2);
	cluster.workers = others.slice(2);
	lb.backends.push(cluster.webhooks[0].url, cluster.webhooks[1].url);
	figure(
		`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: main ${cluster.main.url} (${(cluster.main.startupMs / 1000).toFixed(1)} s), ` +
			`webhook A ${cluster.webhooks[0].url}, webhook B ${cluster.webhooks[1].url}, workers with health ports ${cluster.workers.map((w) => w.env.QUEUE_HEALTH_CHECK_PORT).join(', ')}; balancer ${lb.url}`,
	);
}

async function ownerCreatesCredentialsAndWorkflows(t: Tier): Promise<void> {
	if (!t.cluster || !t.sandbox || !t.services) throw new Error('not run: the cluster is not up');
	const rest = await setupOwnerAndLogin(t.cluster.main.url);
	t.rest = rest;
	const cred = (await rest.call('POST', '/credentials', {
		name: 'Sandbox v2',
		type: 'messagingInstanceApi',
		data: { baseUrl: t.sandbox.url, apiKey: t.sandbox.apiKey, dialect: 'v2' },
	})) as { id: string };
	const redisCred = (await rest.call('POST', '/credentials', {
		name: 'Redis (dedupe)',
		type: 'redis',
		data: { host: t.services.redis.host, port: t.services.redis.port, database: DEDUPE_DB, password: '', user: '', ssl: false },
	})) as { id: string };
	const create = async (wf: WorkflowSpec) => ((await rest.call('POST', '/workflows', { ...wf, active: false })) as { id: string }).id;
	t.ids = {
		demo: await create(dedupeWorkflow(cred.id, redisCred.id)),
		naive: await create(naiveWorkflow(cred.id)),
		media: await create(mediaWorkflow(cred.id)),
	};
}

async function activationRegistersEachTrigger(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, rest, ids } = running(t);
	for (const inst of INSTANCES) await rest.activate(ids[inst]);
	for (const inst of INSTANCES) {
		const hook = await waitFor(`the ${inst} webhook`, () => {
			const h = sb.webhookOf(inst);
			return h?.enabled && h.url.startsWith(`${lb.url}/webhook/`) ? h : undefined;
		});
		const set = sb.requests.filter((r) => r.path === `/webhook/set/${inst}` && (r.body as { webhook?: { enabled?: boolean } })?.webhook?.enabled !== false);
		assert.ok(set.length >= 1, `no Set Webhook request for ${inst}`);
		assert.ok(hook.events.includes('MESSAGES_UPSERT'), `${inst} events ${JSON.stringify(hook.events)}`);
		assert.ok(new URL(hook.url).search, `${inst}: the registered URL has no secret`);
		t.registered[inst] = hook.url;
	}
}

function registeredUrl(t: Tier, inst: InstanceName): URL {
	const url = t.registered[inst];
	if (!url) throw new Error(`not run: ${inst} was not registered`);
	return new URL(url);
}

async function bothWebhookProcessesRefuseADeliveryWithoutTheSecret(t: Tier): Promise<void> {
	const { balancer: lb } = running(t);
	for (const inst of INSTANCES) {
		const u = registeredUrl(t, inst);
		for (const backend of lb.backends) {
			await waitFor(
				`401 from ${backend}${u.pathname}`,
				async () => ((await request('POST', `${backend}${u.pathname}`, { event: 'messages.upsert' })).status === 401 ? true : undefined),
				30000,
			);
		}
	}
}

function aDeliveryThroughWebhookProcessRunsOnAWorker(index: 0 | 1, label: 'A' | 'B'): NamedCheck<Tier> {
	return {
		name: `a delivery through webhook process ${label} is enqueued there, runs on a worker and the reply reaches the sandbox`,
		run: async (t) => {
			const { sandbox: sb, balancer: lb, cluster: cl, rest, ids } = running(t);
			lb.route = index;
			const before = idsOf(await executionsOf(rest, ids.demo));
			const text = `via ${label} ${randomBytes(3).toString('hex')}`;
			answeredAtFirstAttempt(await sb.injectMessage('demo', { from: '5511988880000', text, pushName: 'Ana' }));
			await waitFor('the reply', () => repliesTo(sb, 'demo', text)[0], 30000);
			const runs = (await settledExecutions(rest, ids.demo, before.size + 1)).filter((e) => !before.has(e.id));
			assert.equal(runs.length, 1, `${runs.length} new executions`);
			const id = runs[0].id;
			assert.equal(runs[0].status, 'success');
			assert.match(cl.webhooks[index].logs(), new RegExp(`Enqueued execution ${id} \\(job`), `webhook ${label}'s log has no "Enqueued execution ${id}"`);
			const w = await waitFor(`a worker log line for execution ${id}`, () => (workerOf(cl, id) >= 0 ? workerOf(cl, id) + 1 : undefined), 10000);
			assert.ok(!cl.main.logs().includes(`execution ${id} `), 'the main process logged this execution');
			figure(`execution ${id}: enqueued by webhook ${label}, run by worker ${w}`);
		},
	};
}

async function mediaMadeInAWebhookProcessAndDownloadedOnAWorkerHashToTheBytesSent(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, cluster: cl, rest, ids } = running(t);
	lb.route = 'alternate';
	const photo = randomBytes(48 * 1024);
	photo.set([0xff, 0xd8, 0xff, 0xe0], 0);
	const expected = createHash('sha256').update(photo).digest('hex');
	answeredAtFirstAttempt(await sb.injectMessage('media', { from: '5511955550000', media: { kind: 'image', mimetype: 'image/jpeg', base64: photo.toString('base64') } }));
	const reply = await waitFor('the hash reply', () => sendTexts(sb, 'media')[0], 30000);
	assert.equal((reply.body as { text: string }).text, `sha256 ${expected} ${expected}`);
	const [run] = await settledExecutions(rest, ids.media, 1);
	assert.ok(workerOf(cl, run.id) >= 0, `execution ${run.id} is in no worker's log`);
}

async function withoutTheDedupeStepADeliveryToBothProcessesRepliesTwice(t: Tier): Promise<void> {
	const { sandbox: sb, balancer: lb, rest, ids } = running(t);
	lb.route = 'both';
	const text = `twice ${randomBytes(3).toString('hex')}`;
	answeredAtFirstAttempt(await sb.injectMessage('naive', { from: '5511977770000', text }));
	assert.deepEqual(lb.forwards.at(-1)?.statuses, [200, 200], 'both webhook processes took it');
	const runs = await settledExecutions(rest, ids.naive, 2, 30000, 2500);
	assert.equal(runs.length, 2, `${runs.length} runs`);
	await waitFor('two replies', () => (repliesTo(sb, 'naive', text).length >= 2 ? true : undefined), 15000);
	assert.equal(repliesTo(sb, 'naive', text).length, 2);
}

async function withTheDedupeStepADeliveryToBothProcessesRepliesOnce(t: Tier): Promise<void> {
	const { services, sandbox: sb, balancer: lb, rest, ids } = running(t);
	lb.route = 'both';
	const text = `once ${randomBytes(3).toString('hex')}`;
	const counters = await dedupeCounters(services);
	const before = idsOf(await executionsOf(rest, ids.demo));
	const delivery = await sb.injectMessage('demo', { from: '5511966660000', text });
	answeredAtFirstAttempt(delivery);
	assert.deepEqual(lb.forwards.at(-1)?.statuses, [200, 200], 'both webhook processes took it');
	const runs = (await settledExecutions(rest, ids.demo, before.size + 2, 30000, 2500)).filter((e) => !before.has(e.id));
	assert.equal(runs.length, 2, `${runs.length} runs (each process's own filter lets its copy through)`);
	await sleep(1000);
	assert.equal(repliesTo(sb, 'demo', text).length, 1, 'replies');
	const changed = newCounters(counters, await dedupeCounters(services));
	assert.equal(changed.length, 1, `counters changed: ${JSON.stringify(changed)}`);
	const [key, count] = changed[0];
	assert.equal(count, 2, 'the counter');
	const ttl = (await redisCommands(services.redis.port, [['SELECT', String(DEDUPE_DB)], ['TTL', key]])) as number;
	assert.ok(ttl > DEDUPE_TTL - 120 && ttl <= DEDUPE_TTL, `TTL ${ttl}`);
	if (delivery) t.duplicate = { delivery, key, text };
}

async function theSameDeliveryAfterAWebhookProcessRestartStillRepliesOnce(t: Tier): Promise<void> {
	const { services, sandbox: sb, balancer: lb, cluster: cl, rest, ids } = running(t);
	if (!t.duplicate) throw new Error('not run: the concurrent duplicate check did not pass');
	const dup = t.duplicate;
	const old = cl.webhooks[0];
	cl.pastLogs.push(old.logs());
	await old.stop();
	cl.webhooks[0] = await startProcess('webhook', cl.folders[1], cl.env);
	lb.backends[0] = cl.webhooks[0].url;
	lb.route = 0;
	const before = idsOf(await executionsOf(rest, ids.demo));
	answeredAtFirstAttempt(await sb.redeliver(dup.delivery));
	const runs = (await settledExecutions(rest, ids.demo, before.size + 1, 30000, 2500)).filter((e) => !before.has(e.id));
	assert.equal(runs.length, 1, `${runs.length} runs`);
	await sleep(1000);
	assert.equal(repliesTo(sb, 'demo', dup.text).length, 1, 'replies');
	const count = Number(await redisCommands(services.redis.port, [['SELECT', String(DEDUPE_DB)], ['GET', dup.key]]));
	assert.equal(count, 3, 'the counter');
	// and the restarted process serves new messages
	const text = `after restart ${randomBytes(3).toString('hex')}`;
	const d = await sb.injectMessage('demo', { from: '5511944440000', text });
	assert.ok(deliveredOk(d), `delivery not answered 2xx: ${describeAttempts(d)}`);
	await waitFor('the reply after the restart', () => repliesTo(sb, 'demo', text)[0], 30000);
}

async function deactivationDeregistersEachTrigger(t: Tier): Promise<void> {
	const { sandbox: sb, rest, ids } = running(t);
	for (const inst of INSTANCES) await rest.deactivate(ids[inst]);
	for (const inst of INSTANCES) {
		await waitFor(`${inst} webhook off`, () => (sb.webhookOf(inst)?.enabled === false ? true : undefined), 30000);
		const off = sb.requests.find((r) => r.path === `/webhook/set/${inst}` && (r.body as { webhook?: { enabled?: boolean } })?.webhook?.enabled === false);
		assert.ok(off, `no Set Webhook enabled:false for ${inst}`);
	}
}

/** The secrets of the run by what they are: the API key, each instance token, each webhook secret. */
function secretsOf(t: Tier): Map<string, string> {
	const { sandbox: sb } = running(t);
	const secrets = new Map<string, string>([['the API key', sb.apiKey]]);
	for (const inst of INSTANCES) {
		secrets.set(`${inst}'s instance token`, sb.instanceToken(inst));
		for (const [k, v] of registeredUrl(t, inst).searchParams) secrets.set(`${inst}'s webhook secret (${k})`, v);
	}
	return secrets;
}

function secretsIn(secrets: Map<string, string>, text: string): string[] {
	return [...secrets].filter(([, v]) => v && text.includes(v)).map(([k]) => k);
}

function noSecretInAnyLog(t: Tier): void {
	const { services, cluster: cl } = running(t);
	const secrets = secretsOf(t);
	const logs: Array<[string, string]> = [
		['main', cl.main.logs()],
		['webhook A', cl.webhooks[0].logs()],
		['the processes before their restarts', cl.pastLogs.join('\n')],
		['webhook B', cl.webhooks[1].logs()],
		['worker 1', cl.workers[0].logs()],
		['worker 2', cl.workers[1].logs()],
		['postgres', services.postgresLog()],
		['redis', services.redis.logs()],
	];
	const leaks = logs.flatMap(([name, text]) => secretsIn(secrets, text).map((s) => `${s} in the ${name} log`));
	assert.deepEqual(leaks, []);
}

async function noSecretInAnyExecutionData(t: Tier): Promise<void> {
	const { rest, ids } = running(t);
	const secrets = secretsOf(t);
	const all = (await Promise.all(INSTANCES.map((inst) => executionsOf(rest, ids[inst])))).flat();
	const leaks: string[] = [];
	let withData = 0;
	let nextIndex = 0;
	const fetcher = async () => {
		while (nextIndex < all.length) {
			const e = all[nextIndex++];
			const res = await rest.raw('GET', `/executions/${e.id}`);
			if (res.status !== 200) throw new Error(`GET /rest/executions/${e.id} -> ${res.status}`);
			if (res.body.includes('On Message') || res.body.includes('On Media')) withData++;
			for (const s of secretsIn(secrets, res.body)) leaks.push(`${s} in execution ${e.id}`);
		}
	};
	await Promise.all(Array.from({ length: 8 }, fetcher));
	assert.equal(withData, all.length, `${all.length - withData} executions came without their data`);
	assert.deepEqual(leaks.slice(0, 10), [], `${leaks.length} leaks`);
	figure(`checked ${all.length} executions with their data`);
}

export const QUEUE_CHECKS: ReadonlyArray<NamedCheck<Tier>> = [
	{ name: 'npm pack builds the package and makes a tarball', run: packsTheTarball, gate: true },
	{ name: 'Postgres and Redis start on free loopback ports in a temporary folder (Postgres as the postgres user)', run: startsPostgresAndRedis, gate: true },
	{ name: 'n8n in queue mode: main (start) + 2 webhook processes + 2 workers start on one Postgres and Redis', run: startsTheCluster, gate: true },
	{ name: 'the owner logs in; the credentials and the three workflows are created over REST', run: ownerCreatesCredentialsAndWorkflows, gate: true },
	{ name: 'activation: the main process registers each trigger (Set Webhook recorded, the balancer URL, enabled)', run: activationRegistersEachTrigger, gate: true },
	{ name: 'both webhook processes serve the registered path and refuse a delivery without the secret (401)', run: bothWebhookProcessesRefuseADeliveryWithoutTheSecret },
	aDeliveryThroughWebhookProcessRunsOnAWorker(0, 'A'),
	aDeliveryThroughWebhookProcessRunsOnAWorker(1, 'B'),
	{
		name: "media: the trigger's binary (made in a webhook process) and Download Media's file on a worker both hash to the bytes sent",
		run: mediaMadeInAWebhookProcessAndDownloadedOnAWorkerHashToTheBytesSent,
	},
	{
		name: 'without the Redis step, the same delivery sent to both webhook processes at once runs twice and replies twice (the problem)',
		run: withoutTheDedupeStepADeliveryToBothProcessesRepliesTwice,
	},
	{
		name: 'with the Redis step, the same delivery sent to both webhook processes at once runs twice but replies once (counter 2)',
		run: withTheDedupeStepADeliveryToBothProcessesRepliesOnce,
	},
	burstUnderCpuLoadGetsOneReplyPerMessage,
	{
		name: 'the same delivery again, after webhook process A restarted (its memory empty): it runs, the counter says 3, still one reply',
		run: theSameDeliveryAfterAWebhookProcessRestartStillRepliesOnce,
	},
	chatReplyAfterWebhookRestart,
	redisOutageCheck,
	collectBurstAnswersOncePerBurst,
	chatMemoryAcrossWorkers,
	handOverStaysSilentAcrossProcesses,
	catchUpAcrossTheQueue,
	{ name: "deactivation deregisters: Set Webhook with enabled:false for each workflow, the sandbox's webhooks are off", run: deactivationDeregistersEachTrigger },
	{ name: 'no API key, instance token or webhook secret in any n8n process log, nor in the Postgres or Redis log', run: noSecretInAnyLog },
	{ name: 'no API key, instance token or webhook secret in the execution data of any run (every execution, with its data)', run: noSecretInAnyExecutionData },
];
