import { numbersListProperty, readParticipants } from '../fields';
import type { Operation } from '../types';

export const createGroup: Operation = {
	resource: 'group',
	value: 'create',
	name: 'Create',
	action: 'Create a group',
	description: 'Create a group with a subject and its first participants',
	v2Only: true,
	properties: [
		{ displayName: 'Subject', name: 'subject', type: 'string', default: '', required: true, description: 'The group\'s name' },
		numbersListProperty('Participants', 'participants', 'Who joins the group'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Description', name: 'description', type: 'string', default: '', description: 'Text under the group\'s name' },
				{
					displayName: 'Make Participants Admins',
					name: 'promoteParticipants',
					type: 'boolean',
					default: false,
					description: 'Whether every participant becomes an admin',
				},
			],
		},
	],
	path: '/group/create',
	buildBody: (params) => {
		const subject = params.text('subject');
		const participants = readParticipants(params, 'participants');
		const options = params.collection('options');
		const description = params.checkText(options.description, params.label('options.description'));
		return {
			subject,
			participants,
			// The server refuses an empty description: it is left out instead.
			...(description.trim() !== '' ? { description } : {}),
			...(options.promoteParticipants !== undefined
				? { promoteParticipants: params.checkFlag(options.promoteParticipants, params.label('options.promoteParticipants')) }
				: {}),
		};
	},
};
