import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';
import { storedRead } from '../requests';
import type { Operation } from '../types';
import { BEHAVIOUR_NAMES, botIdProperty, botOptionsProperty, kindProperty, platformPath, platformPaths, platformProperties, readBotOptions, readPlatform, readPlatformFields } from './common';

const fallback: INodeProperties = {
	...botIdProperty('A bot of the platform that answers chats no other bot\'s trigger matches (optional)'),
	displayName: 'Fallback Bot',
	name: 'fallbackId',
	required: false,
};

export const updateChatbotSettings: Operation = {
	resource: 'chatbot',
	value: 'updateSettings',
	name: 'Update Settings',
	action: 'Update the chatbot settings',
	description: 'Save the platform\'s default settings on the instance (what its bots do when they do not say otherwise); settings left out keep their current value',
	v2Only: true,
	properties: [kindProperty(), ...platformProperties((platform) => platform.settingsFields), botOptionsProperty('settings', 'Settings', 'Add Setting'), fallback],
	path: platformPaths('settings')[0],
	itemPaths: platformPaths('settings'),
	itemPath: (params) => platformPath(params, 'settings'),
	buildBody: (params) => {
		const platform = readPlatform(params);
		const body = { ...readPlatformFields(params, platform.settingsFields), ...readBotOptions(params, 'settings') };
		// An empty Ignored Chats keeps the stored list (Ignore Chat removes one chat from it).
		if (Array.isArray(body.ignoreJids) && body.ignoreJids.length === 0) delete body.ignoreJids;
		const fallbackId = params.textOrEmpty('fallbackId').trim();
		return fallbackId === '' ? body : { ...body, fallbackId };
	},
	/**
	 * The server stores what the body names and keeps what it leaves out (a Prisma update), but
	 * most platforms' schemas require every setting: each setting the item does not set (and an
	 * empty Ignored Chats) goes back as stored, the server's defaults when none were saved. No
	 * fallback bot is not sent: the server keeps the stored one. A setting the schema requires
	 * that is stored as null (a first bot created without options leaves the row so) cannot go
	 * back: the item fails before the write, naming the settings to give.
	 */
	update: {
		rule: 'readModifyWrite',
		read: storedRead({ routes: platformPaths('fetchSettings'), route: (params) => platformPath(params, 'fetchSettings'), recordFields: BEHAVIOUR_NAMES }),
		merge: (current, body, params) => {
			const kept: IDataObject = {};
			for (const name of BEHAVIOUR_NAMES) if (body[name] === undefined && current[name] !== undefined && current[name] !== null) kept[name] = current[name];
			const merged = { ...body, ...kept };
			const missing = readPlatform(params).settingsRequired.filter((name) => merged[name] === undefined || merged[name] === null);
			if (missing.length > 0) failMissing(params, missing);
			return merged;
		},
	},
};

/** The settings the server requires that are neither set here nor stored: named as the editor shows them. */
function failMissing(params: ItemParameters, missing: readonly string[]): never {
	const labels = missing.map((name) => params.label(BEHAVIOUR_NAMES.includes(name) ? `settings.${name}` : name));
	return params.fail(
		labels[0],
		`cannot be kept: the server's stored settings have no value for ${labels.join(', ')}, and the server takes the settings only with ${missing.length === 1 ? 'it' : 'them'}`,
		'Give these settings here (in Settings); nothing was written.',
	);
}
