import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import { storedRead } from '../requests';

const WHEN_ENABLED = { show: { chatwootEnabled: [true] } };

/** Options sent only when given, by their body key and type; those left out keep their stored value (see `update`). */
const OPTIONS: INodeProperties[] = [
	{ displayName: 'Auto Create Inbox', name: 'autoCreate', type: 'boolean', default: false, description: 'Whether the server creates the Chatwoot inbox (and its contact) itself' },
	{ displayName: 'Conversation Pending', name: 'conversationPending', type: 'boolean', default: false, description: 'Whether new conversations start as pending' },
	{ displayName: 'Days of Messages to Import', name: 'daysLimitImportMessages', type: 'number', typeOptions: { minValue: 1, maxValue: 3_650 }, default: 3, description: 'How many days back Import Messages goes' },
	{ displayName: 'Ignored Chats', name: 'ignoreJids', type: 'string', default: '', placeholder: '5511999990000@s.whatsapp.net, @g.us', description: 'JIDs the server does not forward to Chatwoot, separated by commas (@g.us: all groups)' },
	{ displayName: 'Import Contacts', name: 'importContacts', type: 'boolean', default: false, description: 'Whether the instance\'s contacts are imported into Chatwoot' },
	{ displayName: 'Import Messages', name: 'importMessages', type: 'boolean', default: false, description: 'Whether the instance\'s recent messages are imported into Chatwoot' },
	{ displayName: 'Inbox Logo URL', name: 'logo', type: 'string', default: '', description: 'Picture of the inbox\'s bot contact (with Auto Create Inbox)' },
	{ displayName: 'Inbox Name', name: 'nameInbox', type: 'string', default: '', description: 'Name of the Chatwoot inbox; empty: the instance\'s name' },
	{ displayName: 'Inbox Number', name: 'number', type: 'string', default: '', placeholder: '5511999990000', description: 'Phone number of the inbox (with Auto Create Inbox)' },
	{ displayName: 'Merge Brazilian Contacts', name: 'mergeBrazilContacts', type: 'boolean', default: false, description: 'Whether Brazilian numbers with and without the ninth digit are one contact' },
	{ displayName: 'Organization', name: 'organization', type: 'string', default: '', description: 'Name of the inbox\'s bot contact (with Auto Create Inbox)' },
	{ displayName: 'Reopen Conversation', name: 'reopenConversation', type: 'boolean', default: false, description: 'Whether a new message reopens the contact\'s resolved conversation instead of starting one' },
	{ displayName: 'Sign Messages', name: 'signMsg', type: 'boolean', default: false, description: 'Whether messages sent from Chatwoot carry the agent\'s name' },
	{ displayName: 'Signature Delimiter', name: 'signDelimiter', type: 'string', default: '', placeholder: '\\n', description: 'What separates the agent\'s name from the message (with Sign Messages)' },
];

export const setChatwoot: Operation = {
	resource: 'chatwoot',
	value: 'set',
	name: 'Set',
	action: 'Set the Chatwoot integration',
	description: 'Connect the instance to a Chatwoot inbox, or switch it off keeping the stored connection (needs Chatwoot enabled on the server)',
	v2Only: true,
	properties: [
		{ displayName: 'Enabled', name: 'chatwootEnabled', type: 'boolean', default: true, description: 'Whether the instance forwards its chats to Chatwoot (off keeps the stored URL, account, token and options)' },
		{ displayName: 'Chatwoot URL', name: 'url', type: 'string', default: '', required: true, placeholder: 'https://chatwoot.example.com', displayOptions: WHEN_ENABLED, description: 'Address of the Chatwoot server' },
		{ displayName: 'Account ID', name: 'accountId', type: 'string', default: '', required: true, placeholder: '1', displayOptions: WHEN_ENABLED, description: 'ID of the Chatwoot account' },
		{
			displayName: 'API Access Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: WHEN_ENABLED,
			description: 'Access token of a Chatwoot user or bot of that account. Never shown in the output.',
		},
		{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, displayOptions: WHEN_ENABLED, options: OPTIONS },
	],
	path: '/chatwoot/set',
	buildBody: (params) => {
		// Switched off, the stored connection stays: the merge sends it back with `enabled: false`.
		if (!params.flag('chatwootEnabled')) return { enabled: false };
		const url = params.text('url').trim();
		if (!/^https?:\/\/[^\s/?#]+/i.test(url)) params.fail(params.label('url'), 'must be an http:// or https:// address');
		const body: IDataObject = {
			enabled: true,
			accountId: params.identifier('accountId').trim(),
			token: params.text('token').trim(),
			url,
		};
		const options = params.collection('options');
		for (const option of OPTIONS) {
			const value = options[option.name];
			if (value === undefined) continue;
			const label = params.label(`options.${option.name}`);
			if (option.type === 'boolean') body[option.name] = params.checkFlag(value, label);
			else if (option.type === 'number') body[option.name] = params.checkNumber(value, label, { min: 1, integer: true });
			else if (option.name === 'ignoreJids') body.ignoreJids = params.checkText(value, label).split(',').map((jid) => jid.trim()).filter((jid) => jid !== '');
			else {
				const text = params.checkText(value, label).trim();
				if (text !== '') body[option.name] = text;
			}
		}
		return body;
	},
	/**
	 * The server's schema requires the connection in every body, and its update stores what it
	 * is sent (an empty Inbox Name becomes the instance's name). The stored connection goes back
	 * with the item's fields over it; options the body leaves out the server keeps.
	 */
	update: {
		rule: 'readModifyWrite',
		// The server answers a record even when nothing is stored (`enabled: false`, `url: ''`).
		read: storedRead({ routes: ['/chatwoot/find'], route: () => '/chatwoot/find', recordFields: ['enabled', 'url', 'accountId', 'token'] }),
		merge: (current, body) => {
			const kept: IDataObject = {};
			for (const key of STORED_TEXTS) kept[key] = typeof current[key] === 'string' ? current[key] : '';
			for (const key of STORED_SWITCHES) kept[key] = current[key] === true;
			if (current.signMsg === true && body.signMsg !== false && typeof current.signDelimiter === 'string') kept.signDelimiter = current.signDelimiter;
			return { ...kept, ...body };
		},
	},
};

/** What the schema requires in every body, and the inbox name the server would otherwise replace. */
const STORED_TEXTS = ['accountId', 'token', 'url', 'nameInbox'];
const STORED_SWITCHES = ['signMsg', 'reopenConversation', 'conversationPending'];
