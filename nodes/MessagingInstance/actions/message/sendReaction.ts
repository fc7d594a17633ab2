import { messageKeyProperties, readMessageKey } from '../fields';
import { isSingleEmoji, quoted } from '../normalise';
import type { Operation } from '../types';

export const sendReaction: Operation = {
	resource: 'message',
	value: 'sendReaction',
	name: 'Send Reaction',
	action: 'React to a message',
	description: 'Add an emoji reaction to a message, or remove yours',
	properties: [
		...messageKeyProperties('to react to'),
		{
			displayName: 'Reaction',
			name: 'reaction',
			type: 'string',
			default: '👍',
			description: 'One emoji. Leave empty to remove your reaction.',
		},
	],
	path: '/message/sendReaction',
	buildBody: (params) => {
		const key = readMessageKey(params);
		const reaction = params.textOrEmpty('reaction').trim();
		if (reaction !== '' && !isSingleEmoji(reaction)) {
			params.fail(params.label('reaction'), `must be a single emoji or empty, not ${quoted(reaction)}`);
		}
		return { key, reaction };
	},
};
