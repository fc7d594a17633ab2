/**
 * Part 2: trigger overhead. Runs as a child process under the Node of the pinned n8n runtime
 * (Node 24), on the compiled trigger in dist/ (what n8n loads), with n8n-core's real
 * WebhookContext built per delivery, as n8n builds one per request.
 *
 * Per delivery, interleaved round by round over the same pre-built bodies:
 * - "JSON.parse": n8n's body parser alone (the floor);
 * - "parse + context": plus n8n-core's WebhookContext (n8n's cost, not the package's);
 * - "parse + context + trigger": plus the node's webhook() — the credential read and the
 *   derived secret's check, the one bounded walk that parses and redacts the delivery,
 *   filters, dedupe, the item. The trigger's own cost is the difference to "parse + context".
 * With media: the same for a delivery carrying a 1 MB file as base64 (`webhookBase64`),
 * with Media as Binary off (base64 stays in the JSON) and on (a binary property).
 *
 * Prints one JSON object on IPC: { text: [...], media: [...], checks }.
 */
import { createHmac, randomBytes } from 'node:crypto';
import * as path from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService, WebhookContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type { IDataObject, INode, INodeParameters, INodeType, INodeTypes, IWebhookData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import { upsertData } from '../sandbox/messages';
import { StoredCredentials, webhookAdditionalData } from './webhookContext';

// Binary data in memory, n8n's default mode.
Container.set(BinaryDataService, new BinaryDataService({ mode: 'default' } as never, {} as never, {} as never));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TEXT_DELIVERIES = Number(process.env.BENCH_TRIGGER_DELIVERIES ?? 20000);
const MEDIA_DELIVERIES = Number(process.env.BENCH_TRIGGER_MEDIA ?? 20);
const MEDIA_BYTES = 1024 * 1024;

const REPO = path.resolve(__dirname, '..');
const NODE_NAME = 'Messaging Instance Trigger';
const API_KEY = randomBytes(16).toString('hex').toUpperCase();
const TOKEN = 'B6D711FCDE4D4FD5936544120E713976';
const WEBHOOK_ID = '9a0c1e52-5d6b-4c47-9b0e-0f3a7d1c2b11';

/**
 * BENCH_TRIGGER_COMPARE=<checkout>: also time the trigger built in another checkout (its
 * dist/, e.g. an earlier commit in a `git worktree`), interleaved with this one in the same
 * process, so that a change is measured against its base under the same load.
 */
const COMPARE = process.env.BENCH_TRIGGER_COMPARE;

function loadTrigger(root: string): INodeType {
	/* eslint-disable-next-line @typescript-eslint/no-require-imports */
	const { MessagingInstanceTrigger } = require(path.join(root, 'dist/nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node.js')) as {
		MessagingInstanceTrigger: new () => INodeType;
	};
	const trigger = new MessagingInstanceTrigger();
	if (typeof trigger.webhook !== 'function') throw new Error(`the compiled trigger in ${root} has no webhook()`);
	return trigger;
}

const nodeType = loadTrigger(REPO);
const compareType = COMPARE ? loadTrigger(path.resolve(COMPARE)) : undefined;

function nodeTypesOf(type: INodeType): INodeTypes {
	return { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
}

// The trigger reads its credential per delivery (its webhook secret is derived from the API key).
const credentialsHelper = new StoredCredentials({
	messagingInstanceApi: { baseUrl: 'http://127.0.0.1:8080', apiKey: API_KEY, dialect: 'v2' },
});

/** The webhook secret the trigger derives for this workflow and node (nodes/MessagingInstanceTrigger/secret.ts). */
function secretOf(workflowId: string, node: INode): string {
	return createHmac('sha256', API_KEY)
		.update(JSON.stringify(['messaging-instance-trigger/webhook-secret/v1', workflowId, node.id, node.webhookId]))
		.digest('base64url');
}

interface BenchWorkflow {
	workflow: Workflow;
	node: INode;
	query: Record<string, string>;
	type: INodeType;
}

function makeWorkflow(options: IDataObject, type: INodeType = nodeType): BenchWorkflow {
	const node: INode = {
		id: 'trigger-node',
		name: NODE_NAME,
		type: 'n8n-nodes-messaging-instance.messagingInstanceTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { instance: 'demo', events: ['MESSAGES_UPSERT'], options: options as INodeParameters },
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Sandbox' } },
		webhookId: WEBHOOK_ID,
	};
	const workflow = new Workflow({
		id: `wf-bench-${type === nodeType ? '' : 'compare-'}${JSON.stringify(options)}`,
		name: 'trigger bench',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: nodeTypesOf(type),
		staticData: {},
		settings: { executionOrder: 'v1' },
	});
	return { workflow, node, query: { secret: secretOf(workflow.id, node) }, type };
}

const baseUrl = 'http://127.0.0.1:5678';
const destination = `${baseUrl}/webhook/${WEBHOOK_ID}/webhook?secret=as-registered`;
const headers = { 'content-type': 'application/json', host: '127.0.0.1:5678' };

function envelope(data: Record<string, unknown>): string {
	return JSON.stringify({
		event: 'messages.upsert',
		instance: 'demo',
		data,
		destination,
		date_time: new Date().toISOString(),
		sender: '5511000000000@s.whatsapp.net',
		server_url: 'http://127.0.0.1:8080',
		apikey: TOKEN,
	});
}

interface Response {
	statusCode: number;
	headersSent: boolean;
	status(code: number): Response;
	json(body: unknown): Response;
	send(body?: unknown): Response;
	end(body?: unknown): Response;
	setHeader(): Response;
	header(): Response;
}

function response(): Response {
	const r: Response = {
		statusCode: 200,
		headersSent: false,
		status: (code) => ((r.statusCode = code), r),
		json: () => ((r.headersSent = true), r),
		send: () => ((r.headersSent = true), r),
		end: () => ((r.headersSent = true), r),
		setHeader: () => r,
		header: () => r,
	};
	return r;
}

/** The delivery as n8n's webhook server hands it over. */
function additionalData(body: unknown, rawBody: string, query: Record<string, string>): IWorkflowExecuteAdditionalData {
	return webhookAdditionalData(credentialsHelper, baseUrl, {
		httpRequest: { method: 'POST', url: destination, path: `/webhook/${WEBHOOK_ID}/webhook`, headers, query, params: {}, body, rawBody: Buffer.from(rawBody) },
		httpResponse: response(),
	} as unknown as Pick<IWorkflowExecuteAdditionalData, 'httpRequest' | 'httpResponse'>);
}

function context({ workflow, node, query, type }: BenchWorkflow, body: unknown, raw: string): WebhookContext {
	const data = additionalData(body, raw, query);
	const webhookData = {
		webhookDescription: type.description.webhooks![0],
		node: NODE_NAME,
		workflowId: workflow.id,
		httpMethod: 'POST',
		path: `${WEBHOOK_ID}/webhook`,
		webhookId: WEBHOOK_ID,
		isTest: false,
		workflowExecuteAdditionalData: data,
	} as unknown as IWebhookData;
	return new WebhookContext(workflow, node, data, 'webhook', webhookData, [], null);
}

type Variant = (raw: string) => Promise<number> | number;

/**
 * BENCH_CLOCK=cpu: time by this process's CPU time (user + system, all its threads) instead
 * of the wall clock; on a machine shared with other work, waiting for a core then counts for
 * nothing (nothing here waits on I/O, so the two agree on an idle machine).
 */
const CPU_CLOCK = process.env.BENCH_CLOCK === 'cpu';

function nowUs(): number {
	if (!CPU_CLOCK) return Number(process.hrtime.bigint()) / 1e3;
	const { user, system } = process.cpuUsage();
	return user + system;
}

/** Runs `fn` over all bodies; returns µs per delivery and how many emitted an item. */
async function timeVariant(bodies: string[], fn: Variant): Promise<{ us: number; emitted: number }> {
	let emitted = 0;
	const t0 = nowUs();
	for (const raw of bodies) emitted += await fn(raw);
	return { us: (nowUs() - t0) / bodies.length, emitted };
}

async function runTrigger(bench: BenchWorkflow, raw: string): Promise<number> {
	const body = JSON.parse(raw) as unknown;
	const ctx = context(bench, body, raw);
	const result = await bench.type.webhook!.call(ctx);
	const items = result.workflowData?.[0] ?? [];
	return items.length;
}

async function runMediaAsBinary(bench: BenchWorkflow, raw: string, checks: string[]): Promise<number> {
	const body = JSON.parse(raw) as unknown;
	const result = await bench.type.webhook!.call(context(bench, body, raw));
	const item = result.workflowData?.[0]?.[0];
	if (!item?.binary || Object.keys(item.binary).length !== 1) checks.push('media delivery produced no binary property');
	return item ? 1 : 0;
}

let sink = 0;

async function main(): Promise<void> {
	// ---------------------------------------------------------------- text deliveries
	const text = makeWorkflow({});
	const makeBodies = (round: number) =>
		Array.from({ length: TEXT_DELIVERIES }, (_, i) =>
			envelope(
				upsertData(
					{ from: `5511${String(900000000 + i)}`, text: `Hello number ${i}`, pushName: 'Ana', id: `3A${round}R${i.toString(16).toUpperCase().padStart(16, '0')}` },
					'inst-1',
					false,
				),
			),
		);
	const textVariants: Record<string, (round: number) => Variant> = {
		'JSON.parse': () => (raw) => {
			sink += (JSON.parse(raw) as { data: unknown }).data ? 1 : 0;
			return 0;
		},
		'parse + n8n WebhookContext': () => (raw) => {
			const body = JSON.parse(raw) as unknown;
			sink += context(text, body, raw) ? 1 : 0;
			return 0;
		},
		'parse + context + trigger webhook()': () => (raw) => runTrigger(text, raw),
	};
	const textCompare = compareType ? makeWorkflow({}, compareType) : undefined;
	if (textCompare) textVariants['parse + context + trigger webhook() (compare)'] = () => (raw) => runTrigger(textCompare, raw);
	const textResults: Record<string, number[]> = {};
	const checks: string[] = [];
	// warm-up (JIT), distinct ids so that later rounds are not duplicates
	{
		const warm = makeBodies(999).slice(0, 2000);
		for (const v of Object.values(textVariants)) await timeVariant(warm, v(999));
	}
	for (let round = 0; round < ROUNDS; round++) {
		const bodies = makeBodies(round);
		const names = Object.keys(textVariants);
		for (let k = 0; k < names.length; k++) {
			const name = names[(k + round) % names.length];
			const { us, emitted } = await timeVariant(bodies, textVariants[name](round));
			(textResults[name] ??= []).push(us);
			if (name.includes('trigger') && emitted !== bodies.length) {
				checks.push(`round ${round}: the trigger emitted ${emitted} items for ${bodies.length} distinct deliveries`);
			}
		}
	}
	const textBytes = Buffer.byteLength(makeBodies(0)[0]);

	// ---------------------------------------------------------------- media deliveries
	const bin = makeWorkflow({ mediaAsBinary: true });
	const inJson = makeWorkflow({ mediaAsBinary: false });
	const file = randomBytes(MEDIA_BYTES).toString('base64');
	const mediaBodies = (round: number) =>
		Array.from({ length: MEDIA_DELIVERIES }, (_, i) =>
			envelope(
				upsertData(
					{
						from: '5511988887777',
						pushName: 'Ana',
						id: `3AM${round}R${i.toString(16).toUpperCase().padStart(14, '0')}`,
						media: { kind: 'image', mimetype: 'image/jpeg', base64: file, caption: 'a photo' },
					},
					'inst-1',
					true,
				),
			),
		);
	const mediaVariants: Record<string, Variant> = {
		'JSON.parse': (raw) => {
			sink += (JSON.parse(raw) as { data: unknown }).data ? 1 : 0;
			return 0;
		},
		'parse + Buffer.from(base64)': (raw) => {
			const body = JSON.parse(raw) as { data: { message: { base64: string } } };
			sink += Buffer.from(body.data.message.base64, 'base64').length;
			return 0;
		},
		'parse + context + trigger, media left in JSON': (raw) => runTrigger(inJson, raw),
		'parse + context + trigger, media as binary': (raw) => runMediaAsBinary(bin, raw, checks),
	};
	if (compareType) {
		const inJsonCompare = makeWorkflow({ mediaAsBinary: false }, compareType);
		const binCompare = makeWorkflow({ mediaAsBinary: true }, compareType);
		mediaVariants['parse + context + trigger, media left in JSON (compare)'] = (raw) => runTrigger(inJsonCompare, raw);
		mediaVariants['parse + context + trigger, media as binary (compare)'] = (raw) => runMediaAsBinary(binCompare, raw, checks);
	}
	const mediaResults: Record<string, number[]> = {};
	{
		const warm = mediaBodies(999).slice(0, 3);
		for (const v of Object.values(mediaVariants)) await timeVariant(warm, v);
	}
	for (let round = 0; round < ROUNDS; round++) {
		const bodies = mediaBodies(round);
		const names = Object.keys(mediaVariants);
		for (let k = 0; k < names.length; k++) {
			const name = names[(k + round) % names.length];
			const { us, emitted } = await timeVariant(bodies, mediaVariants[name]);
			(mediaResults[name] ??= []).push(us);
			if (name.includes('trigger') && emitted !== bodies.length) {
				checks.push(`media round ${round} (${name}): emitted ${emitted} of ${bodies.length}`);
			}
		}
	}
	const mediaBytes = Buffer.byteLength(mediaBodies(0)[0]);

	const out = {
		node: process.version,
		textDeliveries: TEXT_DELIVERIES,
		textBytes,
		text: textResults,
		mediaDeliveries: MEDIA_DELIVERIES,
		mediaBytes,
		fileBytes: MEDIA_BYTES,
		media: mediaResults,
		checks,
		sink,
	};
	if (process.send) process.send(out);
	else console.log(JSON.stringify(out, null, 2));
}

main().then(
	() => process.exit(0),
	(error: Error) => {
		if (process.send) process.send({ error: error.stack ?? String(error) });
		else console.error(error);
		process.exit(1);
	},
);
