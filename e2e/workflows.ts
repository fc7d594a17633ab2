/**
 * Workflows of the e2e tier, written against the public interface (node type names,
 * resources, operations, parameter names). The example of `npm start`, which the e2e tier
 * runs too, is in scripts/demo-workflow.ts.
 */
import { type WorkflowSpec } from '../scripts/n8n-runtime';
import { ACTION_TYPE, DEMO_INSTANCE, credentialRef } from '../scripts/demo-workflow';

// The example workflow of `npm start` lives with the scripts; the e2e tier runs it too.
export { ACTION_TYPE, TRIGGER_NODE, TRIGGER_TYPE, replyWorkflow } from '../scripts/demo-workflow';

/* eslint-disable @typescript-eslint/no-explicit-any */

const INSTANCE = DEMO_INSTANCE;

interface Op {
	node: string;
	resource: string;
	operation: string;
	params: Record<string, unknown>;
	path: string;
	body: unknown;
	/** output items expected (default 1) */
	items?: number;
	checkOutput?: (items: any[]) => void;
}

function must(cond: unknown, msg: string): void {
	if (!cond) throw new Error(msg);
}

/** Output items must never leak the key (spec: "Output items never contain the API key"). */
function noSecrets(items: any[]): void {
	const s = JSON.stringify(items);
	must(!/"apikey"\s*:\s*"[^"]+"/i.test(s), `output leaks an apikey: ${s.slice(0, 300)}`);
}

const sentResult = (kind: string) => (items: any[]) => {
	noSecrets(items);
	const j = items[0];
	must(j?.key?.id && j?.message?.[kind], `output is not the server's message result with ${kind}: ${JSON.stringify(j).slice(0, 300)}`);
};

/** The 12 operations, their parameters, and the request each must make (documented dialect). */
function operations(): Op[] {
	return [
		{
			node: 'Send Text',
			resource: 'message',
			operation: 'sendText',
			params: {
				number: '+55 (11) 99999-0000',
				text: 'Hello from e2e',
				options: {
					delay: 10,
					linkPreview: true,
					mentionsEveryOne: false,
					mentioned: '+55 11 98888-7777\n5511977776666, ',
					quotedMessageId: 'QUOTED1',
					quotedText: 'the original',
				},
			},
			path: `/message/sendText/${INSTANCE}`,
			body: {
				number: '5511999990000',
				text: 'Hello from e2e',
				delay: 10,
				linkPreview: true,
				mentionsEveryOne: false,
				mentioned: ['5511988887777', '5511977776666'],
				quoted: { key: { id: 'QUOTED1' }, message: { conversation: 'the original' } },
			},
			checkOutput: sentResult('extendedTextMessage'),
		},
		{
			node: 'Send List',
			resource: 'message',
			operation: 'sendList',
			params: {
				number: '5511999990000',
				title: 'Menu',
				description: 'Pick one',
				buttonText: 'Open',
				footerText: 'footer',
				sections: {
					section: [
						{
							title: 'Drinks',
							rows: {
								row: [
									{ title: 'Coffee', description: 'hot', rowId: 'r1' },
									{ title: 'Tea', description: 'green', rowId: 'r2' },
								],
							},
						},
					],
				},
				options: {},
			},
			path: `/message/sendList/${INSTANCE}`,
			body: {
				number: '5511999990000',
				title: 'Menu',
				description: 'Pick one',
				buttonText: 'Open',
				footerText: 'footer',
				values: [
					{
						title: 'Drinks',
						rows: [
							{ title: 'Coffee', description: 'hot', rowId: 'r1' },
							{ title: 'Tea', description: 'green', rowId: 'r2' },
						],
					},
				],
			},
			checkOutput: sentResult('pollCreationMessage'),
		},
		{
			node: 'Send Buttons',
			resource: 'message',
			operation: 'sendButtons',
			params: {
				number: '5511999990000',
				title: 'Question',
				description: 'Yes or no?',
				footer: 'thanks',
				buttons: {
					button: [
						{ title: 'Yes', displayText: 'Yes', id: 'y' },
						{ title: 'No', displayText: 'No', id: 'n' },
					],
				},
				options: {},
			},
			path: `/message/sendButtons/${INSTANCE}`,
			body: {
				number: '5511999990000',
				title: 'Question',
				description: 'Yes or no?',
				footer: 'thanks',
				buttons: [
					{ title: 'Yes', displayText: 'Yes', id: 'y' },
					{ title: 'No', displayText: 'No', id: 'n' },
				],
			},
			checkOutput: sentResult('pollCreationMessage'),
		},
		{
			node: 'Send Location',
			resource: 'message',
			operation: 'sendLocation',
			params: {
				number: '5511999990000@s.whatsapp.net',
				name: 'São Paulo',
				address: 'Av. Paulista, 1578',
				latitude: -23.5614,
				longitude: -46.6559,
				options: {},
			},
			path: `/message/sendLocation/${INSTANCE}`,
			body: {
				number: '5511999990000@s.whatsapp.net',
				name: 'São Paulo',
				address: 'Av. Paulista, 1578',
				latitude: -23.5614,
				longitude: -46.6559,
			},
			checkOutput: sentResult('locationMessage'),
		},
		{
			node: 'Send Status',
			resource: 'message',
			operation: 'sendStatus',
			params: {
				type: 'text',
				content: 'Status from e2e',
				caption: '',
				backgroundColor: '#008000',
				font: 2,
				allContacts: false,
				statusJidList: '+55 11 99999-0000, 5511988887777@s.whatsapp.net',
			},
			path: `/message/sendStatus/${INSTANCE}`,
			body: {
				type: 'text',
				content: 'Status from e2e',
				caption: '',
				backgroundColor: '#008000',
				font: 2,
				allContacts: false,
				statusJidList: ['5511999990000', '5511988887777@s.whatsapp.net'],
			},
			checkOutput: sentResult('extendedTextMessage'),
		},
		{
			node: 'Send Reaction',
			resource: 'message',
			operation: 'sendReaction',
			params: {
				remoteJid: '5511999990000@s.whatsapp.net',
				fromMe: true,
				messageId: 'MSG1',
				reaction: '👍',
			},
			path: `/message/sendReaction/${INSTANCE}`,
			body: {
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: 'MSG1' },
				reaction: '👍',
			},
			checkOutput: sentResult('reactionMessage'),
		},
		{
			node: 'Archive Chat',
			resource: 'chat',
			operation: 'archive',
			params: { chat: '5511999990000@s.whatsapp.net', archive: true, messageId: 'MSG2', fromMe: false },
			path: `/chat/archiveChat/${INSTANCE}`,
			body: {
				lastMessage: { key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: 'MSG2' } },
				archive: true,
				chat: '5511999990000@s.whatsapp.net',
			},
			checkOutput: (items) => must(items[0]?.archived === true, `archive output ${JSON.stringify(items[0])}`),
		},
		{
			node: 'Numbers Check',
			resource: 'chat',
			operation: 'checkNumbers',
			params: { numbers: '+55 11 99999-0000\n0123456789' },
			path: `/chat/messagingNumbers/${INSTANCE}`,
			body: { numbers: ['5511999990000', '0123456789'] },
			items: 2,
			checkOutput: (items) => {
				must(items[0]?.exists === true && items[1]?.exists === false, `numbers check output ${JSON.stringify(items)}`);
			},
		},
		{
			node: 'Update Message',
			resource: 'chat',
			operation: 'updateMessage',
			params: {
				number: '+55 11 99999-0000',
				text: 'edited text',
				remoteJid: '5511999990000@s.whatsapp.net',
				fromMe: true,
				messageId: 'MSG3',
			},
			path: `/chat/updateMessage/${INSTANCE}`,
			body: {
				number: 5511999990000,
				text: 'edited text',
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: 'MSG3' },
			},
			checkOutput: (items) => must(items[0]?.success === true, `update output ${JSON.stringify(items[0])}`),
		},
		{
			node: 'Send Presence',
			resource: 'chat',
			operation: 'sendPresence',
			params: { number: '5511999990000', presence: 'composing', delay: 20 },
			path: `/chat/sendPresence/${INSTANCE}`,
			body: { number: '5511999990000', options: { delay: 20, presence: 'composing', number: '5511999990000' } },
			checkOutput: (items) => must(items[0]?.success === true, `presence output ${JSON.stringify(items[0])}`),
		},
		{
			node: 'Set Settings',
			resource: 'settings',
			operation: 'set',
			params: {
				rejectCall: true,
				msgCall: '',
				groupsIgnore: true,
				alwaysOnline: false,
				readMessages: true,
				readStatus: false,
				syncFullHistory: false,
			},
			path: `/settings/set/${INSTANCE}`,
			body: {
				rejectCall: true,
				msgCall: '',
				groupsIgnore: true,
				alwaysOnline: false,
				readMessages: true,
				readStatus: false,
				syncFullHistory: false,
			},
			checkOutput: (items) =>
				must(items[0]?.settings?.settings?.reject_call === true, `settings output ${JSON.stringify(items[0])}`),
		},
		{
			node: 'Set Webhook',
			resource: 'webhook',
			operation: 'set',
			params: {
				enabled: true,
				url: 'http://127.0.0.1:9/e2e-unused',
				webhookByEvents: false,
				webhookBase64: true,
				events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
			},
			path: `/webhook/set/${INSTANCE}`,
			body: {
				enabled: true,
				url: 'http://127.0.0.1:9/e2e-unused',
				webhookByEvents: false,
				webhookBase64: true,
				events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
			},
			checkOutput: (items) =>
				must(items[0]?.webhook?.webhook?.url === 'http://127.0.0.1:9/e2e-unused', `webhook output ${JSON.stringify(items[0])}`),
		},
	];
}

export function expectedActionRequests(_sandboxUrl: string): Array<Pick<Op, 'node' | 'path' | 'body' | 'items' | 'checkOutput'>> {
	return operations().map(({ node, path, body, items, checkOutput }) => ({ node, path, body, items, checkOutput }));
}

const cred = (credId: string) => credentialRef(credId);

/** Manual Trigger fanned out to one action node per operation. */
export function actionWorkflow(credId: string): WorkflowSpec {
	const ops = operations();
	const nodes: any[] = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
	];
	ops.forEach((op, i) => {
		nodes.push({
			id: `op${i}`,
			name: op.node,
			type: ACTION_TYPE,
			typeVersion: 1,
			position: [300, i * 120],
			credentials: cred(credId),
			parameters: { resource: op.resource, operation: op.operation, instance: INSTANCE, ...op.params },
		});
	});
	return {
		name: 'e2e: every action operation',
		nodes,
		connections: { Start: { main: [ops.map((op) => ({ node: op.node, type: 'main', index: 0 }))] } },
	};
}

/** The item the field-reference workflow maps from, and the body both senders must send. */
export const MAPPED_ITEM = { to: '+55 11 99999-0001', text: 'Olá, Ana 👋 "quoted"', contact: { phone: 5511999990002 } };
export const MAPPED_BODY = { number: '5511999990002', text: MAPPED_ITEM.text };

/**
 * Edit Fields emits MAPPED_ITEM; two Send Text nodes map it: one with plain field references
 * (which the node reads from the item itself), one with expressions only n8n's engine
 * evaluates. Both must send MAPPED_BODY.
 */
export function fieldReferenceWorkflow(credId: string): WorkflowSpec {
	const sender = (id: string, name: string, number: string, text: string, y: number) => ({
		id,
		name,
		type: ACTION_TYPE,
		typeVersion: 1,
		position: [600, y],
		credentials: cred(credId),
		parameters: { resource: 'message', operation: 'sendText', instance: INSTANCE, number, text, options: {} },
	});
	return {
		name: 'e2e: field references',
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'item',
				name: 'Item',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [300, 0],
				parameters: { mode: 'raw', jsonOutput: JSON.stringify(MAPPED_ITEM), options: {} },
			},
			sender('direct', 'Mapped Fields', '={{ $json.contact.phone }}', '={{ $json["text"] }}', -100),
			sender('engine', 'Mapped Expressions', '={{ ($json.contact.phone) }}', '={{ ($json.text) }}', 100),
		],
		connections: {
			Start: { main: [[{ node: 'Item', type: 'main', index: 0 }]] },
			Item: {
				main: [
					[
						{ node: 'Mapped Fields', type: 'main', index: 0 },
						{ node: 'Mapped Expressions', type: 'main', index: 0 },
					],
				],
			},
		},
	};
}
