import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import { CALL_REJECTED_MESSAGE, INSTANCE_SETTINGS } from './instanceSettings';

const [rejectCall, ...otherSettings] = INSTANCE_SETTINGS;

const callRejectedMessage: INodeProperties = {
	...CALL_REJECTED_MESSAGE,
	description: 'Message sent to the caller when a call is rejected automatically (sent as "" when empty)',
};

/** Every field is sent, in this order: the message right after the switch it belongs to. */
const properties = [rejectCall, callRejectedMessage, ...otherSettings];

export const setSettings: Operation = {
	resource: 'settings',
	value: 'set',
	name: 'Set',
	action: 'Set the instance settings',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Set how the instance behaves: calls, groups, presence, receipts, history',
	properties,
	path: '/settings/set',
	buildBody: (params) => {
		const body: IDataObject = {};
		for (const { name, type } of properties) body[name] = type === 'boolean' ? params.flag(name) : params.textOrEmpty(name);
		return body;
	},
};
