import type { IDataObject } from 'n8n-workflow';

import { readPlatformFields } from '../chatbot/common';
import type { Operation } from '../types';
import { isEmptyAnswer, readEventBus } from './common';
import { BUS_EVENTS, EVENT_BUSES, eventKindProperty } from './kinds';

export const setEventIntegration: Operation = {
	resource: 'eventIntegration',
	value: 'set',
	name: 'Set',
	action: 'Set an event integration',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Send the instance\'s events to an event bus, or stop sending them',
	v2Only: true,
	properties: [
		eventKindProperty(),
		{ displayName: 'Enabled', name: 'enabled', type: 'boolean', default: true, description: 'Whether the server sends the instance\'s events to the bus' },
		{
			displayName: 'Events',
			name: 'events',
			type: 'multiOptions',
			options: BUS_EVENTS.map((event) => ({ name: event, value: event })),
			default: [],
			description: 'Events to send; none chosen: all of them. MESSAGING_HISTORY_SET needs a 2.4 server.',
		},
		...EVENT_BUSES.flatMap((bus) => bus.fields.map(({ property }) => ({ ...property, displayOptions: { show: { kind: [bus.value] } } }))),
	],
	path: `/${EVENT_BUSES[0].value}/set`,
	itemPaths: EVENT_BUSES.map((bus) => `/${bus.value}/set`),
	itemPath: (params) => `/${readEventBus(params).value}/set`,
	buildBody: (params) => {
		const bus = readEventBus(params);
		const chosen = params.raw<unknown>('events', []);
		const label = params.label('events');
		if (!Array.isArray(chosen)) return params.fail(label, 'must be a list of event names');
		const events = chosen.map((event, position) => params.checkText(event, `${label} (entry ${position + 1})`).trim());
		const unknown = events.filter((event) => !BUS_EVENTS.includes(event));
		if (unknown.length > 0) params.fail(label, `${unknown.slice(0, 5).join(', ')} not an event the server sends to a bus`);
		const settings: IDataObject = { enabled: params.flag('enabled'), events: [...new Set(events)] };
		readPlatformFields(params, bus.fields, settings);
		return { [bus.value]: settings };
	},
	// A switched-off integration answers 2xx with nothing, and saved nothing.
	toItems: (response, params) => {
		if (isEmptyAnswer(response)) {
			const bus = readEventBus(params);
			return params.fail('Operation', `was not saved: the ${bus.name} integration is turned off on the server`, `The server's administrator turns it on with ${bus.serverSwitch}=true in its environment.`);
		}
		return [response as IDataObject];
	},
};
