import { groupRoute } from './route';

/** The durations the server accepts, in seconds. */
const EXPIRATIONS = [0, 86_400, 604_800, 7_776_000];

export const setEphemeral = groupRoute({
	value: 'setEphemeral',
	name: 'Set Disappearing Messages',
	action: 'Set disappearing messages in a group',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Make new messages disappear after a while, or keep them',
	method: 'POST',
	path: '/group/toggleEphemeral',
	properties: [
		{
			displayName: 'Messages Disappear After',
			name: 'expiration',
			type: 'options',
			default: 86_400,
			options: [
				{ name: '24 Hours', value: 86_400 },
				{ name: '7 Days', value: 604_800 },
				{ name: '90 Days', value: 7_776_000 },
				{ name: 'Off', value: 0 },
			],
		},
	],
	body: (params) => {
		const expiration = params.number('expiration');
		if (!EXPIRATIONS.includes(expiration)) params.fail(params.label('expiration'), 'must be off, 24 hours, 7 days or 90 days');
		return { expiration };
	},
});
