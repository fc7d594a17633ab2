import { ExecuteContext, RoutingNode } from 'n8n-core';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { TestCredentialsHelper, credentialTypes } from './credentialsHelper';
import { assertNoSecrets, credentialSecrets } from './secrets';

const CREDENTIAL_TYPE = 'messagingInstanceApi';

/**
 * Runs the credential's declarative test the way n8n's credential tester does: the test
 * request becomes the routing of a temporary copy of the node that uses the credential,
 * n8n-core's RoutingNode sends it, and the outcome is read by the same rules (the
 * credential's `responseCode` rules first, then any non-2xx status, then socket errors).
 */
export async function testCredential(data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
	const result = await runCredentialTest(data);
	assertNoSecrets('a credential test', { result }, credentialSecrets(data));
	return result;
}

async function runCredentialTest(data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
	const testRequest = credentialTypes[CREDENTIAL_TYPE].test!;
	const base = new MessagingInstance();
	const nodeType: INodeType = {
		description: {
			...base.description,
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Sandbox' } },
	};
	const types: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: types });
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper({ [CREDENTIAL_TYPE]: data }),
		currentNodeParameters: undefined,
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routing = new RoutingNode(context, nodeType, {
		id: 'cred-1',
		name: 'Sandbox',
		type: CREDENTIAL_TYPE,
		data,
	});
	try {
		await routing.runNode();
	} catch (caught) {
		const error = caught as {
			message: string;
			httpCode?: string | null;
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		// n8n's tester reads the axios response from `cause`; the request path of this n8n-core
		// line keeps only the status on the error (`httpCode`), which carries the same decision.
		const response =
			error.cause?.response ??
			(error.httpCode && /^\d+$/.test(error.httpCode) ? { status: Number(error.httpCode), statusText: error.message } : undefined);
		if (response) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === response.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (response.status < 199 || response.status > 299) {
				return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
