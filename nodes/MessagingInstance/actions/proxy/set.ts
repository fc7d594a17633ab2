import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';

const WHEN_ENABLED = { show: { proxyEnabled: [true] } };

export const setProxy: Operation = {
	resource: 'proxy',
	value: 'set',
	name: 'Set',
	action: 'Set the instance proxy',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Route the instance\'s WhatsApp connection through a proxy, or stop using one',
	v2Only: true,
	properties: [
		{ displayName: 'Enabled', name: 'proxyEnabled', type: 'boolean', default: true, description: 'Whether the instance connects through the proxy (off removes it)' },
		{ displayName: 'Host', name: 'host', type: 'string', default: '', required: true, placeholder: 'proxy.example.com', displayOptions: WHEN_ENABLED, description: 'Host name or IP address of the proxy' },
		{ displayName: 'Port', name: 'port', type: 'string', default: '', required: true, placeholder: '8080', displayOptions: WHEN_ENABLED, description: 'Port of the proxy' },
		{
			displayName: 'Protocol',
			name: 'protocol',
			type: 'options',
			options: [
				{ name: 'HTTP', value: 'http' },
				{ name: 'SOCKS', value: 'socks' },
				{ name: 'SOCKS5', value: 'socks5' },
			],
			default: 'http',
			displayOptions: WHEN_ENABLED,
			description: 'How the server talks to the proxy',
		},
		{ displayName: 'Username', name: 'username', type: 'string', default: '', displayOptions: WHEN_ENABLED, description: 'User name of the proxy, if it asks for one' },
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: WHEN_ENABLED,
			description: 'Password of the proxy, if it asks for one. Never shown in the output.',
		},
	],
	path: '/proxy/set',
	buildBody: (params) => {
		// The server stores a proxy only with a user name and a password, so both are always sent ("" for none).
		if (!params.flag('proxyEnabled')) return { enabled: false, host: '', port: '', protocol: '', username: '', password: '' };
		const host = params.text('host').trim();
		if (/[\s/@]/.test(host)) params.fail(params.label('host'), 'must be a host name or IP address only (no scheme, path or user)');
		const port = params.text('port').trim();
		if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) params.fail(params.label('port'), 'must be a port number between 1 and 65535');
		const protocol = params.text('protocol');
		if (!['http', 'socks', 'socks5'].includes(protocol)) params.fail(params.label('protocol'), 'must be http, socks or socks5');
		const body: IDataObject = { enabled: true, host, port, protocol, username: params.textOrEmpty('username'), password: params.textOrEmpty('password') };
		return body;
	},
};
