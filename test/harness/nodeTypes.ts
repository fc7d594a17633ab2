import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';

export const PACKAGE = 'n8n-nodes-messaging-instance';
export const ACTION_TYPE = `${PACKAGE}.messagingInstance`;
export const TRIGGER_TYPE = `${PACKAGE}.messagingInstanceTrigger`;
export const START_TYPE = 'test.start';

/** A file the Start node puts on an item, as n8n's binary helpers store it. */
export interface StartFile {
	base64: string;
	mimeType: string;
	fileName?: string;
}

/**
 * The workflow's first node: emits the test's input items, the way a Manual Trigger followed
 * by a Code node would in a real n8n. Files go through n8n's own `prepareBinaryData`, so they
 * are kept in memory or on disk as the binary-data mode of the run says.
 */
class StartNode implements INodeType {
	description = {
		displayName: 'Start',
		name: 'start',
		group: ['input'],
		version: 1,
		description: 'Emits the items given in its parameters',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
			{ displayName: 'Files', name: 'files', type: 'json', default: '[]' },
		],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		const rawFiles = this.getNodeParameter('files', 0, '[]') as string | unknown[];
		const files = (typeof rawFiles === 'string' ? JSON.parse(rawFiles) : rawFiles) as Array<Record<string, StartFile> | null>;
		return [
			await Promise.all(
				items.map(async (json, index) => {
					const item: INodeExecutionData = { json };
					const given = files[index];
					if (given) {
						item.binary = {};
						for (const [property, file] of Object.entries(given)) {
							item.binary[property] = await this.helpers.prepareBinaryData(
								Buffer.from(file.base64, 'base64'),
								file.fileName,
								file.mimeType,
							);
						}
					}
					return item;
				}),
			),
		];
	}
}

const registry = new Map<string, INodeType>();

export function registerNodeType(name: string, nodeType: INodeType): void {
	registry.set(name, nodeType);
}

registerNodeType(START_TYPE, new StartNode());
registerNodeType(ACTION_TYPE, new MessagingInstance());
registerNodeType(TRIGGER_TYPE, new MessagingInstanceTrigger());

/** What n8n's node loader gives the engine: node types by name. */
export const nodeTypes: INodeTypes = {
	getByName(name: string): INodeType | IVersionedNodeType {
		const found = registry.get(name);
		if (!found) throw new Error(`Unknown node type ${name}`);
		return found;
	},
	getByNameAndVersion(name: string): INodeType {
		const found = registry.get(name);
		if (!found) throw new Error(`Unknown node type ${name}`);
		return found;
	},
	getKnownTypes() {
		return {};
	},
};
