import type { Operation } from '../types';
import { botIdProperty, botOptionsProperty, kindProperty, platformPath, platformPaths, platformProperties, readBot, TRIGGER_PROPERTIES } from './common';

/** The server's update replaces what the body names and keeps the rest (an empty API key keeps the stored one). */
export const updateChatbot: Operation = {
	resource: 'chatbot',
	value: 'update',
	name: 'Update',
	action: 'Update a chatbot',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Change a bot of the platform: its trigger, its platform fields and its options',
	v2Only: true,
	properties: [kindProperty(), botIdProperty(), ...platformProperties((platform) => platform.fields), ...TRIGGER_PROPERTIES, botOptionsProperty()],
	method: 'PUT',
	path: platformPaths('update', true)[0],
	itemPaths: platformPaths('update', true),
	itemPath: (params) => platformPath(params, 'update', 'botId'),
	buildBody: readBot,
};
