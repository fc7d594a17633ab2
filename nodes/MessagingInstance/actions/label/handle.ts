import { recipientProperty } from '../fields';
import type { Operation } from '../types';

/** Add To Chat and Remove From Chat: one route, the action in the body. */
export function labelChange(action: 'add' | 'remove'): Operation {
	const adding = action === 'add';
	return {
		resource: 'label',
		value: adding ? 'addToChat' : 'removeFromChat',
		name: adding ? 'Add to Chat' : 'Remove From Chat',
		action: adding ? 'Add a label to a chat' : 'Remove a label from a chat',
		description: adding ? 'Put a label on a chat' : 'Take a label off a chat',
		v2Only: true,
		properties: [
			recipientProperty('The chat: a number or a JID'),
			{
				displayName: 'Label ID',
				name: 'labelId',
				type: 'string',
				default: '',
				required: true,
				placeholder: '3',
				description: 'The label\'s ID, as Label → Get Many lists it',
			},
		],
		path: '/label/handleLabel',
		buildBody: (params) => ({
			number: params.recipient('number', 'Number'),
			labelId: params.text('labelId', 'Label ID').trim(),
			action,
		}),
	};
}
