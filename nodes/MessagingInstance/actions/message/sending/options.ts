import type { INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../../parameters';
import type { MessageSend } from '../../types';

/**
 * The Sending options every send gets from the registry (its `sendsMessage`): how a run that
 * sends to many paces itself, types like a person, waits out rate limits, skips numbers
 * without an account and stops before the account is in trouble. All off until added.
 */

/** The longest pause, typing time or rate-limit wait the node takes, in seconds: 10 minutes. */
export const MAX_WAIT_SECONDS = 600;
/** The longest typing the server is asked for, in seconds (the messages' own Delay allows 300 s). */
export const MAX_TYPING_SECONDS = 300;
/** The most retries of one send after rate limits. */
export const MAX_RATE_LIMIT_RETRIES = 10;

const seconds = (displayName: string, name: string, defaultValue: number, max: number, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0, maxValue: max },
	default: defaultValue,
	description,
});

const PACE: INodeProperties[] = [
	seconds(
		'Pause At Least (Seconds)',
		'pauseMinSeconds',
		5,
		MAX_WAIT_SECONDS,
		'The shortest time between two messages of this node in one run; each pause is a random time between this and the At Most. The first message is never delayed. Alone, it is also the At Most.',
	),
	seconds(
		'Pause At Most (Seconds)',
		'pauseMaxSeconds',
		15,
		MAX_WAIT_SECONDS,
		'The longest time between two messages of this node in one run. Alone, it is also the At Least.',
	),
];

const TYPING: INodeProperties[] = [
	{
		displayName: 'Type Like a Person',
		name: 'typeLikePerson',
		type: 'boolean',
		default: true,
		description:
			'Whether the contact sees "typing…" ("recording…" before a voice note) before each message, for a time that grows with the text\'s length, between the typing bounds. The request waits that long. A Delay set in Options wins.',
	},
	seconds('Typing At Least (Seconds)', 'typingMinSeconds', 2, MAX_TYPING_SECONDS, 'The shortest typing time, for the shortest text (and for a file without caption)'),
	seconds('Typing At Most (Seconds)', 'typingMaxSeconds', 8, MAX_TYPING_SECONDS, 'The longest typing time, however long the text'),
];

const COMMON: INodeProperties[] = [
	{
		displayName: 'Retries on Rate Limit',
		name: 'rateLimitRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_RETRIES, numberPrecision: 0 },
		default: 3,
		description:
			'How often a message refused for a rate limit (HTTP 429, or WhatsApp\'s "rate-overlimit") is tried again, waiting as the server asks (Retry-After) or a growing random time',
	},
	seconds(
		'Rate Limit Wait (Seconds)',
		'rateLimitWaitSeconds',
		30,
		MAX_WAIT_SECONDS,
		'The wait before the first retry after a rate limit when the server names none; each next wait doubles, plus a random part',
	),
	{
		displayName: 'Stop After Failures in a Row',
		name: 'stopAfterFailures',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
		default: 3,
		description:
			'After this many failures in a row that look like the account is in trouble (connection closed, logged out, rate limit after its retries, 401), the node sends nothing more in this run. With Continue On Fail, every remaining item comes out with outcome "notSent".',
	},
];

const ACCOUNTS: INodeProperties = {
	displayName: 'Only Numbers With an Account',
	name: 'onlyNumbersWithAccount',
	type: 'boolean',
	default: true,
	description:
		'Whether to check all the run\'s numbers with one Check Numbers request before the first message, and not send to a number without an account: its item comes out with outcome "skipped"',
};

/** The Sending collection of a send: the options its kind of send can honour, in the editor's order. */
export function sendingProperty(send: MessageSend): INodeProperties {
	const options = [...PACE, ...(send.typing ? TYPING : []), ...COMMON, ...(send.toNumber ? [ACCOUNTS] : [])];
	return {
		displayName: 'Sending',
		name: 'sending',
		type: 'collection',
		placeholder: 'Add Sending Option',
		default: {},
		description: 'How a run that sends to many keeps the number safe: pace, typing, rate limits, accounts, stop',
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** The notice of a message type WhatsApp does not show on every account. */
export function accountNotice(send: MessageSend): INodeProperties[] {
	if (!send.notShownOnEveryAccount) return [];
	return [{ displayName: send.notShownOnEveryAccount, name: 'accountsNotice', type: 'notice', default: '' }];
}

/** The Sending options of a run, in milliseconds, as the user set them (undefined: not set). */
export interface SendingSettings {
	pause?: { minMs: number; maxMs: number };
	typing?: { minMs: number; maxMs: number; presence: 'composing' | 'recording' };
	rateLimit?: { retries: number; firstWaitMs: number };
	stopAfterFailures?: number;
	onlyNumbersWithAccount: boolean;
}

const ms = (value: number) => Math.round(value * 1000);

/** A window [at least, at most] in ms; one bound alone is both; the lower above the higher fails. */
function windowOf(params: ItemParameters, given: Record<string, unknown>, names: [string, string], defaults: [number, number], max: number) {
	const [minName, maxName] = names;
	if (given[minName] === undefined && given[maxName] === undefined) return undefined;
	const read = (name: string) => params.checkNumber(given[name], params.label(`sending.${name}`), { min: 0, max });
	const low = given[minName] === undefined ? undefined : read(minName);
	const high = given[maxName] === undefined ? undefined : read(maxName);
	const minimum = low ?? high ?? defaults[0];
	const maximum = high ?? low ?? defaults[1];
	if (minimum > maximum) params.fail(params.label(`sending.${minName}`), `must not be more than ${params.label(`sending.${maxName}`)} (${maximum})`);
	return { minMs: ms(minimum), maxMs: ms(maximum) };
}

/** The run's Sending options, read from the first item before anything is sent; undefined when none is set. */
export function readSending(params: ItemParameters, send: MessageSend): SendingSettings | undefined {
	const given = params.collection('sending');
	if (Object.keys(given).length === 0) return undefined;
	const label = (name: string) => params.label(`sending.${name}`);
	const settings: SendingSettings = {
		pause: windowOf(params, given, ['pauseMinSeconds', 'pauseMaxSeconds'], [5, 15], MAX_WAIT_SECONDS),
		onlyNumbersWithAccount: send.toNumber && params.checkFlag(given.onlyNumbersWithAccount, label('onlyNumbersWithAccount')),
	};
	if (send.typing && params.checkFlag(given.typeLikePerson, label('typeLikePerson'))) {
		const window = windowOf(params, given, ['typingMinSeconds', 'typingMaxSeconds'], [2, 8], MAX_TYPING_SECONDS) ?? { minMs: 2000, maxMs: 8000 };
		settings.typing = { ...window, presence: send.typing };
	}
	if (given.rateLimitRetries !== undefined || given.rateLimitWaitSeconds !== undefined) {
		const retries = given.rateLimitRetries === undefined ? 3 : params.checkNumber(given.rateLimitRetries, label('rateLimitRetries'), { min: 0, max: MAX_RATE_LIMIT_RETRIES, integer: true });
		const wait = given.rateLimitWaitSeconds === undefined ? 30 : params.checkNumber(given.rateLimitWaitSeconds, label('rateLimitWaitSeconds'), { min: 0, max: MAX_WAIT_SECONDS });
		settings.rateLimit = { retries, firstWaitMs: ms(wait) };
	}
	if (given.stopAfterFailures !== undefined) {
		settings.stopAfterFailures = params.checkNumber(given.stopAfterFailures, label('stopAfterFailures'), { min: 1, max: 1000, integer: true });
	}
	return settings;
}
