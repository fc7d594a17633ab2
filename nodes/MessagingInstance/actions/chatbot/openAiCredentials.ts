import type { INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../../shared/routes';
import { returnAllProperties, wholeList } from '../fields';
import type { Operation } from '../types';
import { openAiCredentialProperty } from './platforms';

/**
 * The OpenAI credentials the server stores per instance (API keys its OpenAI bots and the
 * speech-to-text use) and the models one of them may use. The server answers a credential
 * with its API key: the output shows it redacted.
 */

export const createOpenAiCredential: Operation = {
	resource: 'chatbot',
	value: 'createOpenAiCredential',
	name: 'Create OpenAI Credential',
	action: 'Create an OpenAI credential',
	description: 'Store an OpenAI API key on the instance for its OpenAI bots',
	v2Only: true,
	properties: [
		{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true, placeholder: 'Support team key', description: 'A name for the credential, unique on the instance' },
		{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '', required: true, placeholder: 'sk-…', description: 'The OpenAI API key; the output never shows it' },
	],
	path: '/openai/creds',
	buildBody: (params) => ({ name: params.text('name').trim(), apiKey: params.text('apiKey').trim() }),
};

export const getManyOpenAiCredentials: Operation = {
	resource: 'chatbot',
	value: 'getManyOpenAiCredentials',
	name: 'Get Many OpenAI Credentials',
	action: 'Get many OpenAI credentials',
	description: 'List the OpenAI credentials stored on the instance (their keys redacted); one item per credential',
	v2Only: true,
	properties: returnAllProperties(),
	...ROUTES.listOpenAiCredentials,
	pagination: wholeList(),
};

export const deleteOpenAiCredential: Operation = {
	resource: 'chatbot',
	value: 'deleteOpenAiCredential',
	name: 'Delete OpenAI Credential',
	action: 'Delete an OpenAI credential',
	description: 'Remove an OpenAI credential from the instance',
	v2Only: true,
	properties: [openAiCredentialProperty()],
	method: 'DELETE',
	path: '/openai/creds/{id}',
	itemPaths: ['/openai/creds/{id}'],
	itemPath: (params) => `/openai/creds/${params.pathSegment('openaiCredsId')}`,
};

const modelsCredential: INodeProperties = {
	...openAiCredentialProperty('openaiCredsId', 'The credential whose models are listed; none: the one of the OpenAI settings'),
	required: false,
};

export const getOpenAiModels: Operation = {
	resource: 'chatbot',
	value: 'getOpenAiModels',
	name: 'Get OpenAI Models',
	action: 'Get the OpenAI models',
	description: 'List the models an OpenAI credential may use; one item per model',
	v2Only: true,
	properties: [modelsCredential, ...returnAllProperties()],
	...ROUTES.listOpenAiModels,
	buildQuery: (params) => {
		const id = params.textOrEmpty('openaiCredsId').trim();
		return id === '' ? {} : { openaiCredsId: id };
	},
	pagination: wholeList(),
};
