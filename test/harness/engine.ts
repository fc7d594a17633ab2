import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { createDeferredPromise, createRunExecutionData, Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	ExecutionError,
} from 'n8n-workflow';

import { additionalDataFor } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { ACTION_TYPE, nodeTypes, START_TYPE, type StartFile } from './nodeTypes';
import { assertNoSecrets, credentialSecrets } from './secrets';

export interface RunNodeOptions {
	parameters: INodeParameters;
	/** Input items of the node (the Start node emits them). */
	items?: IDataObject[];
	/** Binary files of the input items, by item index and binary field name. */
	files?: Array<Record<string, StartFile> | null>;
	credentials?: ICredentialDataDecryptedObject;
	continueOnFail?: boolean;
	/** Node settings as the editor saves them, e.g. `{ retryOnFail: true, maxTries: 2, waitBetweenTries: 0 }`. */
	settings?: Partial<INode>;
	type?: string;
	/** Stops the execution this long after it started, as the editor's Stop button does. */
	cancelAfterMs?: number;
	/** The execution's id; every n8n execution has its own (default EXECUTION_ID). */
	executionId?: string;
	/** Where this n8n serves (its waiting links start with it); http://127.0.0.1:5678 unless given. */
	baseUrl?: string;
}

export interface NodeRun {
	/** The node's output items, as the next node would receive them. */
	items: INodeExecutionData[];
	/** The execution's error, when the node failed. */
	error?: ExecutionError;
	/** How often the credential was decrypted during the run. */
	credentialDecryptions: number;
	run: IRun;
}

export const NODE_NAME = 'Messaging Instance';
/** The execution's id, as n8n gives every run one (waiting links carry it). */
export const EXECUTION_ID = 'exec-1';
/**
 * The message ids the node gives the sends of items 0–9 in a run of this harness (workflow
 * `wf-test`, execution EXECUTION_ID, node `node`, its first run), written out so that a change
 * of how the node makes them shows.
 */
export const MESSAGE_IDS = [
	'3EB0C4DB37100F25F4793D', '3EB031138E6AE5873566C2', '3EB049A58AB099DCE9715A', '3EB02A729C17DADF90B71A', '3EB05823A5DB00C713DB23',
	'3EB01270588A75C0BEACF5', '3EB0E702930F22B2B246A3', '3EB06BDC47D15962482AC2', '3EB06E132B2DED8CBC7011', '3EB08C320C14633552013B',
];

/** The `messageId` a send of this item carries: v2 servers get one, the documented interface has no such field. */
export function idOn(dialect: string, itemIndex: number): { messageId?: string } {
	return dialect === 'v2' ? { messageId: MESSAGE_IDS[itemIndex] } : {};
}

/** n8n's lifecycle hooks of a test execution; `finished` resolves with the run n8n would store. */
export function executionHooks(nodes: INode[], executionId = EXECUTION_ID): { hooks: ExecutionLifecycleHooks; finished: Promise<IRun> } {
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'wf-test',
		name: 'engine test',
		nodes,
		connections: {},
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	const finished = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (run) => finished.resolve(run));
	return { hooks, finished: finished.promise };
}

/**
 * Runs a two-node workflow (Start → our node) with n8n's own engine: WorkflowExecute resolves
 * the parameters and expressions, builds the node's execution context, applies the
 * credential's authenticate, pairs items and handles Continue On Fail, as a real n8n does.
 */
export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	const credentialsHelper = new TestCredentialsHelper(
		options.credentials ? { messagingInstanceApi: options.credentials } : {},
	);
	const start: INode = {
		id: 'start',
		name: 'Start',
		type: START_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.items ?? [{}]), files: JSON.stringify(options.files ?? []) },
	};
	const node: INode = {
		id: 'node',
		name: NODE_NAME,
		type: options.type ?? ACTION_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Sandbox' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...options.settings,
	};
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'engine test',
		nodes: [start, node],
		connections: { Start: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	const executionId = options.executionId ?? EXECUTION_ID;
	const { hooks, finished } = executionHooks([start, node], executionId);

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});

	const execute = new WorkflowExecute(
		additionalDataFor(credentialsHelper, options.baseUrl ?? 'http://127.0.0.1:5678', { hooks, executionId }),
		'manual',
		runExecutionData,
	);
	const execution = execute.processRunExecutionData(workflow);
	const stop = options.cancelAfterMs === undefined ? undefined : setTimeout(() => execution.cancel(), options.cancelAfterMs);
	await execution;
	clearTimeout(stop);
	const run = await finished;
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	const items = taskData?.data?.main?.[0] ?? [];
	const error = run.data.resultData.error;
	assertNoSecrets(
		'a node run',
		{ items, error, 'the stored run': run, 'the stored error': taskData?.error },
		[...credentialSecrets(options.credentials), ...chosenTokens(options.parameters)],
		askedForTokens(options.parameters, items),
	);
	return { items, error, credentialDecryptions: credentialsHelper.decryptions, run };
}

/** A token the user chose for a new instance (Create's options) is a secret like the others. */
function chosenTokens(parameters: INodeParameters): string[] {
	const token = (parameters.options as IDataObject | undefined)?.token;
	return typeof token === 'string' && token.trim() !== '' && !token.startsWith('=') ? [token.trim()] : [];
}

/** Instance → Create outputs the new instance's token (`hash`): the one secret a node outputs on purpose. */
function askedForTokens(parameters: INodeParameters, items: INodeExecutionData[]): Set<string> {
	const allowed = new Set<string>();
	if (parameters.resource !== 'instance' || parameters.operation !== 'create') return allowed;
	for (const item of items) {
		const hash = item.json.hash as unknown;
		if (typeof hash === 'string') allowed.add(hash);
		else if (hash && typeof hash === 'object') {
			for (const value of Object.values(hash)) if (typeof value === 'string') allowed.add(value);
		}
	}
	return allowed;
}
