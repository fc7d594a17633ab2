import type { ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

/**
 * What n8n hands every execution context besides the workflow: the credentials helper, the
 * addresses n8n serves on, and services these tests do not use (which throw if reached).
 */
export function additionalDataFor(
	credentialsHelper: ICredentialsHelper | undefined,
	baseUrl: string,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of these tests');
		},
		startRunnerTask: async () => {
			throw new Error('Code runners are not part of these tests');
		},
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: `${baseUrl}/`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		...extra,
	} as unknown as IWorkflowExecuteAdditionalData;
}
