import type { Operation } from '../types';
import { chatProperty, kindProperty, platformPath, platformPaths, readChat } from './common';

export const changeChatbotStatus: Operation = {
	resource: 'chatbot',
	value: 'changeStatus',
	name: 'Change Status',
	action: 'Change a chatbot conversation status',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Pause, resume, close or delete the platform\'s conversation with a chat',
	v2Only: true,
	properties: [
		kindProperty(),
		chatProperty('The chat whose conversation with the bot changes'),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Closed', value: 'closed', description: 'End the conversation (kept as closed when the settings keep conversations open)' },
				{ name: 'Deleted', value: 'delete', description: 'End the conversation and forget it' },
				{ name: 'Opened', value: 'opened', description: 'The bot answers the chat again' },
				{ name: 'Paused', value: 'paused', description: 'The bot stops answering the chat until opened again' },
			],
			default: 'paused',
			required: true,
			description: 'The conversation\'s new status. Closed and Deleted end that chat\'s conversations with every bot on the server.',
		},
	],
	path: platformPaths('changeStatus')[0],
	itemPaths: platformPaths('changeStatus'),
	itemPath: (params) => platformPath(params, 'changeStatus'),
	buildBody: (params) => ({ remoteJid: readChat(params), status: params.text('status').trim() }),
};
