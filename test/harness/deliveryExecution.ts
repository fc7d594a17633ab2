import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { createDeferredPromise, createRunExecutionData } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData, IRun, IWorkflowExecuteAdditionalData, Workflow } from 'n8n-workflow';

import { TRIGGER_NODE_NAME } from './triggerWorkflow';

/**
 * The execution n8n starts for a delivery whose webhook() emitted items (mode `webhook`),
 * through n8n-core's WorkflowExecute: the trigger node is the start node, its input the
 * emitted items, so its execute() runs on them; n8n's `workflowExecuteAfter` hook receives the
 * static data when the execution changed it (`__dataChanged`), and that is what n8n saves.
 *
 * Where the execution's static data comes from, as the trigger harness is told
 * (`deliveryExecutions`): `stored` — the workflow's static data as n8n's database holds it
 * (webhook()'s own change not saved); `shared` — the very object webhook() changed, wrapped
 * again by the execution's workflow (which clears its changed mark).
 */
export type ExecutionStaticData = 'stored' | 'shared';

export interface DeliveryExecution {
	/** The trigger node's output in the execution (what the rest of the workflow gets). */
	items: INodeExecutionData[];
	/** The static data n8n saves when the execution ends; undefined when the execution changed none. */
	savedStaticData?: IDataObject;
	run: IRun;
}

export async function runDeliveryExecution(workflow: Workflow, items: INodeExecutionData[], additionalData: IWorkflowExecuteAdditionalData): Promise<DeliveryExecution> {
	const node = workflow.getNode(TRIGGER_NODE_NAME) as INode;
	const hooks = new ExecutionLifecycleHooks('webhook', 'delivery-execution', {
		id: workflow.id,
		name: workflow.name ?? 'trigger test',
		nodes: [node],
		connections: {},
		active: true,
		activeVersionId: 'v1',
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	const after = createDeferredPromise<{ run: IRun; staticData?: IDataObject }>();
	hooks.addHandler('workflowExecuteAfter', (run, staticData) => after.resolve({ run, staticData }));
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: [items] }, source: null }] },
	});
	await new WorkflowExecute({ ...additionalData, hooks }, 'webhook', runExecutionData).processRunExecutionData(workflow);
	const { run, staticData } = await after.promise;
	const output = run.data.resultData.runData[TRIGGER_NODE_NAME]?.[0]?.data?.main?.[0] ?? [];
	if (run.data.resultData.error) throw new Error(`The delivery's execution failed: ${run.data.resultData.error.message}`);
	return { items: output, savedStaticData: staticData, run };
}
