import type { Operation } from '../types';
import { botIdProperty, kindProperty, platformPath, platformPaths } from './common';

export const deleteChatbot: Operation = {
	resource: 'chatbot',
	value: 'delete',
	name: 'Delete',
	action: 'Delete a chatbot',
	description: 'Remove a bot of the platform and end its conversations',
	v2Only: true,
	properties: [kindProperty(), botIdProperty()],
	method: 'DELETE',
	path: platformPaths('delete', true)[0],
	itemPaths: platformPaths('delete', true),
	itemPath: (params) => platformPath(params, 'delete', 'botId'),
};
