import type { Server } from 'node:http';

import { Container } from '@n8n/di';
import { BinaryDataService, TriggerContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	ITriggerResponse,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { TestCredentialsHelper } from './credentialsHelper';
import { additionalDataFor } from './additionalData';
import { assertNoSecrets, credentialSecrets } from './secrets';
import { closeServer, listen, postJson } from './webhookHttp';
import type { Received, WebhookKind } from './webhookHttp';
import {
	DEFAULT_IDS,
	HookMethod,
	TRIGGER_NODE_NAME,
	TriggerIds,
	clone,
	persistable,
	runHook,
	triggerNode,
	triggerType,
	triggerWorkflow,
	webhookPathOf,
} from './triggerWorkflow';
import type { ExecutionStaticData } from './deliveryExecution';
import { serveDelivery } from './webhookDelivery';
import type { WaitingRequest, WebhookEndpoint } from './webhookDelivery';
import { deriveSecret } from '../../nodes/shared/secret';

/**
 * Stands where n8n's webhook machinery stands for a webhook trigger (the HTTP plumbing is in
 * ./webhookHttp.ts, the workflow and its hooks in ./triggerWorkflow.ts, serving a delivery in
 * ./webhookDelivery.ts):
 *
 * - activation, deactivation, restart and "Listen for test event" run the node's
 *   `webhookMethods.default.checkExists/create/delete` through n8n-core's real HookContext, with
 *   the modes n8n uses (activation: 'trigger' + 'activate'/'init'; deactivation: 'internal' +
 *   'update'; test: 'manual' + 'manual', and 'internal' + 'update' when the test ends);
 * - a node:http server receives the deliveries at the production (`/webhook/…`) and test
 *   (`/webhook-test/…`) URLs, parses the body as JSON as n8n does, and runs the node's
 *   `webhook()` through n8n-core's real WebhookContext, answering as n8n's webhook helpers do
 *   (`onReceived`: 200 "Workflow was started" when items were emitted, the node's own answer
 *   when it sent one, 200 with `webhookResponse` or "Webhook call received" otherwise);
 * - static data persists like n8n's database: each operation (and each production delivery)
 *   builds a fresh Workflow from the stored static data and stores it back afterwards; a test session keeps its own copy
 *   (n8n caches it with the test registration and never saves it).
 */

// Binary data in memory, as n8n's default mode keeps it: no manager, base64 in the item.
Container.set(
	BinaryDataService,
	new BinaryDataService({ mode: 'default' } as never, {} as never, {} as never),
);

export { TRIGGER_NODE_NAME };
export type { Received, WebhookKind };

export interface TriggerSetup {
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	/** The trigger's saved version; 1 unless given. */
	typeVersion?: number;
	/** The workflow, node and webhook ids; a second workflow on the same n8n gives its own. */
	ids?: TriggerIds;
	/** Another workflow of the same n8n: this one is served on that harness's address (its own ids needed). */
	sameN8nAs?: TriggerHarness;
	/**
	 * Runs each production delivery's execution (the trigger's execute() on its items, through
	 * n8n-core) with this static data, saving what n8n saves (./deliveryExecution.ts); without
	 * it, the handler's static data is saved and no execution runs.
	 */
	deliveryExecutions?: ExecutionStaticData;
}

export class TriggerHarness {
	/** The workflow's static data as n8n's database holds it. */
	persistedStaticData: IDataObject = {};
	active = false;
	readonly received: Received[] = [];
	readonly credentialsHelper: TestCredentialsHelper;
	/**
	 * n8n's waiting webhooks on the same address (`/webhook-waiting/…`), where a trigger hands a
	 * chat reply to a waiting execution: the test plays n8n there (waiting.ts `postJson`).
	 */
	waiting?: (link: string, body: unknown) => Promise<{ status: number; body: unknown }>;
	/** The requests to the waiting webhooks, oldest first. */
	readonly waitingRequests: WaitingRequest[] = [];
	private testStaticData?: IDataObject;
	private pending = new Set<Promise<unknown>>();
	private parameters: INodeParameters;
	private readonly typeVersion: number;
	readonly ids: TriggerIds;

	private constructor(
		private readonly server: Server,
		readonly baseUrl: string,
		private readonly setup: TriggerSetup,
		/** The workflows this n8n serves (one list shared by the harnesses on one address). */
		private readonly workflows: TriggerHarness[],
	) {
		this.parameters = setup.parameters;
		this.typeVersion = setup.typeVersion ?? 1;
		this.ids = setup.ids ?? DEFAULT_IDS;
		this.credentialsHelper = new TestCredentialsHelper({ messagingInstanceApi: setup.credentials });
	}

	/** A credential's secrets and the webhook secret derived from its key for this node. */
	private secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
		const secrets = credentialSecrets(credentials);
		const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
		const derived = deriveSecret(apiKey, this.ids);
		return derived ? [...secrets, derived] : secrets;
	}

	/** The current credential's secrets, and those of every credential value n8n handed the node before. */
	private secrets(): string[] {
		return [...this.handedSecrets(), ...this.secretsOf(this.setup.credentials)];
	}

	/** The secrets of every credential value n8n handed the node so far: what it can know. */
	private handedSecrets(): string[] {
		return this.credentialsHelper.handedOut.flatMap((credentials) => this.secretsOf(credentials));
	}

	/**
	 * The suite-wide check (secrets.ts): nothing the trigger left visible holds a secret.
	 * `handoff` is what webhook() hands n8n for the execution it starts (n8n keeps it in the
	 * execution's row until the execution has run): it must hold no secret the node was given;
	 * the credential's current key, changed since, is the execution's to hide (its output is
	 * checked against it).
	 */
	private checkNoSecrets(where: string, visible: Record<string, unknown> = {}, handoff: Record<string, unknown> = {}): void {
		assertNoSecrets(
			where,
			{ ...visible, 'the stored static data': this.persistedStaticData, 'the test static data': this.testStaticData },
			this.secrets(),
		);
		if (Object.keys(handoff).length > 0) assertNoSecrets(where, handoff, this.handedSecrets());
	}

	static async start(setup: TriggerSetup): Promise<TriggerHarness> {
		const other = setup.sameN8nAs;
		if (other) {
			const harness = new TriggerHarness(other.server, other.baseUrl, setup, other.workflows);
			other.workflows.push(harness);
			return harness;
		}
		const workflows: TriggerHarness[] = [];
		const { server, baseUrl } = await listen((req, res) => {
			// n8n finds the workflow by the webhook id in the path; an unknown path goes to the first (404 there).
			const path = new URL(req.url ?? '/', baseUrl).pathname;
			const harness = workflows.find((each) => path.includes(`/${webhookPathOf(each.ids)}`)) ?? workflows[0];
			if (harness) void serveDelivery(harness.endpoint(), req, res);
		});
		const harness = new TriggerHarness(server, baseUrl, setup, workflows);
		workflows.push(harness);
		return harness;
	}

	/** The credential edited in n8n (takes effect at the next read: a delivery, an activation). */
	setCredentials(values: ICredentialDataDecryptedObject): void {
		Object.assign(this.setup.credentials, values);
	}

	/** The items of every delivery that started a workflow, oldest first. */
	get emitted(): INodeExecutionData[] {
		return this.received.flatMap((r) => r.items ?? []);
	}

	get testListening(): boolean {
		return this.testStaticData !== undefined;
	}

	/** The node's slice of the persisted static data. */
	get nodeStaticData(): IDataObject {
		return (this.persistedStaticData[`node:${TRIGGER_NODE_NAME}`] as IDataObject) ?? {};
	}

	/** Editing the node in the editor (takes effect at the next activation / delivery). */
	setParameters(parameters: INodeParameters): void {
		this.parameters = parameters;
	}

	productionUrl(): string {
		return `${this.baseUrl}/webhook/${webhookPathOf(this.ids)}`;
	}

	testUrl(): string {
		return `${this.baseUrl}/webhook-test/${webhookPathOf(this.ids)}`;
	}

	/**
	 * The node's trigger() as n8n starts it at publish and on every start (mode 'trigger'),
	 * through n8n-core's real TriggerContext. Its emits play n8n's: the static data is saved,
	 * and an execution whose deduplication key an earlier one had is refused (n8n's unique
	 * column of executions). After trigger() answers, the static data is saved (as n8n's
	 * activation does).
	 */
	async startTrigger(activation: WorkflowActivateMode): Promise<ITriggerResponse & { settled?: Promise<void> }> {
		const workflow = this.workflow(true);
		const node = workflow.getNode(TRIGGER_NODE_NAME) as INode;
		const emit = (data: INodeExecutionData[][], _response?: unknown, done?: { resolve(value: unknown): void }, deduplicationKey?: string): void => {
			this.persistedStaticData = persistable(workflow.staticData);
			if (deduplicationKey !== undefined && this.executionKeys.has(deduplicationKey)) {
				this.refusedExecutions.push(deduplicationKey);
				done?.resolve(undefined);
				return;
			}
			if (deduplicationKey !== undefined) this.executionKeys.add(deduplicationKey);
			this.executions.push({ items: data[0] ?? [], deduplicationKey });
			this.checkNoSecrets('an execution the trigger emitted', { items: data });
			done?.resolve({});
		};
		const failed = (error: Error): void => {
			this.failedExecutions.push(error);
			this.checkNoSecrets('a failed execution the trigger saved', { error });
		};
		const context = new TriggerContext(workflow, node, this.additionalData(), 'trigger', activation, emit as never, failed as never, failed as never);
		const fn = triggerType().trigger;
		if (!fn) throw new Error('The trigger has no trigger()');
		const response = (await fn.call(context)) ?? {};
		this.persistedStaticData = persistable(workflow.staticData);
		return response;
	}

	/** The executions trigger() emitted (the catch-up), oldest first. */
	readonly executions: Array<{ items: INodeExecutionData[]; deduplicationKey?: string }> = [];
	/** The deduplication keys n8n refused a second execution for. */
	readonly refusedExecutions: string[] = [];
	/** What trigger() saved as failed executions. */
	readonly failedExecutions: Error[] = [];
	private readonly executionKeys = new Set<string>();

	/** Activating the workflow (or n8n starting with it active: activation 'init'). */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<{ created: boolean }> {
		const workflow = this.workflow(true);
		const exists = await this.hook(workflow, 'checkExists', 'trigger', activation, false);
		if (!exists) await this.hook(workflow, 'create', 'trigger', activation, false);
		this.persistedStaticData = persistable(workflow.staticData);
		this.active = true;
		return { created: !exists };
	}

	/** n8n restarting: the active workflow is added again with activation 'init'. */
	async restart(): Promise<{ created: boolean }> {
		return await this.activate('init');
	}

	async deactivate(): Promise<void> {
		const workflow = this.workflow(false);
		await this.hook(workflow, 'delete', 'internal', 'update', false);
		this.persistedStaticData = persistable(workflow.staticData);
		this.active = false;
	}

	/** "Listen for test event": registers the test URL with a copy of the stored static data. */
	async listenForTest(): Promise<void> {
		const workflow = this.workflow(false);
		const exists = await this.hook(workflow, 'checkExists', 'manual', 'manual', true);
		if (!exists) await this.hook(workflow, 'create', 'manual', 'manual', true);
		this.testStaticData = clone(workflow.staticData);
	}

	/** The test ends (an event was received, the user stopped it, or it timed out). */
	async stopTest(): Promise<void> {
		const staticData = this.testStaticData;
		if (!staticData) return;
		this.testStaticData = undefined;
		const workflow = this.workflow(false);
		workflow.staticData = staticData;
		await this.hook(workflow, 'delete', 'internal', 'update', true);
	}

	/** Waits for work started by a delivery (ending a test session after its event). */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	/** Posts a body to one of the node's URLs, as anyone on the network could. */
	async post(
		kind: WebhookKind,
		body: string,
		options: { query?: Record<string, string>; headers?: Record<string, string> } = {},
	): Promise<{ status: number; body: unknown }> {
		return await postJson(kind === 'production' ? this.productionUrl() : this.testUrl(), body, options);
	}

	async close(): Promise<void> {
		await this.idle();
		// The address belongs to the first workflow of this n8n: the others only stop.
		if (this.workflows[0] === this) {
			for (const other of this.workflows.slice(1)) await other.idle();
			await closeServer(this.server);
		}
	}

	// ------------------------------------------------------------------ n8n's side

	private workflow(active: boolean, staticData: IDataObject = clone(this.persistedStaticData)): Workflow {
		return triggerWorkflow(triggerNode(this.parameters, this.typeVersion, this.ids), active, staticData, this.ids);
	}

	private additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
		return additionalDataFor(this.credentialsHelper, this.baseUrl, extra);
	}

	/** Runs one of the node's webhook methods; nothing it left visible may hold a secret. */
	private async hook(
		workflow: Workflow,
		method: HookMethod,
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
		isTest: boolean,
	): Promise<boolean> {
		try {
			const result = await runHook(workflow, method, mode, activation, isTest, this.additionalData(), this.ids);
			this.checkNoSecrets(`the trigger's ${method}`, { 'the static data': workflow.staticData });
			return result;
		} catch (error) {
			this.checkNoSecrets(`the trigger's ${method}`, { error, 'the static data': workflow.staticData });
			throw error;
		}
	}

	/** n8n's webhook server for this workflow (./webhookDelivery.ts). */
	private endpoint(): WebhookEndpoint {
		return {
			baseUrl: this.baseUrl,
			ids: this.ids,
			received: this.received,
			waitingRequests: this.waitingRequests,
			waiting: () => this.waiting,
			productionUrl: () => this.productionUrl(),
			testUrl: () => this.testUrl(),
			active: () => this.active,
			testStaticData: () => this.testStaticData,
			workflow: (active, staticData) => this.workflow(active, staticData),
			additionalData: (extra) => this.additionalData(extra),
			saveStaticData: (staticData) => {
				this.persistedStaticData = persistable(staticData);
			},
			deliveryExecutions: () => this.setup.deliveryExecutions,
			checkNoSecrets: (where, visible, handoff) => this.checkNoSecrets(where, visible, handoff),
			endTest: () => {
				const ending = this.stopTest();
				this.pending.add(ending);
				void ending.finally(() => this.pending.delete(ending));
			},
		};
	}
}
