import type { INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/MessagingInstance/actions';

/**
 * Fields built from a shared property keep the shared hint only where it fits: a hint that
 * offers a group id belongs to a field that accepts one, and a field for a phone number alone
 * says so.
 */

/** Operations whose recipient may be a group chat. */
const ACCEPT_GROUPS = new Set([
	...OPERATIONS.filter((operation) => operation.resource === 'message' || operation.resource === 'group' || operation.resource === 'label').map(
		(operation) => `${operation.resource}:${operation.value}`,
	),
	'chat:sendPresence',
	'contact:getProfilePicture',
	// the chats a platform's bots ignore may be groups ("@g.us": every group)
	'chatbot:updateSettings',
]);

/** A group's id offered as input (not a setting about groups, such as Ignore Groups). */
const GROUP_ID = /@g\.us|\bgroup (?:ids?|jids?)\b/i;

function textsOf(property: INodeProperties): Array<{ field: string; text: string }> {
	return [property.hint, property.description]
		.filter((text): text is string => typeof text === 'string')
		.map((text) => ({ field: property.displayName, text }));
}

describe('field hints and descriptions fit the field', () => {
	test('a hint or description that offers a group id is only on operations that accept group chats', () => {
		const misplaced = OPERATIONS.flatMap((operation) => {
			const key = `${operation.resource}:${operation.value}`;
			if (ACCEPT_GROUPS.has(key)) return [];
			return operation.properties.flatMap(textsOf).filter(({ text }) => GROUP_ID.test(text)).map(({ field, text }) => `${key} ${field}: ${text}`);
		});
		expect(misplaced).toEqual([]);
	});

	test('Connect\'s Pairing Number asks for the account\'s phone number, not a JID or a group', () => {
		const connect = OPERATIONS.find((operation) => operation.resource === 'instance' && operation.value === 'connect');
		const pairing = connect?.properties.find((property) => property.displayName === 'Pairing Number');
		expect(pairing?.name).toBe('number');
		expect(pairing?.hint).toMatch(/phone number of the account/i);
		expect(pairing?.hint).toMatch(/country code/i);
		expect(pairing?.hint).not.toMatch(/JID|group|@/i);
	});

	test('Send Text\'s Number still offers numbers, JIDs and group ids', () => {
		const sendText = OPERATIONS.find((operation) => operation.resource === 'message' && operation.value === 'sendText');
		const number = sendText?.properties.find((property) => property.name === 'number');
		expect(number?.hint).toMatch(/@s\.whatsapp\.net/);
		expect(number?.hint).toMatch(/@g\.us/);
	});
});
