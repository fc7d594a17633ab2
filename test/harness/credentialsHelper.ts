import { ICredentialsHelper } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IDataObject,
	Workflow,
} from 'n8n-workflow';

import { MessagingInstanceApi } from '../../credentials/MessagingInstanceApi.credentials';

export const credentialTypes: Record<string, ICredentialType> = {
	messagingInstanceApi: new MessagingInstanceApi(),
};

/**
 * Stands where n8n's CredentialsHelper stands: hands the stored credential to the engine and
 * applies the credential type's `authenticate`, resolving its expressions with the workflow's
 * own expression engine, as n8n does. It also defines `preAuthentication`, so that the
 * engine's retry after a 401 behaves as in a real n8n.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** How often the engine asked for the decrypted credential (once per execution is the goal). */
	decryptions = 0;
	/** Every distinct credential value handed to a node so far (what a node can know, and so must hide). */
	private readonly handed = new Map<string, ICredentialDataDecryptedObject>();

	get handedOut(): ICredentialDataDecryptedObject[] {
		return [...this.handed.values()];
	}

	constructor(private readonly stored: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		const authenticate = type?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate.type !== 'generic') return requestOptions;
		const resolve = (value: unknown): unknown =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					)
				: value;
		const result = { ...requestOptions } as IHttpRequestOptions & Record<string, unknown>;
		for (const [target, entries] of Object.entries(authenticate.properties)) {
			const current = { ...((result[target] as IDataObject | undefined) ?? {}) };
			for (const [key, value] of Object.entries(entries as IDataObject)) {
				current[String(resolve(key))] = resolve(value) as IDataObject[string];
			}
			result[target] = current;
		}
		return result;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.decryptions++;
		const data = this.stored[type];
		if (!data) throw new Error(`No credential of type ${type} in this test`);
		this.handed.set(JSON.stringify(data), structuredClone(data));
		return structuredClone(data);
	}

	async getCredentials(): Promise<never> {
		throw new Error('Not used by these nodes');
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}
}
