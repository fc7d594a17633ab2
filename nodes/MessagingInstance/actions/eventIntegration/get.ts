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
	// None saved (or the integration off on the server): the server answers null or nothing.
	toItems: (response) => (isEmptyAnswer(response) ? [{ enabled: false, events: [] }] : [response as IDataObject]),
};
