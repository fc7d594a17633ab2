import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import { storedRecord } from '../updates';
import { BEHAVIOUR_NAMES, botIdProperty, kindProperty, platformPath, platformPaths, platformProperties, readPlatform, readPlatformFields, readSettings, settingsProperties } from './common';

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
	description: 'Save the platform\'s default settings on the instance: what its bots do when they do not say otherwise',
	v2Only: true,
	properties: [kindProperty(), ...platformProperties((platform) => platform.settingsFields), ...settingsProperties(), fallback],
	path: platformPaths('settings')[0],
	itemPaths: platformPaths('settings'),
	itemPath: (params) => platformPath(params, 'settings'),
	buildBody: (params) => {
		const platform = readPlatform(params);
		const body = { ...readPlatformFields(params, platform.settingsFields), ...readSettings(params) };
		const fallbackId = params.textOrEmpty('fallbackId').trim();
		return fallbackId === '' ? body : { ...body, fallbackId };
	},
	/**
	 * The server stores what the body names and keeps what it leaves out (a Prisma update), but
	 * most platforms' schemas require every setting, Ignored Chats too: a field left empty (no
	 * fallback bot, no ignored chats) goes back as stored.
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
