import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { searchInstances } from '../shared/pickers';
import { triggerProperties } from './description';
import { instanceSubtitle } from './instance';
import { createWebhook, deleteWebhook, webhookExists } from './registration';
import { receive } from './webhook';
import { noteLiveExecution, startCatchUp } from './catchUp';
import { withoutCurrentSecrets } from './deliverySettings';
import { MAIN } from '../shared/connections';

export class MessagingInstanceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Instance Trigger',
		name: 'messagingInstanceTrigger',
		icon: {
			light: 'file:messagingInstanceTrigger.svg',
			dark: 'file:messagingInstanceTrigger.dark.svg',
		},
		group: ['trigger'],
		// 2: Instance is the action node's picker of the server's instances (version 1 kept it as text).
		// 3: Catch Up is on where the user never chose (earlier versions keep it off).
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: instanceSubtitle,
		// n8n's node creator merges this trigger into the Messaging Instance entry and shows this
		// text for the whole entry (actions and triggers), so it describes the whole package.
		description:
			'Send and receive messages on a messaging instance (Evolution API interface): start workflows on incoming messages and events, send messages, manage chats, groups and settings',
		defaults: { name: 'Messaging Instance Trigger' },
		inputs: [],
		outputs: MAIN,
		credentials: [{ name: 'messagingInstanceApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers as soon as it recorded the execution (not when it ends): a 2xx then
				// means the message is held in n8n's database, and the server retries anything else.
				responseMode: 'onReceived',
				// '' (not n8n's default "firstEntryJson", which n8n sends as that very text): n8n
				// then answers with the `webhookResponse` webhook() returns, `{"received":true}`.
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchInstances },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await webhookExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createWebhook(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhook(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receive(this);
	}

	/**
	 * Started by n8n at publish and on every start (webhooks are served from its database
	 * then, with no hook of this node called): Catch Up (catchUp.ts), a no-op when it is off.
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startCatchUp(this);
	}

	/**
	 * The items a delivery or the catch-up emitted, passed on without the credential's current
	 * secrets (deliverySettings.ts `withoutCurrentSecrets`; a live delivery's execution also
	 * keeps Catch Up's cursor, catchUp.ts). Without it n8n would run trigger() again for a node
	 * with one inside each execution, and in a test run (mode "manual") wait for it to emit
	 * instead of taking the delivery's items.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = await withoutCurrentSecrets(this, this.getInputData());
		noteLiveExecution(this, items);
		return [items];
	}
}
