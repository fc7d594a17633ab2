import type { IncomingMessage, ServerResponse } from 'node:http';

import { WebhookContext } from 'n8n-core';
import type { IDataObject, INode, IWebhookResponseData, IWorkflowExecuteAdditionalData, Workflow, WorkflowExecuteMode } from 'n8n-workflow';

import { runDeliveryExecution, type ExecutionStaticData } from './deliveryExecution';
import { expressResponse, flatHeaders, kindOf, parseBody, readBody } from './webhookHttp';
import type { Received } from './webhookHttp';
import { TRIGGER_NODE_NAME, TriggerIds, triggerType, webhookData } from './triggerWorkflow';

/** A request to n8n's waiting webhooks (`/webhook-waiting/…`) and what it was answered. */
export interface WaitingRequest {
	link: string;
	body: unknown;
	status: number;
	answer: unknown;
}

/** What n8n's webhook server needs of one workflow to serve a delivery to its trigger. */
export interface WebhookEndpoint {
	readonly baseUrl: string;
	readonly ids: TriggerIds;
	readonly received: Received[];
	readonly waitingRequests: WaitingRequest[];
	/** The test plays n8n's waiting executions here; none: every waiting webhook is unknown. */
	waiting(): ((link: string, body: unknown) => Promise<{ status: number; body: unknown }>) | undefined;
	productionUrl(): string;
	testUrl(): string;
	/** Published (the production URL is registered). */
	active(): boolean;
	/** The static data of the test session; none: no test URL is registered. */
	testStaticData(): IDataObject | undefined;
	workflow(active: boolean, staticData?: IDataObject): Workflow;
	additionalData(extra: Partial<IWorkflowExecuteAdditionalData>): IWorkflowExecuteAdditionalData;
	/** n8n's database saving a production run's static data. */
	saveStaticData(staticData: IDataObject): void;
	/** Whether a production delivery's execution is run (deliveryExecution.ts), with which static data; undefined: it is not. */
	deliveryExecutions(): ExecutionStaticData | undefined;
	/** `handoff`: what webhook() hands n8n for the execution (see webhooks.ts). */
	checkNoSecrets(where: string, visible: Record<string, unknown>, handoff?: Record<string, unknown>): void;
	/** n8n ends the test session once its event started the (manual) run. */
	endTest(): void;
}

/**
 * One request to the workflow's webhook URLs as n8n's webhook server serves it: the body parsed
 * as JSON, the node's `webhook()` run through n8n-core's real WebhookContext, the answer as n8n's
 * webhook helpers give it (`onReceived`).
 */
export async function serveDelivery(endpoint: WebhookEndpoint, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = new URL(req.url ?? '/', endpoint.baseUrl);
	const kind = kindOf(url.pathname);
	const query = Object.fromEntries(url.searchParams.entries());
	const headers = flatHeaders(req);
	const raw = await readBody(req);
	const record: Received = {
		kind: kind ?? 'production',
		path: url.pathname,
		query,
		headers,
		body: raw,
		status: 0,
		response: undefined,
	};
	const reply = (status: number, body: unknown): void => {
		record.status = status;
		record.response = body;
		const text = body === undefined ? '' : JSON.stringify(body);
		res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
		res.end(text);
	};
	if (url.pathname.startsWith('/webhook-waiting/')) {
		let body: unknown = {};
		try {
			body = raw === '' ? {} : JSON.parse(raw);
		} catch {
			return reply(400, { message: 'Failed to parse request body' });
		}
		const waiting = endpoint.waiting();
		const answered = waiting
			? await waiting(url.toString(), body)
			: { status: 404, body: { message: 'The execution does not exist.' } };
		endpoint.waitingRequests.push({ link: url.toString(), body, status: answered.status, answer: answered.body });
		return reply(answered.status, answered.body);
	}
	const expectedPath = kind === 'test' ? new URL(endpoint.testUrl()).pathname : new URL(endpoint.productionUrl()).pathname;
	const testStaticData = endpoint.testStaticData();
	const listening = kind === 'test' ? testStaticData !== undefined : endpoint.active();
	if (req.method !== 'POST' || !kind || url.pathname !== expectedPath || !listening) {
		endpoint.received.push(record);
		return reply(404, { message: 'The requested webhook is not registered.' });
	}

	const parsed = parseBody(raw, headers);
	if (!parsed.ok) {
		endpoint.received.push(record);
		return reply(400, { message: 'Failed to parse request body' });
	}
	const body = parsed.body;
	record.body = body;
	endpoint.received.push(record);

	const workflow =
		kind === 'test' ? endpoint.workflow(false, {}) : endpoint.workflow(true);
	if (kind === 'test' && testStaticData) workflow.setTestStaticData(testStaticData);
	const node = workflow.getNode(TRIGGER_NODE_NAME) as INode;

	const response = expressResponse(reply);
	const request = {
		method: req.method,
		url: req.url,
		path: url.pathname,
		headers: req.headers,
		query,
		params: {},
		body,
		rawBody: Buffer.from(raw),
	};
	const additionalData = endpoint.additionalData({
		httpRequest: request,
		httpResponse: response,
	} as unknown as Partial<IWorkflowExecuteAdditionalData>);
	const mode: WorkflowExecuteMode = kind === 'test' ? 'manual' : 'webhook';
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		mode,
		webhookData(kind === 'test', additionalData, endpoint.ids),
		[],
		null,
	);

	let result: IWebhookResponseData;
	try {
		const webhook = triggerType().webhook;
		if (!webhook) throw new Error('The trigger has no webhook()');
		result = await webhook.call(context);
	} catch (error) {
		if (!response.headersSent) reply(500, { code: 0, message: 'Error in workflow' });
		record.response = { error: (error as Error).message };
		endpoint.checkNoSecrets('a delivery', { error, 'the answer': record.response });
		return;
	}
	record.answeredBy = response.headersSent ? 'node' : 'n8n';
	// n8n saves the static data the handler changed right after it returns, and only then
	// (`__dataChanged`); a test session's copy is never saved. Where the harness runs the
	// delivery's execution, it plays n8n 2.40.7: the handler's change is lost once an execution
	// starts, and what the execution changed is saved when it ends.
	record.staticDataChanged = (workflow.staticData as IDataObject).__dataChanged === true;
	const executes = kind === 'production' && result.workflowData !== undefined ? endpoint.deliveryExecutions() : undefined;
	if (kind === 'production' && executes === undefined) endpoint.saveStaticData(workflow.staticData);
	endpoint.checkNoSecrets(
		'a delivery',
		{ 'the answer': response.body ?? result.webhookResponse, 'the static data': workflow.staticData },
		{ 'the emitted items': result.workflowData },
	);

	const answered = result.noWebhookResponse === true || response.headersSent;
	if (answered && !response.headersSent) return reply(500, { message: 'The node answered nothing' });
	if (result.workflowData === undefined) {
		if (!answered) reply(200, result.webhookResponse ?? { message: 'Webhook call received' });
		return;
	}
	record.items = result.workflowData[0] ?? [];
	if (executes !== undefined) {
		// Run to its end before the answer, so that a test reads what it saved (n8n answers once the execution is recorded).
		const execution = await runDeliveryExecution(endpoint.workflow(true, executes === 'shared' ? workflow.staticData : undefined), record.items, endpoint.additionalData({}));
		if (execution.savedStaticData) endpoint.saveStaticData(execution.savedStaticData);
		record.execution = { items: execution.items, savedStaticData: execution.savedStaticData !== undefined };
		endpoint.checkNoSecrets("a delivery's execution", { 'the output': execution.items, 'the static data': execution.savedStaticData });
	}
	// n8n (webhook-helpers, `onReceived`): unless the node answered, the answer is the
	// description's `responseData`, by default the text "firstEntryJson".
	if (!answered) {
		const responseData = triggerType().description.webhooks?.[0]?.responseData ?? 'firstEntryJson';
		if (responseData === 'noData') reply(200, undefined);
		else reply(200, responseData || (result.webhookResponse ?? { message: 'Workflow was started' }));
	}
	if (kind === 'test') endpoint.endTest();
}
