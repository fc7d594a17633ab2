import { WAIT_INDEFINITELY } from 'n8n-workflow';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../../parameters';

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** The furthest limit accepted: n8n stores the date, and a year of waiting is a forgotten run. */
const MAX_WAIT_MS = 366 * UNIT_MS.days;

/** The Limit Wait Time option, with the names n8n's own send-and-wait nodes store. */
export const limitWaitTimeOption: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description: 'Whether to stop waiting for an answer after a time; the run then goes on with the node\'s input items',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					description: 'Whether the wait ends after an interval or at a date and time',
					options: [
						{ name: 'After Time Interval', value: 'afterTimeInterval', description: 'Waits for a certain amount of time' },
						{ name: 'At Specified Time', value: 'atSpecifiedTime', description: 'Waits until the date and time set' },
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					typeOptions: { minValue: 0, maxValue: 525_600 },
					default: 1,
					description: 'How long to wait, in the unit below',
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					description: 'Unit of the amount',
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
					default: '',
					description: 'When the wait ends if nobody answered',
				},
			],
		},
	],
};

/**
 * When the wait ends without an answer: never (n8n's WAIT_INDEFINITELY) unless the user set
 * Limit Wait Time. An interval counts from now; a date is taken as written (with its zone, or
 * the instance's when it has none, as n8n's date fields give it).
 */
export function waitTillOf(params: ItemParameters, now = Date.now()): Date {
	const label = params.label('options.limitWaitTime');
	const options = params.collection('options');
	const limit = options.limitWaitTime;
	if (limit === undefined) return WAIT_INDEFINITELY;
	const values = (limit && typeof limit === 'object' && !Array.isArray(limit) ? (limit as IDataObject).values : undefined) ?? {};
	if (typeof values !== 'object' || values === null || Array.isArray(values)) params.fail(label, 'must be a limit type with an amount or a date');
	const { limitType = 'afterTimeInterval', resumeAmount = 1, resumeUnit = 'hours', maxDateAndTime } = values as IDataObject;
	if (limitType === 'afterTimeInterval') {
		const unitMs = typeof resumeUnit === 'string' ? UNIT_MS[resumeUnit] : undefined;
		if (unitMs === undefined) params.fail(`${label}: Unit`, 'must be minutes, hours or days');
		const amount = params.checkNumber(resumeAmount, `${label}: Amount`, { min: 0 });
		const waitMs = amount * unitMs;
		if (waitMs > MAX_WAIT_MS) params.fail(`${label}: Amount`, 'is more than a year', 'Wait at most 366 days.');
		return new Date(now + waitMs);
	}
	if (limitType !== 'atSpecifiedTime') params.fail(`${label}: Limit Type`, 'must be After Time Interval or At Specified Time');
	const dateLabel = `${label}: Max Date and Time`;
	const text = params.checkText(maxDateAndTime, dateLabel).trim();
	if (text === '') params.fail(dateLabel, 'is required');
	const date = new Date(text);
	if (Number.isNaN(date.getTime())) params.fail(dateLabel, `is not a date: "${text.slice(0, 40)}"`, 'Use an ISO date such as 2030-01-31T18:00:00Z.');
	if (date.getTime() <= now) params.fail(dateLabel, 'is in the past', 'Pick a date after the time the message is sent.');
	if (date.getTime() - now > MAX_WAIT_MS) params.fail(dateLabel, 'is more than a year away', 'Wait at most 366 days.');
	return date;
}
