import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';
import { chatProperty, readChat } from './common';

export const startTypebot: Operation = {
	resource: 'chatbot',
	value: 'start',
	name: 'Start Typebot',
	action: 'Start a Typebot flow in a chat',
	description: 'Start a Typebot flow with a chat now, whatever its triggers (Typebot only; the platform\'s settings must be saved first)',
	v2Only: true,
	properties: [
		chatProperty('The chat the flow talks to'),
		{ displayName: 'Typebot URL', name: 'url', type: 'string', default: '', required: true, placeholder: 'https://typebot.example.com', description: 'Address of the Typebot server' },
		{ displayName: 'Typebot', name: 'typebot', type: 'string', default: '', required: true, placeholder: 'my-typebot-abc123', description: 'Public ID of the flow on that server' },
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Start Session',
					name: 'startSession',
					type: 'boolean',
					default: false,
					description: 'Whether the chat\'s answers go on to the flow (a bot for the flow is created when none exists); otherwise only the flow\'s first messages are sent',
				},
				{
					displayName: 'Variables',
					name: 'variables',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
					placeholder: 'Add Variable',
					options: [
						{
							displayName: 'Variable',
							name: 'variable',
							values: [
								{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Name of a variable of the flow' },
								{ displayName: 'Value', name: 'value', type: 'string', default: '' },
							],
						},
					],
					description: 'Values the flow starts with',
				},
			],
		},
	],
	path: '/typebot/start',
	buildBody: (params) => {
		const body: IDataObject = { remoteJid: readChat(params), url: params.text('url').trim(), typebot: params.text('typebot').trim() };
		const options = params.collection('options');
		if (options.startSession !== undefined) body.startSession = params.checkFlag(options.startSession, params.label('options.startSession'));
		const given = (options.variables as { variable?: unknown } | undefined)?.variable;
		if (Array.isArray(given) && given.length > 0) {
			body.variables = (given as IDataObject[]).map((entry, position) => {
				const label = `${params.label('options.variables')} (entry ${position + 1})`;
				const name = params.checkText(entry.name, `${label}: Name`).trim();
				if (name === '') params.fail(`${label}: Name`, 'is required');
				return { name, value: params.checkText(entry.value, `${label}: Value`) };
			});
		}
		return body;
	},
};

