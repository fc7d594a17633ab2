import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { quoted } from '../normalise';
import type { Operation } from '../types';
import { storedRead } from '../requests';

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

/** A setting left as it is: the one the server has is sent back unchanged. */
const KEEP = 'keep';
const KEEP_OPTION = { name: 'Keep Current', value: KEEP, description: 'Send back what the account has now' };

/** The settings as the editor shows them: each one kept unless the user chooses a value. */
const PROPERTIES: INodeProperties[] = SETTINGS.map(({ property }) => ({
	...property,
	options: [KEEP_OPTION, ...(property.options ?? [])],
	default: KEEP,
}));

export const updatePrivacy: Operation = {
	resource: 'profile',
	value: 'updatePrivacy',
	name: 'Update Privacy',
	action: 'Update the privacy settings',
	description: 'Change the privacy settings chosen here; the others keep their current value (read first: the server takes all six together)',
	v2Only: true,
	properties: PROPERTIES,
	path: '/chat/updatePrivacySettings',
	buildBody: (params) => {
		const body: Record<string, string> = {};
		for (const { key, property } of SETTINGS) {
			const value = params.text(property.name);
			if (value !== KEEP) body[key] = value;
		}
		if (Object.keys(body).length === 0) {
			params.fail('Operation', 'has no setting to change', 'Choose a value for at least one setting; those left on "Keep Current" keep what the account has.');
		}
		return body;
	},
	update: {
		rule: 'readModifyWrite',
		read: storedRead({ routes: ['/chat/fetchPrivacySettings'], route: () => '/chat/fetchPrivacySettings', recordFields: SETTINGS.map(({ key }) => key) }),
		merge: (current, body, params) => {
			const merged: IDataObject = {};
			for (const { key, property } of SETTINGS) {
				const value = body[key] ?? current[key];
				const allowed = (property.options as Array<{ value: string }>).map((option) => option.value);
				if (typeof value !== 'string' || !allowed.includes(value)) {
					params.fail(
						params.label(property.name),
						`cannot be kept: the server answered ${typeof value === 'string' ? quoted(value) : 'no value'} as the current setting`,
						'Choose its value here; the server takes the six settings only together.',
					);
				}
				merged[key] = value;
			}
			return merged;
		},
	},
};
