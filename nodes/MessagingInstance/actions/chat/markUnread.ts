import { lastMessageKeyProperties, readMessageKey } from '../fields';
import type { Operation } from '../types';

/** The latest time taken, in seconds (2100-01-01): past it a timestamp is most likely in milliseconds. */
const LARGEST_SECONDS = 4_102_444_800;

export const markChatUnread: Operation = {
	resource: 'chat',
	value: 'markUnread',
	name: 'Mark as Unread',
	action: 'Mark a chat as unread',
	description: 'Mark a chat as unread again, as a reminder to answer it',
	v2Only: true,
	properties: [
		...lastMessageKeyProperties('the server needs it'),
		{
			displayName: 'Last Message Timestamp',
			name: 'messageTimestamp',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: LARGEST_SECONDS, numberPrecision: 0 },
			default: 0,
			description:
				"When that last message was sent, in seconds since 1970 (a message's messageTimestamp). 0 leaves it out, and the server then stores the current time in milliseconds as the message's time.",
		},
	],
	path: '/chat/markChatUnread',
	buildBody: (params) => {
		const key = readMessageKey(params, 'chat');
		const label = params.label('messageTimestamp');
		const given = params.raw<unknown>('messageTimestamp', 0);
		// A time in milliseconds (what JavaScript's Date gives) is named as such, before the field's range says only "at most".
		const asNumber = typeof given === 'number' || typeof given === 'string' ? Number(given) : Number.NaN;
		if (Number.isFinite(asNumber) && asNumber > LARGEST_SECONDS && asNumber / 1000 <= LARGEST_SECONDS) {
			params.fail(label, 'must be in seconds, not milliseconds', `Divide it by 1000: ${Math.floor(asNumber / 1000)}.`);
		}
		const timestamp = given === '' || given === null || given === undefined ? 0 : params.checkNumber(given, label, { min: 0, integer: true });
		return { lastMessage: { key, ...(timestamp > 0 ? { messageTimestamp: timestamp } : {}) }, chat: key.remoteJid };
	},
};
