import type { Operation } from '../types';
import { botIdProperty, kindProperty, platformPath, platformPaths, readPlatform } from './common';

export const getChatbot: Operation = {
	resource: 'chatbot',
	value: 'get',
	name: 'Get',
	action: 'Get a chatbot',
	description: 'Get one bot of the platform by its ID',
	v2Only: true,
	properties: [kindProperty(), botIdProperty()],
	method: 'GET',
	path: platformPaths('fetch', true)[0],
	itemPaths: platformPaths('fetch', true),
	itemPath: (params) => platformPath(params, 'fetch', 'botId'),
	// The server answers an unknown ID with 200 and `null`.
	toItems: (response, params) => {
		if (response === null || response === undefined || typeof response !== 'object') {
			return params.fail(params.label('botId'), `names no ${readPlatform(params).name} bot on the server`, 'Pick the bot from the list, or get the IDs with Chatbot → Get Many.');
		}
		return [response as never];
	},
};
