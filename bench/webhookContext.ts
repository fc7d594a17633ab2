/**
 * What n8n gives a trigger's webhook() besides the request, as far as the trigger benchmark
 * needs it: the stored credential (the trigger reads it per delivery to derive its webhook
 * secret) and the execution's additional data around the request and response. The bench owns
 * this instead of borrowing the test harness: it measures the trigger, and anything the
 * trigger would reach beyond this throws.
 */
import { ICredentialsHelper } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, INodeProperties, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

function notInTheBench(what: string): never {
	throw new Error(`${what} is not part of the trigger benchmark`);
}

/** n8n's credentials helper reduced to what a webhook() call uses: the decrypted credential of a type. */
export class StoredCredentials extends ICredentialsHelper {
	constructor(private readonly stored: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string): Promise<ICredentialDataDecryptedObject> {
		const data = this.stored[type];
		if (!data) return notInTheBench(`a credential of type ${type}`);
		return structuredClone(data);
	}

	getParentTypes(): string[] {
		return [];
	}

	getCredentialsProperties(): INodeProperties[] {
		return [];
	}

	async authenticate(): Promise<never> {
		return notInTheBench('an authenticated request');
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
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

/** The additional data n8n's webhook server hands a WebhookContext for one request. */
export function webhookAdditionalData(
	credentialsHelper: ICredentialsHelper,
	baseUrl: string,
	request: Pick<IWorkflowExecuteAdditionalData, 'httpRequest' | 'httpResponse'>,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executeWorkflow: async () => notInTheBench('a sub-workflow'),
		startRunnerTask: async () => notInTheBench('a code runner'),
		webhookBaseUrl: `${baseUrl}/webhook`,
		userId: 'bench',
		...request,
	} as unknown as IWorkflowExecuteAdditionalData;
}
