import type { Operation } from '../types';
import { kindProperty, platformPath, platformPaths } from './common';

export const getChatbotSettings: Operation = {
	resource: 'chatbot',
	value: 'getSettings',
	name: 'Get Settings',
	action: 'Get the chatbot settings',
	description: 'Get the platform\'s default settings on the instance (the server\'s defaults when none were saved)',
	v2Only: true,
	properties: [kindProperty()],
	method: 'GET',
	path: platformPaths('fetchSettings')[0],
	itemPaths: platformPaths('fetchSettings'),
	itemPath: (params) => platformPath(params, 'fetchSettings'),
};
