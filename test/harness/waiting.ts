import { Container } from '@n8n/di';
import {
	generateUrlSignature,
	InstanceSettings,
	prepareUrlForSigning,
	WAITING_TOKEN_QUERY_PARAM,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { additionalDataFor } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { EXECUTION_ID, executionHooks, NODE_NAME, type NodeRun, type RunNodeOptions } from './engine';
import { ACTION_TYPE, nodeTypes, START_TYPE } from './nodeTypes';
import { assertNoSecrets, credentialSecrets } from './secrets';

/**
 * Stands where n8n stands for an execution that waits in a node's waiting webhook
 * (`/webhook-waiting/{execution}/{node id}`, served by n8n's WaitingWebhooks):
 *
 * - `openLink` checks the link as n8n 2.x does for a send-and-wait node (its HMAC signature
 *   over host, path and query, made with the instance's secret: a changed query is refused
 *   with 401), then runs the node's `webhook()` through n8n-core's real WebhookContext with
 *   the request, and records the page it answered and the items it gave;
 * - `resume` continues the stored execution with those items as n8n does (the waiting node
 *   is disabled and its input replaced by them, `waitTill` cleared), and `timeOut` continues
 *   it with `waitTill` still set, as n8n's wait tracker does when the limit passes.
 */

const BASE_URL = 'http://127.0.0.1:5678';

export interface LinkAnswer {
	status: number;
	headers: Record<string, string>;
	html: string;
	/** The items the node gave to resume the execution, when it took an answer. */
	workflowData?: INodeExecutionData[][];
	/** The node's JSON answer, when it answered with JSON (a chat reply posted by the trigger). */
	json?: unknown;
}

export interface ResumedRun {
	/** The waiting node's output in the resumed run. */
	items: INodeExecutionData[];
	run: IRun;
}

function workflowOf(options: RunNodeOptions): Workflow {
	const node: INode = {
		id: 'node',
		name: NODE_NAME,
		type: options.type ?? ACTION_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Sandbox' } },
	};
	const start: INode = { id: 'start', name: 'Start', type: START_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: '[{}]', files: '[]' } };
	return new Workflow({
		id: 'wf-test',
		name: 'engine test',
		nodes: [start, node],
		connections: { Start: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
}

/** Whether n8n 2.x takes the link: its `signature` is the HMAC of the rest of it. */
export function signatureValid(link: string): boolean {
	const url = new URL(link);
	const signature = url.searchParams.get(WAITING_TOKEN_QUERY_PARAM);
	if (!signature) return false;
	url.searchParams.delete(WAITING_TOKEN_QUERY_PARAM);
	return generateUrlSignature(prepareUrlForSigning(url), Container.get(InstanceSettings).hmacSignatureSecret) === signature;
}

/** The waiting links a text holds (the node's waiting webhook in this execution). */
export function waitingLinks(text: string): string[] {
	return [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]).filter((link) => link.includes('/webhook-waiting/'));
}

/**
 * Opens a link as a browser would: GET, or POST with the page's form, which is
 * multipart/form-data (n8n 2.41 refuses any other body for a custom form); n8n parses it to
 * `{ data: fields, files }`, a field given once as its value, a repeated one as a list.
 */
export async function openLink(options: RunNodeOptions, link: string, form?: Array<[string, string]>): Promise<LinkAnswer> {
	return await callWaitingWebhook(options, link, form === undefined ? undefined : { form });
}

/** Posts a JSON body to the link, as the Messaging Instance Trigger hands a chat reply over (n8n parses JSON bodies). */
export async function postJson(options: RunNodeOptions, link: string, json: unknown): Promise<LinkAnswer> {
	return await callWaitingWebhook(options, link, { json });
}

async function callWaitingWebhook(
	options: RunNodeOptions,
	link: string,
	post?: { form: Array<[string, string]> } | { json: unknown },
): Promise<LinkAnswer> {
	const form = post && 'form' in post ? post.form : undefined;
	const url = new URL(link);
	const expectedPath = `/webhook-waiting/${options.executionId ?? EXECUTION_ID}/node`;
	if (url.pathname !== expectedPath) return { status: 404, headers: {}, html: `no waiting webhook at ${url.pathname}` };
	if (!signatureValid(link)) return { status: 401, headers: {}, html: 'invalid signature (n8n renders form-invalid-token)' };

	const method = post === undefined ? 'GET' : 'POST';
	const body: IDataObject = {};
	for (const [name, value] of form ?? []) {
		const before = body[name];
		body[name] = before === undefined ? value : Array.isArray(before) ? [...(before as string[]), value] : [before as string, value];
	}
	const answer: LinkAnswer = { status: 200, headers: {}, html: '' };
	let sent = false;
	const res = {
		status(code: number) {
			answer.status = code;
			return res;
		},
		setHeader(name: string, value: string) {
			answer.headers[name.toLowerCase()] = value;
			return res;
		},
		send(html: unknown) {
			if (sent) throw new Error('The node answered twice');
			sent = true;
			answer.html = String(html);
			return res;
		},
		json(body: unknown) {
			if (sent) throw new Error('The node answered twice');
			sent = true;
			answer.json = body;
			answer.html = JSON.stringify(body);
			return res;
		},
	};
	const req = {
		method,
		url: `${url.pathname}${url.search}`,
		path: url.pathname,
		headers: {
			host: url.host,
			'user-agent': 'Mozilla/5.0 (test browser)',
			...(form ? { 'content-type': 'multipart/form-data; boundary=test' } : {}),
			...(post && 'json' in post ? { 'content-type': 'application/json' } : {}),
		},
		query: Object.fromEntries(url.searchParams.entries()),
		params: {},
		body: form ? { data: body, files: {} } : post && 'json' in post ? post.json : {},
		contentType: form ? 'multipart/form-data' : post && 'json' in post ? 'application/json' : undefined,
	};
	const credentialsHelper = new TestCredentialsHelper(options.credentials ? { messagingInstanceApi: options.credentials } : {});
	const additionalData = additionalDataFor(credentialsHelper, BASE_URL, {
		httpRequest: req,
		httpResponse: res,
		executionId: options.executionId ?? EXECUTION_ID,
	} as unknown as Partial<IWorkflowExecuteAdditionalData>);
	const workflow = workflowOf(options);
	const node = workflow.getNode(NODE_NAME) as INode;
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.find((webhook) => webhook.httpMethod === method && webhook.restartWebhook === true);
	if (!description || !nodeType.webhook) return { status: 404, headers: {}, html: `the node has no waiting ${method} webhook` };
	const webhookData = {
		webhookDescription: description,
		node: NODE_NAME,
		workflowId: 'wf-test',
		httpMethod: method,
		path: 'node',
		isTest: false,
		workflowExecuteAdditionalData: additionalData,
	} as IWebhookData;
	const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
	const result: IWebhookResponseData = await nodeType.webhook.call(context);
	if (!sent && result.noWebhookResponse) throw new Error('The node said it answered but sent nothing');
	if (!sent) answer.html = String(result.webhookResponse ?? 'Workflow was started');
	answer.workflowData = result.workflowData;
	assertNoSecrets('a waiting webhook', { answer, result }, credentialSecrets(options.credentials));
	return answer;
}

async function continueRun(options: RunNodeOptions, stored: IRun, prepare: (data: IRun['data']) => void): Promise<ResumedRun> {
	const data = JSON.parse(JSON.stringify(stored.data)) as IRun['data'];
	data.waitTill = stored.data.waitTill ? new Date(stored.data.waitTill) : undefined;
	prepare(data);
	const workflow = workflowOf(options);
	const { hooks, finished } = executionHooks(Object.values(workflow.nodes), options.executionId);
	const credentialsHelper = new TestCredentialsHelper(options.credentials ? { messagingInstanceApi: options.credentials } : {});
	const execute = new WorkflowExecute(
		additionalDataFor(credentialsHelper, options.baseUrl ?? BASE_URL, { hooks, executionId: options.executionId ?? EXECUTION_ID }),
		'manual',
		data,
	);
	await execute.processRunExecutionData(workflow);
	const run = await finished;
	const runs = run.data.resultData.runData[NODE_NAME] ?? [];
	const items = runs[runs.length - 1]?.data?.main?.[0] ?? [];
	assertNoSecrets('a resumed run', { items, run }, credentialSecrets(options.credentials));
	return { items, run };
}

/** n8n's waiting webhook took an answer: the execution goes on with the node's items. */
export async function resume(options: RunNodeOptions, waiting: NodeRun, workflowData: INodeExecutionData[][]): Promise<ResumedRun> {
	return await continueRun(options, waiting.run, (data) => {
		data.waitTill = undefined;
		const entry = data.executionData?.nodeExecutionStack[0];
		if (!entry || entry.node.name !== NODE_NAME) throw new Error('The execution does not wait in the node');
		entry.node.disabled = true;
		entry.data.main = workflowData;
	});
}

/** The limit passed without an answer: n8n's wait tracker starts the stored execution again. */
export async function timeOut(options: RunNodeOptions, waiting: NodeRun): Promise<ResumedRun> {
	return await continueRun(options, waiting.run, (data) => {
		if (!data.waitTill) throw new Error('The execution does not wait');
	});
}
