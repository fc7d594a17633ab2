import { CHECK_NUMBERS_PATH } from '../../../shared/routes';
import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';

export const checkNumbers: Operation = {
	resource: 'chat',
	value: 'checkNumbers',
	name: 'Check Numbers',
	action: 'Check whether numbers have an account',
	description: 'Check which phone numbers have an account on the messaging network; one output item per number',
	properties: [
		{
			displayName: 'Numbers',
			name: 'numbers',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			placeholder: '+55 11 99999-0000, 5511888880000',
			description: 'Phone numbers with country code, separated by commas or new lines',
		},
	],
	path: (dialect) => CHECK_NUMBERS_PATH[dialect.name],
	buildBody: (params) => {
		const numbers = params.recipientList('numbers');
		if (numbers.length === 0) params.fail(params.label('numbers'), 'needs at least one number');
		return { numbers };
	},
	// One item per number; anything but a list of objects is a broken answer, not a result.
	toItems: (response, params) => {
		const entries = Array.isArray(response) ? response : [response];
		if (!entries.every((entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry))) {
			params.fail(params.label('numbers'), 'got an answer from the server that is not a list of results', 'The server answered HTTP 200 without the list of numbers. Check the Base URL and the dialect of the credential.');
		}
		return entries as IDataObject[];
	},
};
