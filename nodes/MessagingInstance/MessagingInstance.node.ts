import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { nodeProperties, nodeSubtitle } from './actions';
import { searchChatbots, searchGroups, searchInstances, searchLabels, searchOpenAiCredentials, searchOpenAiModels, searchTemplateIds, searchTemplates } from '../shared/pickers';
import { runOperation } from './actions/router';
import { sendAndWaitTooltip, sendAndWaitWebhook, sendAndWaitWebhooks } from './actions/message/sendAndWait/webhook';
import { MAIN } from '../shared/connections';

export class MessagingInstance implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Instance',
		name: 'messagingInstance',
		icon: { light: 'file:messagingInstance.svg', dark: 'file:messagingInstance.dark.svg' },
		group: ['output'],
		// 2: Instance is a picker of the server's instances (version 1 kept it as text).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: nodeSubtitle,
		description:
			'Send messages, manage chats, settings and webhooks of a messaging instance (Evolution API interface)',
		defaults: { name: 'Messaging Instance' },
		usableAsTool: true,
		inputs: MAIN,
		outputs: MAIN,
		credentials: [{ name: 'messagingInstanceApi', required: true }],
		// Served only while an execution waits in Send and Wait for Response (n8n's waiting webhooks).
		webhooks: sendAndWaitWebhooks,
		waitingNodeTooltip: sendAndWaitTooltip,
		properties: nodeProperties,
	};

	methods = {
		listSearch: { searchInstances, searchGroups, searchLabels, searchTemplates, searchTemplateIds, searchChatbots, searchOpenAiCredentials, searchOpenAiModels },
	};

	/** The answer to a waiting Send and Wait for Response: n8n calls it with the request to its link. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await sendAndWaitWebhook.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperation.call(this);
	}
}
