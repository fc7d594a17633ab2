import type { INodeProperties } from 'n8n-workflow';

import { ALL_EVENTS } from '../shared/dialect';
import { triggerEventOptions } from '../shared/events';
import { MAX_FILE_SIZE_OPTION, maxFileBytes, maxFileSizeProperty } from '../shared/files';
import { instanceProperties } from './instance';

export const DEFAULT_BINARY_PROPERTY = 'data';

export const triggerProperties: INodeProperties[] = [
	...instanceProperties,
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: triggerEventOptions(ALL_EVENTS),
		default: ['MESSAGES_UPSERT'],
		description:
			'Events that start the workflow. Messages Upsert is an incoming (or sent) message. An event\'s description says when only one dialect, or a newer server, sends it.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Binary Property',
				name: 'binaryPropertyName',
				type: 'string',
				default: DEFAULT_BINARY_PROPERTY,
				description: 'Name of the binary property that receives the media file',
				displayOptions: { show: { mediaAsBinary: [true] } },
			},
			{
				displayName: 'Ignore Group Chats',
				name: 'ignoreGroups',
				type: 'boolean',
				default: true,
				description: 'Whether to drop events from group chats (chats whose ID ends in @g.us)',
			},
			{
				displayName: 'Ignore Own Messages',
				name: 'ignoreOwnMessages',
				type: 'boolean',
				default: true,
				description:
					'Whether to drop messages sent by this instance itself (fromMe), for example the replies this workflow sends',
			},
			{
				displayName: 'Include Raw Event',
				name: 'includeRaw',
				type: 'boolean',
				default: true,
				description:
					'Whether simplified items keep the delivered event under "raw" (without the instance token and the webhook secret). Has no effect on the raw output format.',
			},
			// Shown whether or not Media as Binary was added: that option is on by default.
			maxFileSizeProperty('media file made binary from a delivery; a larger one is left out and the item says why in "mediaError"'),
			{
				displayName: 'Media as Binary',
				name: 'mediaAsBinary',
				type: 'boolean',
				default: true,
				description:
					'Whether the server sends media files inside the event (webhookBase64), turned into binary data with their MIME type and file name',
			},
			{
				displayName: 'Output Format',
				name: 'outputFormat',
				type: 'options',
				options: [
					{
						name: 'Simplified',
						value: 'simplified',
						description:
							'Chat, sender, message ID, type, text and time at the top level; the event under "raw"',
					},
					{
						name: 'Raw',
						value: 'raw',
						description:
							'The delivered event as it came, without the instance token and the webhook secret',
					},
				],
				default: 'simplified',
				description: 'Shape of the output item',
			},
		],
	},
];

export interface TriggerOptions {
	outputFormat: 'simplified' | 'raw';
	ignoreOwnMessages: boolean;
	ignoreGroups: boolean;
	mediaAsBinary: boolean;
	binaryPropertyName: string;
	includeRaw: boolean;
	/** The largest media file made binary, in bytes. */
	maxFileBytes: number;
}

const OPTIONS = triggerProperties.find((property) => property.name === 'options')?.options ?? [];

/** An option's default as the description declares it (the one place defaults are written). */
function defaultOf(name: keyof TriggerOptions): unknown {
	const option = OPTIONS.find((entry) => 'name' in entry && entry.name === name);
	return option && 'default' in option ? option.default : undefined;
}

function flag(options: Record<string, unknown>, name: keyof TriggerOptions): boolean {
	const value = name in options ? options[name] : defaultOf(name);
	return value === true;
}

/**
 * The collection as the node uses it. An option the user never added has the default the
 * description shows: a new node saves `options: {}`, and that must mean the safe defaults
 * (own messages and group chats ignored, media as binary), not "everything off".
 */
export function readOptions(raw: unknown): TriggerOptions {
	const options = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
	const binaryPropertyName = String(options.binaryPropertyName ?? '').trim();
	return {
		outputFormat: (options.outputFormat ?? defaultOf('outputFormat')) === 'raw' ? 'raw' : 'simplified',
		ignoreOwnMessages: flag(options, 'ignoreOwnMessages'),
		ignoreGroups: flag(options, 'ignoreGroups'),
		mediaAsBinary: flag(options, 'mediaAsBinary'),
		binaryPropertyName: binaryPropertyName === '' ? DEFAULT_BINARY_PROPERTY : binaryPropertyName,
		includeRaw: flag(options, 'includeRaw'),
		maxFileBytes: maxFileBytes(options[MAX_FILE_SIZE_OPTION]),
	};
}
