import type { Operation } from '../types';
import { recipientProperty } from '../fields';
import { messageOptions, withMessageOptions, messageOptionsProperty } from './common';

export const sendLocation: Operation = {
	resource: 'message',
	value: 'sendLocation',
	name: 'Send Location',
	action: 'Send a location',
	description: 'Send a pin on the map with a name and an address',
	properties: [
		recipientProperty(),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Eiffel Tower',
			description: 'Name of the place (e.g. the city or venue)',
		},
		{
			displayName: 'Address',
			name: 'address',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Champ de Mars, 5 Av. Anatole France, 75007 Paris',
			description: 'Address of the place',
		},
		{
			displayName: 'Latitude',
			name: 'latitude',
			type: 'number',
			typeOptions: { minValue: -90, maxValue: 90 },
			default: 0,
			required: true,
			description: 'Between -90 and 90, in decimal degrees (e.g. 48.8584)',
		},
		{
			displayName: 'Longitude',
			name: 'longitude',
			type: 'number',
			typeOptions: { minValue: -180, maxValue: 180 },
			default: 0,
			required: true,
			description: 'Between -180 and 180, in decimal degrees (e.g. 2.2945)',
		},
		messageOptionsProperty,
	],
	path: '/message/sendLocation',
	sendsMessage: { toNumber: true, typing: 'composing' },
	buildRequest: (params) =>
		withMessageOptions(
			{
				number: params.recipient('number'),
				name: params.text('name'),
				address: params.text('address'),
				latitude: params.number('latitude', { min: -90, max: 90 }),
				longitude: params.number('longitude', { min: -180, max: 180 }),
			},
			messageOptions(params),
		),
};
