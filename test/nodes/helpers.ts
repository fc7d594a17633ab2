import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { DialectName } from '../../nodes/shared/dialect';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { runNode, type NodeRun } from '../harness/engine';
import { declareSecrets } from '../harness/secrets';


/** Starts a sandbox of the dialect for the enclosing describe block. */
export type { DialectName };

export function useSandbox(dialect: DialectName): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeAll(async () => {
		holder.current = await startSandbox({ dialect, instances: [{ name: 'demo', token: 'demo-token' }] });
		declareSecrets('demo-token');
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => holder.current.clearRequests());
	return holder;
}

export function credentialsFor(sandbox: Sandbox, extra: IDataObject = {}) {
	return { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: sandbox.dialect, ...extra };
}

export async function run(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: { items?: IDataObject[]; continueOnFail?: boolean; credentials?: IDataObject } = {},
): Promise<NodeRun> {
	return await runNode({
		parameters: { instance: 'demo', ...parameters },
		items: options.items,
		continueOnFail: options.continueOnFail,
		credentials: { ...credentialsFor(sandbox), ...options.credentials },
	});
}

/** The interface requests the sandbox received (its own control routes are not recorded). */
export function sent(sandbox: Sandbox) {
	return sandbox.requests.map(({ method, path, body, status }) => ({ method, path, body, status }));
}
