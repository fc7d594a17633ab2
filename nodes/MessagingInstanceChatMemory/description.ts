import type { INodeProperties } from 'n8n-workflow';

import { picker } from '../shared/pickers';

/** n8n's own memory nodes' default window: five exchanges. */
export const DEFAULT_INTERACTIONS = 5;
/** The most exchanges a memory gives: past it the pages a run may read (250 messages per chat JID) would not hold them. */
export const MAX_INTERACTIONS = 50;

/**
 * The messages the run answers, from the agent's input item: Collect Burst's burst (its
 * `messages`), else the trigger's message (`messageId`). The option's default and the value
 * used when the option is not added.
 */
export const CURRENT_MESSAGES_EXPRESSION =
	'{{ Array.isArray($json.messages) ? $json.messages.map(message => message.messageId) : $json.messageId }}';

export const memoryProperties: INodeProperties[] = [
	{
		displayName:
			'The memory is the chat as the server stored it (Find Messages): the contact\'s messages, the answers this workflow sent, and what a person typed on the phone. The server must store messages (DATABASE_SAVE_DATA_NEW_MESSAGE=true). The memory writes nothing: Send Text after the agent stores the answer.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	picker({
		displayName: 'Instance',
		name: 'instance',
		description: 'The instance whose chat the agent answers',
		searchMethod: 'searchInstances',
		typedMode: { displayName: 'By Name', name: 'name', placeholder: 'e.g. my-instance' },
	}),
	{
		displayName: 'Chat ID',
		name: 'chatId',
		type: 'string',
		required: true,
		default: '={{ $json.chatId }}',
		description: 'The chat whose history the agent gets: the trigger and Collect Burst output it as chatId (a group, or the contact\'s phone JID)',
	},
	{
		displayName: 'Context Window Length',
		name: 'contextWindowLength',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_INTERACTIONS },
		default: DEFAULT_INTERACTIONS,
		description: 'How many past interactions the model receives as context: one interaction is the contact\'s messages and the answer to them',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Current Message IDs',
				name: 'currentMessageIds',
				type: 'string',
				default: `=${CURRENT_MESSAGES_EXPRESSION}`,
				description:
					'The messages this run answers (the agent\'s input), left out of the history with everything stored after them, so the model never reads them twice. Without this option: Collect Burst\'s messages, else the trigger\'s messageId. A list, or IDs separated by commas.',
			},
		],
	},
];
