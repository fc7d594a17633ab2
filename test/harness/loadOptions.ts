import { LoadOptionsContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, INode, INodeParameters } from 'n8n-workflow';

import { additionalDataFor } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';

/**
 * The context the editor gives a list search of `parameter` (n8n-core's load-options context)
 * for a node of `type` and `typeVersion` holding `parameters`, with the node's credential.
 */
export function loadOptionsContext(spec: {
	type: string;
	typeVersion: number;
	name: string;
	credentials: ICredentialDataDecryptedObject;
	parameters: INodeParameters;
	parameter: string;
}): LoadOptionsContext {
	const node: INode = {
		id: 'n',
		name: spec.name,
		type: spec.type,
		typeVersion: spec.typeVersion,
		position: [0, 0],
		parameters: spec.parameters,
		credentials: { messagingInstanceApi: { id: 'cred-1', name: 'Sandbox' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = additionalDataFor(new TestCredentialsHelper({ messagingInstanceApi: spec.credentials }), 'http://127.0.0.1:5678', {
		currentNodeParameters: spec.parameters,
	});
	return new LoadOptionsContext(workflow, node, additionalData, `parameters.${spec.parameter}`);
}
