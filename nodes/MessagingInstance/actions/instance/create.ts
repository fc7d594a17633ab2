import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ALL_EVENTS } from '../../../shared/dialect';
import { eventOptions } from '../../../shared/events';
import { hasVersionedEvent } from '../../../shared/serverVersion';
import { quoted } from '../normalise';
import { CALL_REJECTED_MESSAGE, INSTANCE_SETTINGS } from '../settings/instanceSettings';
import type { Operation } from '../types';

const INTEGRATIONS = ['WHATSAPP-BAILEYS', 'WHATSAPP-BUSINESS', 'EVOLUTION'];

/** The settings Create sends, in the order its body has them (by name). */
const SETTING_NAMES = INSTANCE_SETTINGS.map((setting) => setting.name).sort();

export const createInstance: Operation = {
	resource: 'instance',
	value: 'create',
	name: 'Create',
	action: 'Create an instance',
	description: 'Create an instance on the server; outputs its token and, with QR Code on, the code to connect it',
	v2Only: true,
	scope: 'server',
	properties: [
		{
			displayName: 'Instance Name',
			name: 'instanceName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'shop',
			description: 'Name of the new instance',
		},
		{
			displayName: 'Integration',
			name: 'integration',
			type: 'options',
			default: 'WHATSAPP-BAILEYS',
			options: [
				{ name: 'Evolution', value: 'EVOLUTION', description: 'A channel of the server itself, without a phone' },
				{ name: 'WhatsApp (Phone)', value: 'WHATSAPP-BAILEYS', description: 'A phone\'s account, connected by QR code or pairing code' },
				{ name: 'WhatsApp Business API', value: 'WHATSAPP-BUSINESS', description: 'The official cloud API (needs its token and business ID)' },
			],
		},
		{
			displayName: 'QR Code',
			name: 'qrcode',
			type: 'boolean',
			default: true,
			description: 'Whether to start connecting at once and return the QR code',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			// Shown in alphabetical order, settings among them.
			options: (
				[
				{
					displayName: 'Pairing Number',
					name: 'number',
					type: 'string',
					default: '',
					placeholder: '5511999990000',
					description: 'Phone number of the account, to connect with a pairing code instead of a QR code',
				},
				{
					displayName: 'Token',
					name: 'token',
					type: 'string',
					typeOptions: { password: true },
					default: '',
					description: 'The instance\'s own API key; the server makes one when empty',
				},
				{
					displayName: 'Webhook Events',
					name: 'webhookEvents',
					type: 'multiOptions',
					options: eventOptions(ALL_EVENTS),
					default: ['MESSAGES_UPSERT'],
					description: 'Events the webhook receives',
				},
				{
					displayName: 'Webhook Media in Base64',
					name: 'webhookBase64',
					type: 'boolean',
					default: false,
					description: 'Whether media files arrive inside the events, base64-encoded',
				},
				{
					displayName: 'Webhook URL',
					name: 'webhookUrl',
					type: 'string',
					default: '',
					placeholder: 'https://n8n.example.com/webhook/…',
					description: 'Address that receives the instance\'s events (a Messaging Instance Trigger registers itself instead)',
				},
				...INSTANCE_SETTINGS,
				{ ...CALL_REJECTED_MESSAGE, description: 'Message sent to the caller when a call is rejected automatically (with Reject Calls on). Left out when empty.' },
				] as INodeProperties[]
			).sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	],
	path: '/instance/create',
	needsServerVersion: (params) => hasVersionedEvent(params.collection('options').webhookEvents),
	// The new instance's token, which the user asked for; no other output carries a token.
	outputsSecretField: 'hash',
	buildBody: (params, dialect) => {
		const instanceName = params.text('instanceName').trim();
		if (instanceName === '.' || instanceName === '..' || instanceName.length > 100) {
			params.fail(params.label('instanceName'), `cannot be ${quoted(instanceName)}`);
		}
		const integration = params.text('integration');
		if (!INTEGRATIONS.includes(integration)) params.fail(params.label('integration'), `must be one of ${INTEGRATIONS.join(', ')}`);
		const options = params.collection('options');
		const body: IDataObject = { instanceName, integration, qrcode: params.flag('qrcode') };
		const number = params.checkText(options.number, params.label('options.number')).trim();
		if (number !== '') body.number = params.checkRecipient(number, params.label('options.number'));
		const token = params.checkText(options.token, params.label('options.token')).trim();
		if (token !== '') body.token = token;
		const webhookUrl = params.checkText(options.webhookUrl, params.label('options.webhookUrl')).trim();
		if (webhookUrl !== '') {
			if (!/^https?:\/\/[^\s/]+/i.test(webhookUrl)) params.fail(params.label('options.webhookUrl'), `must be an http(s) address, not ${quoted(webhookUrl)}`);
			const events = Array.isArray(options.webhookEvents) ? (options.webhookEvents as unknown[]) : ['MESSAGES_UPSERT'];
			const unknown = events.filter((event) => typeof event !== 'string' || !dialect.events.has(event));
			if (unknown.length > 0) params.fail(params.label('options.webhookEvents'), `${quoted(unknown.slice(0, 5).join(', '))} not accepted by a ${dialect.label} server`);
			body.webhook = {
				enabled: true,
				url: webhookUrl,
				events,
				byEvents: false,
				base64: options.webhookBase64 === undefined ? false : params.checkFlag(options.webhookBase64, params.label('options.webhookBase64')),
			};
		}
		for (const name of SETTING_NAMES) {
			if (options[name] !== undefined) body[name] = params.checkFlag(options[name], params.label(`options.${name}`));
		}
		const msgCall = params.checkText(options.msgCall, params.label('options.msgCall'));
		if (msgCall.trim() !== '') body.msgCall = msgCall;
		return body;
	},
};
