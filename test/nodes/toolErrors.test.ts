import type { INode } from 'n8n-workflow';

import { inputError } from '../../nodes/shared/errors';

const node = (type: string): INode => ({
	id: 'n',
	name: 'Send a text message in Messaging Instance',
	type,
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
});
const HINT = 'Enter the number with country code, e.g. +55 11 99999-0000.';

describe('input errors read by an AI agent', () => {
	test('as a tool, the hint is in the message (n8n 2.x gives the agent the message only)', () => {
		const error = inputError(node('n8n-nodes-messaging-instance.messagingInstanceTool'), 0, 'Number', 'has no digits ("his card")', HINT);
		expect(error.message).toBe(`"Number" has no digits ("his card") [item 0]. ${HINT}`);
		expect(error.description).toBeFalsy();
	});

	test('as an action node, the hint stays the description', () => {
		const error = inputError(node('n8n-nodes-messaging-instance.messagingInstance'), 1, 'Number', 'has no digits ("his card")', HINT);
		expect(error.message).toBe('"Number" has no digits ("his card") [item 1]');
		expect(error.description).toBe(HINT);
	});

	test('without a hint, the message is the same either way', () => {
		const error = inputError(node('n8n-nodes-messaging-instance.messagingInstanceTool'), 0, 'Text', 'is required');
		expect(error.message).toBe('"Text" is required [item 0]');
	});
});
