import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';

const flag = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: false,
	description,
});

export const setSettings: Operation = {
	resource: 'settings',
	value: 'set',
	name: 'Set',
	action: 'Set the instance settings',
	description: 'Set how the instance behaves: calls, groups, presence, receipts, history',
	properties: [
		flag('Reject Calls', 'rejectCall', 'Whether to reject incoming calls automatically'),
		{
			displayName: 'Call Rejected Message',
			name: 'msgCall',
			type: 'string',
			default: '',
			placeholder: 'I cannot take calls, please write a message.',
			description: 'Message sent to the caller when a call is rejected automatically (sent as "" when empty)',
		},
		flag('Ignore Groups', 'groupsIgnore', 'Whether to ignore messages from groups'),
		flag('Always Online', 'alwaysOnline', 'Whether to always show the account as online'),
		flag('Read Messages', 'readMessages', 'Whether to mark incoming messages as read (send read receipts)'),
		flag('Read Status', 'readStatus', 'Whether to mark status posts as seen'),
		flag('Sync Full History', 'syncFullHistory', 'Whether to synchronise the full history of the account'),
	],
	path: '/settings/set',
	buildBody: (params) => ({
		rejectCall: params.flag('rejectCall'),
		msgCall: params.textOrEmpty('msgCall'),
		groupsIgnore: params.flag('groupsIgnore'),
		alwaysOnline: params.flag('alwaysOnline'),
		readMessages: params.flag('readMessages'),
		readStatus: params.flag('readStatus'),
		syncFullHistory: params.flag('syncFullHistory'),
	}),
};
