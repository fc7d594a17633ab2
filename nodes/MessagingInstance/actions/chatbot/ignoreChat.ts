import type { Operation } from '../types';
import { chatProperty, kindProperty, platformPath, platformPaths, readChat } from './common';

export const ignoreChatbotChat: Operation = {
	resource: 'chatbot',
	value: 'ignoreChat',
	name: 'Ignore Chat',
	action: 'Ignore a chat for the chatbots',
	description: 'Add a chat to the platform\'s ignored chats, or take it off: its bots never answer an ignored chat',
	v2Only: true,
	properties: [
		kindProperty(),
		chatProperty('The chat the platform\'s bots ignore, or answer again'),
		{
			displayName: 'Ignore',
			name: 'ignore',
			type: 'options',
			options: [
				{ name: 'Add to Ignored Chats', value: 'add', description: 'The bots stop answering the chat' },
				{ name: 'Remove From Ignored Chats', value: 'remove', description: 'The bots answer the chat again' },
			],
			default: 'add',
			required: true,
		},
	],
	path: platformPaths('ignoreJid')[0],
	itemPaths: platformPaths('ignoreJid'),
	itemPath: (params) => platformPath(params, 'ignoreJid'),
	buildBody: (params) => ({ remoteJid: readChat(params), action: params.text('ignore').trim() }),
};
