import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { messageIdFor, messageIdOption, withMessageId } from '../../nodes/MessagingInstance/actions/message/messageId';
import { storedRead } from '../../nodes/MessagingInstance/actions/requests';

/**
 * Scratch operations of scratchOperation.test.ts, added to the registry by that test only:
 * one with a read before its write and a look-up before a resend, and two that ask for a
 * request they did not declare.
 */

const SCRATCH_PROPERTIES: INodeProperties[] = [
	{ displayName: 'Number', name: 'number', type: 'string', default: '', required: true },
	{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [messageIdOption] },
];

export const scratch: Operation = {
	resource: 'message',
	value: 'scratchReadWrite',
	name: 'Scratch Read and Write',
	action: 'Write a scratch after reading it',
	description: 'A scratch operation of this test',
	properties: SCRATCH_PROPERTIES,
	path: '/scratch/write',
	carriesMessageId: true,
	buildRequest: (params, dialect, run) => withMessageId({ body: { number: params.recipient('number'), text: 'scratch' } }, messageIdFor(params, dialect, run)),
	update: {
		rule: 'readModifyWrite',
		read: storedRead({ routes: ['/scratch/find'], route: () => '/scratch/find', recordFields: ['stored'] }),
		merge: (current, body) => ({ stored: current.stored, ...body }),
	},
};

/** Operations that ask for what they did not declare: a helper key, a route of a declared helper. */
export const undeclaredKey: Operation = {
	...scratch,
	value: 'scratchUndeclaredKey',
	update: undefined,
	carriesMessageId: false,
	buildRequest: (params) => ({ body: { number: params.recipient('number') } }),
	readAnswer: async (_params, _request, exchange) => [(await exchange.helper('somethingElse', { body: {} })) as never],
};
export const undeclaredRoute: Operation = {
	...undeclaredKey,
	value: 'scratchUndeclaredRoute',
	helpers: { history: { name: 'The read of the chat', method: 'POST', routes: ['/chat/findMessages'], answer: 'page', pageField: 'messages', unlessAnswered: 'nothing was output' } },
	readAnswer: async (_params, _request, exchange) => [(await exchange.helper('history', { route: '/instance/logout', body: {} })) as never],
};
export const SCRATCHES = [scratch, undeclaredKey, undeclaredRoute];

