import { factsOf, type DialectTable } from '../../../shared/dialect';
import type { Operation } from '../types';
import { recipientProperty } from '../fields';
import { quoted } from '../normalise';
import { MAX_DELAY_MS } from '../message/common';

export const PRESENCES = ['composing', 'recording', 'paused', 'available', 'unavailable'];

/** Where the fields go: `nested` repeats them under `options`, `flat` sends them at the top. */
const PRESENCE_STYLE: DialectTable<'nested' | 'flat'> = { documented: 'nested', v2: 'flat' };

export const sendPresence: Operation = {
	resource: 'chat',
	value: 'sendPresence',
	name: 'Send Presence',
	action: 'Show typing or recording in a chat',
	description: 'Show a presence such as "typing…" or "recording audio…" to a contact for a while',
	properties: [
		recipientProperty('Who sees the presence'),
		{
			displayName: 'Presence',
			name: 'presence',
			type: 'options',
			default: 'composing',
			options: [
				{ name: 'Available', value: 'available', description: 'Shows the account as online' },
				{ name: 'Paused', value: 'paused', description: 'Stops typing or recording' },
				{ name: 'Recording Audio', value: 'recording', description: 'Shows "recording audio…"' },
				{ name: 'Typing', value: 'composing', description: 'Shows "typing…"' },
				{ name: 'Unavailable', value: 'unavailable', description: 'Shows the account as offline' },
			],
			description: 'What the contact sees',
		},
		{
			displayName: 'Duration (Milliseconds)',
			name: 'delay',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_DELAY_MS, numberPrecision: 0 },
			default: 1200,
			required: true,
			description: 'How long, in milliseconds, the presence is shown. The request waits that long.',
		},
	],
	path: '/chat/sendPresence',
	buildRequest: (params, dialect) => {
		const number = params.recipient('number');
		const presence = params.text('presence');
		if (!PRESENCES.includes(presence)) {
			params.fail(params.label('presence'), `must be one of ${PRESENCES.join(', ')}, not ${quoted(presence)}`);
		}
		const delay = params.number('delay', { min: 0, max: MAX_DELAY_MS, integer: true });
		const body = factsOf(PRESENCE_STYLE, dialect) === 'flat' ? { number, presence, delay } : { number, options: { delay, presence, number } };
		return { body, extraWaitMs: delay };
	},
};
