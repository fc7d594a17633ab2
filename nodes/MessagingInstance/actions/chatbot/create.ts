import type { Operation } from '../types';
import { botOptionsProperty, kindProperty, platformPath, platformPaths, platformProperties, readBot, TRIGGER_PROPERTIES } from './common';

export const createChatbot: Operation = {
	resource: 'chatbot',
	value: 'create',
	name: 'Create',
	action: 'Create a chatbot',
	description: 'Connect a bot of the platform to the instance: it answers the chats its trigger matches',
	v2Only: true,
	properties: [kindProperty(), ...platformProperties((platform) => platform.fields), ...TRIGGER_PROPERTIES, botOptionsProperty()],
	path: platformPaths('create')[0],
	itemPaths: platformPaths('create'),
	itemPath: (params) => platformPath(params, 'create'),
	buildBody: readBot,
};
