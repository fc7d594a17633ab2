/**
 * The example workflow "Reply to every incoming message": created by `npm start` in the dev
 * n8n and run by the end-to-end tier (e2e/), so both use this one definition. It is the
 * recipe the README teaches: the trigger's simplified item carries `chatId` and `text`
 * (nodes/MessagingInstanceTrigger/items.ts), and Send Text maps them as they are.
 */
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME, type WorkflowSpec } from './n8n-runtime';

export const ACTION_TYPE = `${PACKAGE_NAME}.messagingInstance`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.messagingInstanceTrigger`;
export const TRIGGER_NODE = 'On Message';
export const DEMO_WORKFLOW_NAME = 'Reply to every incoming message';
export const DEMO_INSTANCE = 'demo';
/**
 * The newest versions of the nodes, as a node the user adds in the editor has them (the
 * action's version 2 has the Instance picker: From List / By Name). The e2e tier checks these
 * against the versions n8n reports for the installed package.
 */
export const ACTION_VERSION = 2;
export const TRIGGER_VERSION = 2;

/** The Instance parameter as a node of that version stores it: a picker value from version 2, text before. */
export function instanceParameter(typeVersion: number, name: string): string | { __rl: true; mode: 'list'; value: string; cachedResultName: string } {
	return typeVersion >= 2 ? { __rl: true, mode: 'list', value: name, cachedResultName: name } : name;
}

/** What the Reply node sends back, before the incoming text. */
export const REPLY_PREFIX = 'You said: ';

/** The `credentials` entry of a node that uses a Messaging Instance API credential. */
export function credentialRef(credId: string, name = 'Sandbox'): Record<string, { id: string; name: string }> {
	return { messagingInstanceApi: { id: credId, name } };
}

/** Trigger -> Send Text replying "You said: <text>" to the chat the message came from. */
export function replyWorkflow(credId: string, opts: { instance?: string; name?: string; credentialName?: string } = {}): WorkflowSpec {
	const instance = opts.instance ?? DEMO_INSTANCE;
	const credentials = credentialRef(credId, opts.credentialName);
	return {
		name: opts.name ?? DEMO_WORKFLOW_NAME,
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER_NODE,
				type: TRIGGER_TYPE,
				typeVersion: TRIGGER_VERSION,
				position: [0, 0],
				webhookId: randomUUID(),
				credentials,
				parameters: { instance: instanceParameter(TRIGGER_VERSION, instance), events: ['MESSAGES_UPSERT'] },
			},
			{
				id: 'reply',
				name: 'Reply',
				type: ACTION_TYPE,
				typeVersion: ACTION_VERSION,
				position: [300, 0],
				credentials,
				parameters: {
					resource: 'message',
					operation: 'sendText',
					instance: instanceParameter(ACTION_VERSION, instance),
					number: '={{ $json.chatId }}',
					text: `=${REPLY_PREFIX}{{ $json.text }}`,
					options: {},
				},
			},
		],
		connections: { [TRIGGER_NODE]: { main: [[{ node: 'Reply', type: 'main', index: 0 }]] } },
	};
}
