import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';
import { isEmptyAnswer, readEventBus } from './common';
import { EVENT_BUSES, eventKindProperty } from './kinds';

export const getEventIntegration: Operation = {
	resource: 'eventIntegration',
	value: 'get',
	name: 'Get',
	action: 'Get an event integration',
	description: 'Get whether and which events of the instance go to an event bus',
	v2Only: true,
	properties: [eventKindProperty()],
	method: 'GET',
	path: `/${EVENT_BUSES[0].value}/find`,
	itemPaths: EVENT_BUSES.map((bus) => `/${bus.value}/find`),
	itemPath: (params) => `/${readEventBus(params).value}/find`,
	// Nothing saved: the server answers null. The bus switched off in the server's environment:
	// its controller returns nothing, an empty body, which is no "off" of this instance's.
	toItems: (response, params) => {
		if (response === null) return [{ enabled: false, events: [] }];
		if (isEmptyAnswer(response)) {
			const bus = readEventBus(params);
			return params.fail('Operation', `cannot read it: the ${bus.name} integration is turned off on the server`, `The server's administrator turns it on with ${bus.serverSwitch}=true in its environment.`);
		}
		return [response as IDataObject];
	},
};
