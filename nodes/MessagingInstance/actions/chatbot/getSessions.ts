import { returnAllProperties, wholeList } from '../fields';
import type { Operation } from '../types';
import { botIdProperty, kindProperty, platformPath, platformPaths } from './common';

export const getChatbotSessions: Operation = {
	resource: 'chatbot',
	value: 'getSessions',
	name: 'Get Sessions',
	action: 'Get the sessions of a chatbot',
	description: 'List a bot\'s conversations: one item per chat, with its status',
	v2Only: true,
	properties: [kindProperty(), botIdProperty(), ...returnAllProperties()],
	method: 'GET',
	path: platformPaths('fetchSessions', true)[0],
	itemPaths: platformPaths('fetchSessions', true),
	itemPath: (params) => platformPath(params, 'fetchSessions', 'botId'),
	pagination: wholeList(),
};
