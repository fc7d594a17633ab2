import { messageKeyProperties, readMessageKey } from '../fields';
import type { Operation } from '../types';

export const markAsRead: Operation = {
	resource: 'message',
	value: 'markAsRead',
	name: 'Mark as Read',
	action: 'Mark a message as read',
	description: 'Mark a received message as read: the sender sees the blue ticks',
	v2Only: true,
	properties: messageKeyProperties('to mark as read'),
	path: '/chat/markMessageAsRead',
	buildBody: (params) => ({ readMessages: [readMessageKey(params)] }),
};
