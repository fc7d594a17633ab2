import type { INodeProperties } from 'n8n-workflow';

import { quoted } from '../normalise';
import type { Operation } from '../types';

const EVERYONE = { name: 'Everyone', value: 'all' };
const CONTACTS = { name: 'My Contacts', value: 'contacts' };
const EXCEPT = { name: 'My Contacts Except Blacklisted', value: 'contact_blacklist' };
const NOBODY = { name: 'Nobody', value: 'none' };
const AUDIENCES = [EVERYONE, CONTACTS, EXCEPT, NOBODY];

/** The six settings, by the server's body key; the server takes them only all together. */
const SETTINGS: Array<{ key: string; property: INodeProperties }> = [
	{
		key: 'readreceipts',
		property: {
			displayName: 'Read Receipts',
			name: 'readReceipts',
			type: 'options',
			options: [
				{ name: 'On', value: 'all' },
				{ name: 'Off', value: 'none' },
			],
			default: 'all',
			description: 'Whether others see when this account read their messages (blue ticks)',
		},
	},
	{
		key: 'profile',
		property: { displayName: 'Profile Picture', name: 'profilePicture', type: 'options', options: AUDIENCES, default: 'all', description: 'Who sees the profile picture' },
	},
	{
		key: 'status',
		property: { displayName: 'Status', name: 'statusPrivacy', type: 'options', options: AUDIENCES, default: 'contacts', description: 'Who sees the "About" text' },
	},
	{
		key: 'online',
		property: {
			displayName: 'Online',
			name: 'online',
			type: 'options',
			options: [
				{ name: 'Everyone', value: 'all' },
				{ name: 'Same as Last Seen', value: 'match_last_seen' },
			],
			default: 'all',
			description: 'Who sees when this account is online',
		},
	},
	{
		key: 'last',
		property: { displayName: 'Last Seen', name: 'lastSeen', type: 'options', options: AUDIENCES, default: 'all', description: 'Who sees when this account was last online' },
	},
	{
		key: 'groupadd',
		property: {
			displayName: 'Groups Add',
			name: 'groupAdd',
			type: 'options',
			options: AUDIENCES,
			default: 'all',
			description: 'Who may add this account to groups',
		},
	},
];

export const updatePrivacy: Operation = {
	resource: 'profile',
	value: 'updatePrivacy',
	name: 'Update Privacy',
	action: 'Update the privacy settings',
	description: 'Set all six privacy settings of this account at once (the server takes them only together; Get Privacy shows the current ones)',
	v2Only: true,
	properties: SETTINGS.map(({ property }) => property),
	path: '/chat/updatePrivacySettings',
	buildBody: (params) => {
		const body: Record<string, string> = {};
		for (const { key, property } of SETTINGS) {
			const value = params.text(property.name);
			const allowed = (property.options as Array<{ value: string }>).map((option) => option.value);
			if (!allowed.includes(value)) params.fail(params.label(property.name), `must be one of ${allowed.join(', ')}, not ${quoted(value)}`);
			body[key] = value;
		}
		return body;
	},
};
