/**
 * The trigger's memory for a media delivery: the peak RSS of one delivery carrying a large
 * file as base64 inside the event (`webhookBase64`, Media as Binary on; default 150 MB),
 * above the process's RSS right before it, as a multiple of the file's size. Not a timed test.
 *
 * n8n hands webhook() the body already parsed (its body parser's cost, the text and the
 * parsed object, is n8n's and is in the baseline): so the figure is what the trigger adds —
 * its walk over the delivery, the strict decoding, and n8n's own prepareBinaryData. In n8n's
 * default binary mode that helper keeps the file and makes its base64 again (the file plus
 * its base64, 2.33×, is the floor); with BENCH_TRIGGER_MODE=filesystem it writes the file to
 * disk. A child process runs the trigger's webhook() from the source through n8n-core's real
 * WebhookContext, reads its own peak from the kernel (VmHWM, reset right before the delivery),
 * and checks the binary output against the file, byte for byte.
 *
 * `npx tsx bench/triggerMemory.ts` (BENCH_TRIGGER_MB=150, BENCH_TRIGGER_MAX_MB for the
 * trigger's Max File Size option, default the file's size rounded up). Linux only (/proc).
 */
import { fork } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import * as fs from 'node:fs';

import { Container } from '@n8n/di';
import { BinaryDataService, WebhookContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type { IDataObject, INode, INodeType, INodeTypes, IWebhookData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import { StoredCredentials, webhookAdditionalData } from './webhookContext';
import { peakProblem } from './memoryLimit';
import { mapNodeSources, setBinaryDataMode } from './nodeRun';

const MB = 1024 * 1024;
const FILE_MB = Number(process.env.BENCH_TRIGGER_MB || 150);
const FILE_BYTES = Math.round(FILE_MB * MB);
/** Bytes made at a time: a multiple of 3, so that the base64 of the pieces joins into the base64 of the file. */
const PIECE = 3 * MB;

const NODE_NAME = 'Messaging Instance Trigger';
const API_KEY = 'bench-trigger-memory-key-0123456789';
const WEBHOOK_ID = '0d6f1c2e-7a3b-4e5f-9c8d-1b2a3c4d5e6f';
const BASE_URL = 'http://127.0.0.1:5678';

/** The file, piece by piece: a cheap pattern that does not compress into anything. */
function pieceOf(index: number, total: number): Buffer {
	const piece = Buffer.allocUnsafe(Math.min(PIECE, total - index * PIECE));
	let x = (index + 7) * 2654435761;
	for (let i = 0; i < piece.length; i++) {
		x = (x * 1103515245 + 12345) >>> 0;
		piece[i] = x >>> 24;
	}
	return piece;
}

/** The file's base64 (one flat string, as JSON.parse makes it) and its hash. */
function fileOf(bytes: number): { base64: string; hash: string } {
	const hash = createHash('sha256');
	const parts: string[] = [];
	for (let i = 0; i * PIECE < bytes; i++) {
		const piece = pieceOf(i, bytes);
		hash.update(piece);
		parts.push(piece.toString('base64'));
	}
	return { base64: parts.join(''), hash: hash.digest('hex') };
}

function peakOfProcess(): number {
	return Number(/VmHWM:\s+(\d+)\s*kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
}

interface ChildResult {
	baselineRss: number;
	peakRss: number;
	status?: number;
	error?: string;
	outputBytes?: number;
	exact?: boolean;
}

/** A MESSAGES_UPSERT delivery of a document with the file inside, as a v2 server sends it. */
function delivery(id: string, base64: string): IDataObject {
	return {
		event: 'messages.upsert',
		instance: 'demo',
		data: {
			key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id },
			pushName: 'Ana',
			status: 'DELIVERY_ACK',
			message: {
				documentMessage: { mimetype: 'application/octet-stream', fileName: 'big.bin', fileLength: String(FILE_BYTES), caption: 'a file' },
				base64,
			},
			messageType: 'documentMessage',
			messageTimestamp: Math.floor(Date.now() / 1000),
			instanceId: 'inst-1',
			source: 'web',
		},
		destination: `${BASE_URL}/webhook/${WEBHOOK_ID}/webhook`,
		date_time: new Date().toISOString(),
		sender: '5511000000000@s.whatsapp.net',
		server_url: 'http://127.0.0.1:8080',
		apikey: 'B6D711FCDE4D4FD5936544120E713976',
	};
}

async function child(): Promise<void> {
	const mode = process.env.BENCH_TRIGGER_MODE === 'filesystem' ? 'filesystem' : 'default';
	mapNodeSources();
	const { MessagingInstanceTrigger } = require('../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node') as {
		MessagingInstanceTrigger: new () => INodeType;
	};
	const binaryMode = await setBinaryDataMode(mode);
	const type = new MessagingInstanceTrigger();
	const nodeTypes: INodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
	const maxMb = Number(process.env.BENCH_TRIGGER_MAX_MB || Math.ceil(FILE_MB) + 1);
	const node: INode = {
		id: 'trigger-node',
		name: NODE_NAME,
		type: 'n8n-nodes-messaging-instance.messagingInstanceTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { instance: 'demo', events: ['MESSAGES_UPSERT'], options: { mediaAsBinary: true, maxFileSizeMb: maxMb } },
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Bench' } },
		webhookId: WEBHOOK_ID,
	};
	const workflow = new Workflow({
		id: 'wf-trigger-memory',
		name: 'trigger memory bench',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: {},
		settings: { executionOrder: 'v1' },
	});
	// The webhook secret the trigger derives for this workflow and node (nodes/MessagingInstanceTrigger/secret.ts).
	const secret = createHmac('sha256', API_KEY)
		.update(JSON.stringify(['messaging-instance-trigger/webhook-secret/v1', workflow.id, node.id, node.webhookId]))
		.digest('base64url');
	const credentials = new StoredCredentials({ messagingInstanceApi: { baseUrl: 'http://127.0.0.1:8080', apiKey: API_KEY, dialect: 'v2' } });

	/** One delivery through webhook(), as n8n's webhook server runs it for a request. */
	const deliver = async (body: IDataObject) => {
		let status = 200;
		const response = {
			statusCode: 200,
			headersSent: false,
			status: (code: number) => ((status = code), response),
			json: () => response,
			send: () => response,
			end: () => response,
			setHeader: () => response,
			header: () => response,
		};
		const additionalData = webhookAdditionalData(credentials, BASE_URL, {
			httpRequest: {
				method: 'POST',
				url: `${BASE_URL}/webhook/${WEBHOOK_ID}/webhook?secret=${secret}`,
				path: `/webhook/${WEBHOOK_ID}/webhook`,
				headers: { 'content-type': 'application/json', host: '127.0.0.1:5678' },
				query: { secret },
				params: {},
				body,
				// n8n keeps the request's bytes too; the trigger does not read them.
				rawBody: Buffer.alloc(0),
			},
			httpResponse: response,
		} as unknown as Pick<IWorkflowExecuteAdditionalData, 'httpRequest' | 'httpResponse'>);
		const webhookData = {
			webhookDescription: type.description.webhooks![0],
			node: NODE_NAME,
			workflowId: workflow.id,
			httpMethod: 'POST',
			path: `${WEBHOOK_ID}/webhook`,
			webhookId: WEBHOOK_ID,
			isTest: false,
			workflowExecuteAdditionalData: additionalData,
		} as unknown as IWebhookData;
		const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
		const result = await type.webhook!.call(context);
		return { status, binary: result.workflowData?.[0]?.[0]?.binary?.data };
	};

	// Warm up on the same path (modules, code caches) with a small file, then measure from a clean heap.
	const warm = await deliver(delivery('3AWARM', pieceOf(0, 3000).toString('base64')));
	if (!warm.binary) throw new Error(`the warm-up delivery gave no file (HTTP ${warm.status})`);
	const file = fileOf(FILE_BYTES);
	const body = delivery('3ABIGFILE', file.base64);
	(globalThis as { gc?: () => void }).gc?.();
	fs.writeFileSync('/proc/self/clear_refs', '5');
	const baselineRss = process.memoryUsage().rss;
	let result: Awaited<ReturnType<typeof deliver>> | undefined;
	let error: string | undefined;
	try {
		result = await deliver(body);
	} catch (thrown) {
		error = (thrown as Error).message;
	}
	const peakRss = peakOfProcess();
	const binary = result?.binary;
	const bytes = !binary ? undefined : binary.id ? await Container.get(BinaryDataService).getAsBuffer(binary) : Buffer.from(binary.data, 'base64');
	binaryMode.close();
	const outcome: ChildResult = {
		baselineRss,
		peakRss,
		status: result?.status,
		error: error ?? (binary ? undefined : `no binary data (HTTP ${result?.status})`),
		outputBytes: bytes?.length,
		exact: bytes ? createHash('sha256').update(bytes).digest('hex') === file.hash && bytes.length === FILE_BYTES : undefined,
	};
	process.send?.(outcome);
}

async function main(): Promise<void> {
	if (!fs.existsSync('/proc/self/status')) throw new Error('This bench reads /proc: Linux only');
	const started = fork(__filename, [], {
		execArgv: ['--import', 'tsx', '--expose-gc'],
		env: { ...process.env, BENCH_TRIGGER_CHILD: '1' },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const result = await new Promise<ChildResult>((resolve, reject) => {
		started.once('message', (message) => resolve(message as ChildResult));
		started.once('exit', (code) => reject(new Error(`the child exited (${code}) without a result`)));
	});
	started.kill();
	const above = result.peakRss - result.baselineRss;
	console.log(
		[
			`Trigger media delivery, one ${FILE_MB} MB file as base64 in the event, n8n ${process.env.BENCH_TRIGGER_MODE === 'filesystem' ? 'filesystem' : 'default (in-memory)'} binary mode:`,
			`  baseline RSS ${(result.baselineRss / MB).toFixed(0)} MB (the parsed delivery in it), peak ${(result.peakRss / MB).toFixed(0)} MB, ` +
				`peak above baseline ${(above / MB).toFixed(0)} MB = ${(above / FILE_BYTES).toFixed(2)}× the file`,
			`  output: ${result.error ? `error: ${result.error}` : `${result.outputBytes} bytes, ${result.exact ? 'byte-exact' : 'NOT the file'}`}`,
		].join('\n'),
	);
	if (result.error || !result.exact) process.exitCode = 1;
	const problem = peakProblem(`Trigger media delivery (${process.env.BENCH_TRIGGER_MODE === 'filesystem' ? 'filesystem' : 'in-memory'} mode)`, above / FILE_BYTES);
	if (problem) {
		console.error(`✗ ${problem}`);
		process.exitCode = 1;
	}
	// Run by bench/memoryBench.ts (npm run bench): the figures for its table.
	process.send?.({ ratio: above / FILE_BYTES, fileBytes: FILE_BYTES, ok: !result.error && result.exact === true, error: result.error });
}

if (process.env.BENCH_TRIGGER_CHILD === '1') {
	child().catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
