import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import { storedRecord } from '../updates';
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
	 * fallback bot is not sent: the server keeps the stored one.
	 */
	update: {
		rule: 'readModifyWrite',
		read: (params) => platformPath(params, 'fetchSettings'),
		merge: (stored, body) => {
			const current = storedRecord(stored);
			const kept: IDataObject = {};
			for (const name of BEHAVIOUR_NAMES) if (body[name] === undefined && current[name] !== undefined && current[name] !== null) kept[name] = current[name];
			return { ...body, ...kept };
		},
	},
};
