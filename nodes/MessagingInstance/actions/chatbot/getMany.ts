import { returnAllProperties, wholeList } from '../fields';
import type { Operation } from '../types';
import { chatbotListRoute } from '../../../shared/routes';
import { kindProperty, platformPaths, readPlatform } from './common';

export const getManyChatbots: Operation = {
	resource: 'chatbot',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many chatbots',
	description: 'List the instance\'s bots of the platform; one item per bot',
	v2Only: true,
	properties: [kindProperty(), ...returnAllProperties()],
	method: 'GET',
	path: platformPaths('find')[0],
	itemPaths: platformPaths('find'),
	itemPath: (params) => chatbotListRoute(readPlatform(params).value).path,
	pagination: wholeList(),
};
