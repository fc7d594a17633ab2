import type { INodeProperties } from 'n8n-workflow';

const setting = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: false,
	description,
});

/** The instance's behaviour switches: Set Settings sends them all, Create sends those the user added. */
export const INSTANCE_SETTINGS: readonly INodeProperties[] = [
	setting('Reject Calls', 'rejectCall', 'Whether to reject incoming calls automatically'),
	setting('Ignore Groups', 'groupsIgnore', 'Whether to ignore messages from groups'),
	setting('Always Online', 'alwaysOnline', 'Whether to always show the account as online'),
	setting('Read Messages', 'readMessages', 'Whether to mark incoming messages as read (send read receipts)'),
	setting('Read Status', 'readStatus', 'Whether to mark status posts as seen'),
	setting('Sync Full History', 'syncFullHistory', 'Whether to synchronise the full history of the account'),
];

/** The text sent to a caller whose call was rejected automatically (with Reject Calls on). */
export const CALL_REJECTED_MESSAGE: INodeProperties = {
	displayName: 'Call Rejected Message',
	name: 'msgCall',
	type: 'string',
	default: '',
	placeholder: 'I cannot take calls, please write a message.',
	description: 'Message sent to the caller when a call is rejected automatically',
};
