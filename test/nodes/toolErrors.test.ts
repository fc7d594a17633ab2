import type { INode } from 'n8n-workflow';

import { inputError, toApiError } from '../../nodes/shared/errors';

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

	test('as a tool, a server error keeps the server message and status, and the hint follows it', () => {
		const refused = { response: { status: 400, data: { status: 400, error: 'Bad Request', response: { message: [[{ exists: false, jid: '5511@s.whatsapp.net', number: '5511' }]] } } } };
		const asTool = toApiError(node('n8n-nodes-messaging-instance.messagingInstanceTool'), refused, 0, { instance: 'demo' });
		const asAction = toApiError(node('n8n-nodes-messaging-instance.messagingInstance'), refused, 0, { instance: 'demo' });
		expect(asAction.description).toBeTruthy();
		expect(asTool.message).toBe(`${asAction.message}. ${asAction.description}`);
		expect(asTool.message).toContain('(HTTP 400)');
		expect(asTool.description).toBeFalsy();
	});

	test('as a tool, an unreachable server says so with what to check', () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
		const error = toApiError(node('n8n-nodes-messaging-instance.messagingInstanceTool'), refused, 0, { instance: 'demo' });
		expect(error.message).toMatch(/^The server is unreachable: .+\. ECONNREFUSED\. Check the Base URL in the credential/);
	});
});
