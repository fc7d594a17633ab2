import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MESSAGE_IDS } from '../harness/engine';
import { run, sent, useSandbox, type DialectName } from './helpers';

interface Case {
	title: string;
	parameters: INodeParameters;
	path: Record<DialectName, string>;
	body: Record<DialectName, IDataObject>;
	/** A send that carries a message id on v2 (the body's `messageId`); its output names the id the server gave the message. */
	messageId?: boolean;
}

const same = <T>(value: T): Record<DialectName, T> => ({ documented: value, v2: value });

const options = {
	delay: 0,
	linkPreview: false,
	mentionsEveryOne: true,
	mentioned: '+55 11 98888-0000,\n5511977770000 , 5511977770000',
	quotedMessageId: ' 3EB0QUOTED ',
	quotedText: 'the original',
};
const optionsBody = {
	delay: 0,
	linkPreview: false,
	mentionsEveryOne: true,
	mentioned: ['5511988880000', '5511977770000'],
	quoted: { key: { id: '3EB0QUOTED' }, message: { conversation: 'the original' } },
};

/** The header fields of both Send List cases, as parameters and as sent. */
const LIST_HEADER = { number: '5511999990000', title: 'Menu', description: 'Pick one', buttonText: 'Open' };
const LIST_PARAMETERS = { resource: 'message', operation: 'sendList', ...LIST_HEADER };

const cases: Case[] = [
	{
		title: 'Send Text with every option',
		parameters: { resource: 'message', operation: 'sendText', number: '+55 (11) 99999-0000', text: 'Hello *there*', options },
		path: same('/message/sendText/demo'),
		// v2 servers take the node's message id (2.4 makes it the message's id; 2.3.x, played here, choose their own).
		body: {
			documented: { number: '5511999990000', text: 'Hello *there*', ...optionsBody },
			v2: { number: '5511999990000', text: 'Hello *there*', ...optionsBody, messageId: MESSAGE_IDS[0] },
		},
		messageId: true,
	},
	{
		title: 'Send Text with no option sends only the required fields',
		parameters: { resource: 'message', operation: 'sendText', number: ' 120363000000000000@g.us ', text: 'hi group' },
		path: same('/message/sendText/demo'),
		body: {
			documented: { number: '120363000000000000@g.us', text: 'hi group' },
			v2: { number: '120363000000000000@g.us', text: 'hi group', messageId: MESSAGE_IDS[0] },
		},
		messageId: true,
	},
	{
		title: 'Send List',
		parameters: {
			...LIST_PARAMETERS,
			footerText: 'Thanks',
			sections: {
				section: [
					{ title: 'Drinks', rows: { row: [{ title: 'Tea', description: 'Hot', rowId: 'tea' }, { title: 'Juice', description: 'Cold', rowId: 'juice' }] } },
					{ title: 'Food', rows: { row: [{ title: 'Cake', description: '', rowId: 'cake' }] } },
				],
			},
			options: { delay: 0 },
		},
		path: same('/message/sendList/demo'),
		body: (() => {
			const sections = [
				{ title: 'Drinks', rows: [{ title: 'Tea', description: 'Hot', rowId: 'tea' }, { title: 'Juice', description: 'Cold', rowId: 'juice' }] },
				{ title: 'Food', rows: [{ title: 'Cake', description: '', rowId: 'cake' }] },
			];
			const common = { ...LIST_HEADER, footerText: 'Thanks', delay: 0 };
			return { documented: { ...common, values: sections }, v2: { ...common, sections } };
		})(),
	},
	{
		title: 'Send List without a footer',
		parameters: {
			...LIST_PARAMETERS,
			sections: { section: [{ title: 'Only', rows: { row: [{ title: 'A', description: 'a', rowId: '1' }] } }] },
		},
		path: same('/message/sendList/demo'),
		body: {
			documented: { ...LIST_HEADER, values: [{ title: 'Only', rows: [{ title: 'A', description: 'a', rowId: '1' }] }] },
			v2: { ...LIST_HEADER, footerText: '', sections: [{ title: 'Only', rows: [{ title: 'A', description: 'a', rowId: '1' }] }] },
		},
	},
	{
		title: 'Send Buttons',
		parameters: {
			resource: 'message',
			operation: 'sendButtons',
			number: '5511999990000',
			title: 'Confirm',
			description: 'Are you coming?',
			footer: 'RSVP',
			buttons: { button: [{ title: 'Yes', displayText: 'Yes!', id: 'y' }, { title: 'No', displayText: 'No', id: 'n' }] },
		},
		path: same('/message/sendButtons/demo'),
		body: {
			documented: {
				number: '5511999990000',
				title: 'Confirm',
				description: 'Are you coming?',
				footer: 'RSVP',
				buttons: [{ title: 'Yes', displayText: 'Yes!', id: 'y' }, { title: 'No', displayText: 'No', id: 'n' }],
			},
			v2: {
				number: '5511999990000',
				title: 'Confirm',
				description: 'Are you coming?',
				footer: 'RSVP',
				buttons: [{ type: 'reply', displayText: 'Yes!', id: 'y' }, { type: 'reply', displayText: 'No', id: 'n' }],
			},
		},
	},
	{
		title: 'Send Location',
		parameters: { resource: 'message', operation: 'sendLocation', number: '5511999990000', name: 'Eiffel Tower', address: 'Paris', latitude: 48.8584, longitude: 2.2945, options: { linkPreview: true } },
		path: same('/message/sendLocation/demo'),
		body: same({ number: '5511999990000', name: 'Eiffel Tower', address: 'Paris', latitude: 48.8584, longitude: 2.2945, linkPreview: true }),
	},
	{
		title: 'Send Status to all contacts',
		parameters: { resource: 'message', operation: 'sendStatus', type: 'text', content: 'Open today', backgroundColor: '#112233', font: 2, allContacts: true },
		path: same('/message/sendStatus/demo'),
		body: {
			documented: { type: 'text', content: 'Open today', caption: '', backgroundColor: '#112233', font: 2, allContacts: true, statusJidList: [] },
			v2: { type: 'text', content: 'Open today', caption: '', backgroundColor: '#112233', font: 2, allContacts: true },
		},
	},
	{
		title: 'Send Status to chosen contacts',
		parameters: {
			resource: 'message',
			operation: 'sendStatus',
			type: 'image',
			content: 'https://example.com/a.png',
			caption: 'New',
			backgroundColor: '#000000',
			font: 5,
			allContacts: false,
			statusJidList: '5511999990000@s.whatsapp.net,\n+55 11 98888-0000',
		},
		path: same('/message/sendStatus/demo'),
		body: same({
			type: 'image',
			content: 'https://example.com/a.png',
			caption: 'New',
			backgroundColor: '#000000',
			font: 5,
			allContacts: false,
			statusJidList: ['5511999990000@s.whatsapp.net', '5511988880000'],
		}),
	},
	{
		title: 'Send Reaction',
		parameters: { resource: 'message', operation: 'sendReaction', remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, messageId: '3EB0AAA', reaction: '🚀' },
		path: same('/message/sendReaction/demo'),
		body: same({ key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: '3EB0AAA' }, reaction: '🚀' }),
	},
	{
		title: 'Send Reaction with an empty reaction removes it',
		parameters: { resource: 'message', operation: 'sendReaction', remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, messageId: '3EB0AAA', reaction: '' },
		path: same('/message/sendReaction/demo'),
		body: same({ key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: '3EB0AAA' }, reaction: '' }),
	},
	{
		title: 'Archive Chat',
		parameters: { resource: 'chat', operation: 'archive', chat: '5511999990000@s.whatsapp.net', archive: true, messageId: '3EB0LAST', fromMe: false },
		path: same('/chat/archiveChat/demo'),
		body: same({ lastMessage: { key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: '3EB0LAST' } }, archive: true, chat: '5511999990000@s.whatsapp.net' }),
	},
	{
		title: 'Update Message',
		parameters: { resource: 'chat', operation: 'updateMessage', number: '+55 11 99999-0000', text: 'edited', remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, messageId: '3EB0MINE' },
		path: same('/chat/updateMessage/demo'),
		body: {
			documented: { number: 5511999990000, text: 'edited', key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: '3EB0MINE' } },
			v2: { number: '5511999990000', text: 'edited', key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: '3EB0MINE' } },
		},
	},
	{
		title: 'Send Presence',
		parameters: { resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'recording', delay: 0 },
		path: same('/chat/sendPresence/demo'),
		body: {
			documented: { number: '5511999990000', options: { delay: 0, presence: 'recording', number: '5511999990000' } },
			v2: { number: '5511999990000', presence: 'recording', delay: 0 },
		},
	},
	{
		title: 'Set Settings (msgCall left empty is sent as "")',
		parameters: { resource: 'settings', operation: 'set', rejectCall: true, groupsIgnore: true, alwaysOnline: false, readMessages: true, readStatus: false, syncFullHistory: false },
		path: same('/settings/set/demo'),
		body: same({ rejectCall: true, msgCall: '', groupsIgnore: true, alwaysOnline: false, readMessages: true, readStatus: false, syncFullHistory: false }),
	},
	{
		title: 'Set Webhook',
		parameters: { resource: 'webhook', operation: 'set', enabled: true, url: ' https://n8n.example.com/webhook/abc ', webhookByEvents: true, webhookBase64: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] },
		path: same('/webhook/set/demo'),
		body: {
			documented: { enabled: true, url: 'https://n8n.example.com/webhook/abc', webhookByEvents: true, webhookBase64: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] },
			v2: { webhook: { enabled: true, url: 'https://n8n.example.com/webhook/abc', byEvents: true, base64: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] } },
		},
	},
];

describe.each(['documented', 'v2'] as const)('every operation against a %s server', (dialect) => {
	const sandbox = useSandbox(dialect);

	test.each(cases)('$title: sends exactly the body and outputs the response', async ({ parameters, path, body, messageId }) => {
		const result = await run(sandbox.current, parameters);

		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path: path[dialect], body: body[dialect], status: expect.any(Number) }]);
		const [request] = sandbox.current.requests;
		expect(request.status).toBeLessThan(300);
		expect(request.headers.apikey).toBe(sandbox.current.apiKey);
		const response = request.response as { key?: { id?: string } } | undefined;
		const json = messageId && dialect === 'v2' ? { ...response, messageId: response?.key?.id } : (response ?? { success: true });
		if (messageId && dialect === 'v2') expect(response?.key?.id).toMatch(/^[0-9A-F]{16,}$/);
		expect(result.items).toEqual([{ json, pairedItem: { item: 0 } }]);
	});

	test('Check Numbers: one request, one output item per number, paired with its input', async () => {
		const result = await run(sandbox.current, { resource: 'chat', operation: 'checkNumbers', numbers: '+55 11 99999-0000\n0123456, 120363000000000000@g.us' });

		const path = dialect === 'v2' ? '/chat/whatsappNumbers/demo' : '/chat/messagingNumbers/demo';
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path, body: { numbers: ['5511999990000', '0123456', '120363000000000000@g.us'] }, status: 200 },
		]);
		expect(result.items).toEqual([
			{ json: { exists: true, jid: '5511999990000@s.whatsapp.net', number: '5511999990000' }, pairedItem: { item: 0 } },
			{ json: { exists: false, jid: '0123456@s.whatsapp.net', number: '0123456' }, pairedItem: { item: 0 } },
			{ json: expect.objectContaining({ exists: true, number: '120363000000000000@g.us' }), pairedItem: { item: 0 } },
		]);
	});

	test('responses keep the contract shapes: PENDING status, string timestamp, status@broadcast, poll for lists', async () => {
		const text = await run(sandbox.current, cases[1].parameters);
		expect(text.items[0].json).toMatchObject({ status: 'PENDING', messageTimestamp: expect.stringMatching(/^\d+$/) });
		const status = await run(sandbox.current, cases[6].parameters);
		expect(status.items[0].json).toMatchObject({ key: { remoteJid: 'status@broadcast' }, participant: expect.any(String) });
		const list = await run(sandbox.current, cases[2].parameters);
		expect(list.items[0].json).toMatchObject({ message: { pollCreationMessage: { name: 'Menu' } } });
	});
});
