import type { IDataObject } from 'n8n-workflow';

import { recipientProperty } from '../fields';
import { componentsProperty, languageProperty, readJsonList, readLanguage, templateNameProperty } from '../template/fields';
import type { Operation } from '../types';

export const sendTemplate: Operation = {
	resource: 'message',
	value: 'sendTemplate',
	name: 'Send Template',
	action: 'Send a template message',
	description: 'Send an approved Meta message template, with its variables (Cloud API instances only)',
	v2Only: true,
	cloudApiOnly: true,
	properties: [
		recipientProperty(),
		templateNameProperty('templateName', 'The approved template to send: pick it, or give its name'),
		languageProperty('Language of the template version to send, e.g. en_US'),
		componentsProperty(false, 'The values of the template\'s variables, a JSON list as Meta defines it, e.g. [{"type":"body","parameters":[{"type":"text","text":"Ana"}]}]; empty for a template without variables'),
		{
			displayName: 'Status Webhook URL',
			name: 'webhookUrl',
			type: 'string',
			default: '',
			placeholder: 'https://n8n.example.com/webhook/template-status',
			description: 'An address the server posts this message\'s status updates to (sent, delivered, read), besides the instance\'s webhook; empty: none',
		},
	],
	path: '/message/sendTemplate',
	sendsMessage: { toNumber: true },
	buildBody: (params) => {
		const body: IDataObject = {
			number: params.recipient('number'),
			name: params.identifier('templateName').trim(),
			language: readLanguage(params, 'language'),
		};
		const components = readJsonList(params, params.raw<unknown>('components', ''), params.label('components'));
		if (components) body.components = components;
		// The server stores it with the message and posts Meta's status updates of it there (whatsapp.business.service.ts).
		const webhookUrl = params.textOrEmpty('webhookUrl').trim();
		if (webhookUrl !== '') {
			if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(webhookUrl)) params.fail(params.label('webhookUrl'), 'must be an http:// or https:// address');
			body.webhookUrl = webhookUrl;
		}
		return body;
	},
	toItems: (response, params) => {
		const answer = response && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {};
		// Meta's refusal comes back as a 2xx carrying Meta's error object instead of the sent message.
		if (typeof answer.message === 'string' || answer.error_data !== undefined) {
			const detail = (answer.error_data as IDataObject | undefined)?.details;
			params.fail(
				params.label('templateName'),
				`was refused by Meta: ${String(answer.message ?? 'no reason given')}${typeof detail === 'string' && detail !== '' ? ` (${detail})` : ''}`,
				'Check that the template is approved in this language and that Components gives every variable it has.',
			);
		}
		return [answer];
	},
};
