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
				displayName: 'Catch Up',
				name: 'catchUp',
				type: 'boolean',
				default: true,
				description:
					'Whether the messages the server stored while this workflow was not receiving (n8n stopped, restarting or being published) reach the workflow when it receives again, oldest first, with "caughtUp": true. Needs a v2.x server that stores messages. On by default for new triggers (version 3) on a v2.x server; off where an earlier version saved no choice.',
			},
			{
				displayName: 'Catch Up Hours',
				name: 'catchUpHours',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 720 },
				default: 24,
				description: 'How far back Catch Up reaches at most, in hours before the newest message the server stored',
				displayOptions: { show: { catchUp: [true] } },
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
			{
				displayName: 'Replace Existing Webhook',
				name: 'replaceExistingWebhook',
				type: 'boolean',
				default: false,
				description:
					'Whether publishing may take over an instance whose webhook already sends its events to another address (not a Messaging Instance Trigger of this n8n, which is never taken). The replaced webhook is put back when the workflow is unpublished. Off: publishing fails and says where the webhook points. A v2.x server is asked; with the documented interface publishing cannot see the server\'s webhook and only knows the triggers this n8n registered since it started.',
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
	/** Publishing may take over a webhook that points elsewhere (holder.ts). */
	replaceExistingWebhook: boolean;
	/** Whether stored messages are caught up when the workflow starts receiving again (catchUp.ts). */
	catchUp: boolean;
	/** Whether Catch Up was set in the node (on or off), not taken from the version's default. */
	catchUpChosen: boolean;
	/** How far back the catch-up reaches, in hours of the server's clock. */
	catchUpHours: number;
}

/** The first version whose Catch Up is on when the user never chose (earlier versions keep their behaviour). */
export const CATCH_UP_ON_FROM_VERSION = 3;

function catchUpHoursOf(value: unknown): number {
	const hours = typeof value === 'number' ? value : Number(defaultOf('catchUpHours'));
	return Number.isFinite(hours) ? Math.min(720, Math.max(1, Math.floor(hours))) : 24;
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
export function readOptions(raw: unknown, typeVersion = 1): TriggerOptions {
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
		replaceExistingWebhook: flag(options, 'replaceExistingWebhook'),
		// Absent: on from version 3 only, so a workflow saved before keeps doing what it did.
		catchUp: 'catchUp' in options ? options.catchUp === true : typeVersion >= CATCH_UP_ON_FROM_VERSION,
		catchUpChosen: 'catchUp' in options,
		catchUpHours: catchUpHoursOf(options.catchUpHours),
	};
}
