import { HookContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { nodeTypes, TRIGGER_TYPE } from './nodeTypes';

/**
 * The workflow the trigger harness (./webhooks.ts) runs the trigger in, as n8n builds it: one
 * trigger node with its webhook id, the workflow around it with given static data, the
 * webhook's registration data, and the node's `webhookMethods` run through n8n-core's real
 * HookContext.
 */

export const TRIGGER_NODE_NAME = 'Messaging Instance Trigger';
export const WORKFLOW_ID = 'wf-trigger';
export const TRIGGER_NODE_ID = 'trigger-node';
export const WEBHOOK_ID = '5f2c7a36-8d1e-4b8e-9a52-3c1d0b7e9f10';
/** The webhook's path under /webhook/ and /webhook-test/. */
export const WEBHOOK_PATH = `${WEBHOOK_ID}/webhook`;

export type HookMethod = 'checkExists' | 'create' | 'delete';

/** The ids of one trigger's workflow, node and webhook: the defaults above, or a second workflow's. */
export interface TriggerIds {
	workflowId: string;
	nodeId: string;
	webhookId: string;
}

export const DEFAULT_IDS: TriggerIds = { workflowId: WORKFLOW_ID, nodeId: TRIGGER_NODE_ID, webhookId: WEBHOOK_ID };

/** The webhook's path under /webhook/ and /webhook-test/ for these ids. */
export function webhookPathOf(ids: TriggerIds): string {
	return `${ids.webhookId}/webhook`;
}

export function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

/** What n8n writes to its database: the plain data, without the change marker. */
export function persistable(staticData: IDataObject): IDataObject {
	const plain = clone(staticData);
	delete plain.__dataChanged;
	return plain;
}

export function triggerType(): INodeType {
	return nodeTypes.getByNameAndVersion(TRIGGER_TYPE) as INodeType;
}

export function triggerNode(parameters: INodeParameters, typeVersion: number, ids: TriggerIds = DEFAULT_IDS): INode {
	return {
		id: ids.nodeId,
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_TYPE,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Sandbox' } },
		webhookId: ids.webhookId,
	};
}

export function triggerWorkflow(node: INode, active: boolean, staticData: IDataObject, ids: TriggerIds = DEFAULT_IDS): Workflow {
	return new Workflow({
		id: ids.workflowId,
		name: 'trigger test',
		nodes: [node],
		connections: {},
		active,
		nodeTypes,
		staticData,
		settings: { executionOrder: 'v1' },
	});
}

/** The registration n8n keeps for the trigger's webhook (production or test). */
export function webhookData(isTest: boolean, additionalData: IWorkflowExecuteAdditionalData, ids: TriggerIds = DEFAULT_IDS): IWebhookData {
	const description = triggerType().description.webhooks?.[0];
	if (!description) throw new Error('The trigger declares no webhook');
	return {
		webhookDescription: description,
		node: TRIGGER_NODE_NAME,
		workflowId: ids.workflowId,
		httpMethod: 'POST',
		path: webhookPathOf(ids),
		webhookId: ids.webhookId,
		isTest,
		workflowExecuteAdditionalData: additionalData,
	} as IWebhookData;
}

/** Runs one of the node's `webhookMethods.default` in the modes n8n uses for it. */
export async function runHook(
	workflow: Workflow,
	method: HookMethod,
	mode: WorkflowExecuteMode,
	activation: WorkflowActivateMode,
	isTest: boolean,
	additionalData: IWorkflowExecuteAdditionalData,
	ids: TriggerIds = DEFAULT_IDS,
): Promise<boolean> {
	const node = workflow.getNode(TRIGGER_NODE_NAME);
	if (!node) throw new Error('The trigger is not in the workflow');
	const context = new HookContext(workflow, node, additionalData, mode, activation, webhookData(isTest, additionalData, ids));
	const fn = triggerType().webhookMethods?.default?.[method];
	if (!fn) throw new Error(`The trigger has no ${method}`);
	return await fn.call(context);
}
