import { recipientProperty } from '../fields';
import { picker } from '../../../shared/pickers';
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
			picker({
				displayName: 'Label',
				name: 'labelId',
				description: 'The label: pick it from the instance\'s labels, or give its ID',
				searchMethod: 'searchLabels',
				typedMode: { displayName: 'By ID', name: 'id', placeholder: '3' },
			}),
		],
		path: '/label/handleLabel',
		buildBody: (params) => ({
			number: params.recipient('number'),
			labelId: params.text('labelId').trim(),
			action,
		}),
	};
}
