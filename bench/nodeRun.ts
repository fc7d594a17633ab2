/**
 * One run of the action node through n8n-core's WorkflowExecute, for the benches that measure
 * it. The benches own this instead of borrowing the test harness: what the harness adds (its
 * Start node, its secret check over the whole stored run, its log capture) would be measured
 * too. Here the workflow is the node alone, its input one empty item, and anything the node
 * would reach beyond a credential and HTTP throws.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { createRunExecutionData, ICredentialsHelper, Workflow } from 'n8n-workflow';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

const CREDENTIAL_TYPE = 'messagingInstanceApi';

function notInTheBench(what: string): never {
	throw new Error(`${what} is not part of the benchmark`);
}

let mapped = false;

/**
 * `…/X.node` has a `.node.json` twin (the codex file) that a plain require finds before the
 * TypeScript source; jest maps it, here it is mapped by hand. Call before requiring a node.
 */
export function mapNodeSources(): void {
	if (mapped) return;
	mapped = true;
	const Module = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
	const resolve = Module._resolveFilename;
	Module._resolveFilename = (request, ...rest) => resolve(/\.node$/.test(request) ? `${request}.ts` : request, ...rest);
}

/** n8n's credentials helper reduced to what a run needs: the stored credential and the type's own authenticate. */
export class BenchCredentials extends ICredentialsHelper {
	constructor(
		private readonly stored: ICredentialDataDecryptedObject,
		private readonly authenticateWith: (credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>,
	) {
		super();
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		return structuredClone(this.stored);
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, _type: string, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return await this.authenticateWith(credentials, options);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	getParentTypes(): string[] {
		return [];
	}

	getCredentialsProperties(): INodeProperties[] {
		return [];
	}

	async getCredentials(): Promise<never> {
		return notInTheBench('reading a stored credential object');
	}

	async updateCredentials(): Promise<never> {
		return notInTheBench('updating a credential');
	}

	async updateCredentialsOauthTokenData(): Promise<never> {
		return notInTheBench('updating OAuth token data');
	}
}

/** Runs the action node once with these parameters and credential; resolves with its output and error. */
export async function runNode(
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ items: INodeExecutionData[]; error?: ExecutionError }> {
	mapNodeSources();
	const { MessagingInstance } = require('../nodes/MessagingInstance/MessagingInstance.node') as typeof import('../nodes/MessagingInstance/MessagingInstance.node');
	const { MessagingInstanceApi } = require('../credentials/MessagingInstanceApi.credentials') as typeof import('../credentials/MessagingInstanceApi.credentials');
	const type: INodeType = new MessagingInstance();
	const node: INode = {
		id: 'node',
		name: 'Messaging Instance',
		type: 'n8n-nodes-messaging-instance.messagingInstance',
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Bench' } },
	};
	const workflow = new Workflow({
		id: 'wf-bench',
		name: 'bench',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) },
		settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'bench-1', { id: workflow.id, name: workflow.name, nodes: [node], connections: {} } as never);
	const authenticate = new MessagingInstanceApi().authenticate;
	const additionalData = {
		credentialsHelper: new BenchCredentials(credentials, authenticate),
		hooks,
		executionId: 'bench-1',
		executeWorkflow: async () => notInTheBench('a sub-workflow'),
		startRunnerTask: async () => notInTheBench('a code runner'),
		userId: 'bench',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	const runData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: [[{ json: {} }]] }, source: null }] },
	});
	const run = await new WorkflowExecute(additionalData, 'manual', runData).processRunExecutionData(workflow);
	// n8n-core starts a cleanup interval for SSH tunnels with the first execution context and
	// clears it when n8n shuts down; cleared here, so that a bench's process ends with its work.
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
	const items = run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? [];
	return { items, error: run.data.resultData.error };
}

/**
 * n8n's binary-data service in a mode of its own: `default` (no storage manager) keeps a file
 * in memory as base64 on the item, `filesystem` (N8N_DEFAULT_BINARY_DATA_MODE=filesystem)
 * writes it to a fresh folder, removed by `close`.
 */
export async function setBinaryDataMode(mode: 'default' | 'filesystem'): Promise<{ close(): void }> {
	const quiet = { debug() {}, info() {}, warn() {}, error() {} };
	const folder = mode === 'filesystem' ? fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-binary-')) : undefined;
	const service = new BinaryDataService({ mode, localStoragePath: folder, availableModes: ['default', 'filesystem'] } as never, quiet as never, quiet as never);
	if (folder) await service.init();
	Container.set(BinaryDataService, service);
	return { close: () => folder && fs.rmSync(folder, { recursive: true, force: true }) };
}
