import type { IDataObject } from 'n8n-workflow';

import { isEmptyAnswer } from '../eventIntegration/common';
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
		const remoteJid = readChat(params);
		// The server returns nothing for Status (an empty 200), which would read as a start.
		if (remoteJid === 'status@broadcast') params.fail(params.label('remoteJid'), 'cannot be Status (status@broadcast): a Typebot flow starts in a chat', 'Enter the JID or phone number of a person or a group.');
		const body: IDataObject = { remoteJid, url: params.text('url').trim(), typebot: params.text('typebot').trim() };
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
	// The server's controller catches a failed call to the Typebot server and returns nothing: an empty 200.
	toItems: (response, params) => {
		if (isEmptyAnswer(response)) {
			return params.fail(
				'Operation',
				'failed on the server: it could not start the flow (it answered with nothing)',
				'The server\'s call to the Typebot server failed. Check the Typebot URL and the flow\'s public ID (Typebot), and that the Evolution API server can reach that address; its log has the error.',
			);
		}
		return [response as IDataObject];
	},
};

