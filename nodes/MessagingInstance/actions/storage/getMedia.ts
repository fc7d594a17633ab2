import type { IDataObject } from 'n8n-workflow';

import { filtersProperty, returnAllProperties } from '../fields';
import { strictList, strictRecords } from '../pages';
import type { Operation } from '../types';

export const getMedia: Operation = {
	resource: 'storage',
	value: 'getMedia',
	name: 'Get Media',
	action: 'Get stored media records',
	description: 'List the media files the server stored in its S3 storage (file name, type, message); needs S3 enabled on the server',
	v2Only: true,
	properties: [
		...returnAllProperties(),
		filtersProperty([
			{ displayName: 'Media ID', name: 'id', type: 'string', default: '', description: 'Only the media of this ID (as Get Media lists it)' },
			{ displayName: 'Type', name: 'type', type: 'string', default: '', placeholder: 'imageMessage', description: 'Only media of this message type, e.g. imageMessage, videoMessage, audioMessage, documentMessage' },
			{ displayName: 'Message Record ID', name: 'messageId', type: 'number', typeOptions: { minValue: 0, maxValue: 2_147_483_647 }, default: 0, description: 'Only the media of the server\'s stored message with this number (0: any)' },
		]),
	],
	path: '/s3/getMedia',
	buildBody: (params) => {
		const filters = params.collection('filters');
		const body: IDataObject = {};
		const id = params.checkText(filters.id, params.label('filters.id')).trim();
		if (id !== '') body.id = id;
		const type = params.checkText(filters.type, params.label('filters.type')).trim();
		if (type !== '') body.type = type;
		if (filters.messageId !== undefined && filters.messageId !== 0 && filters.messageId !== '') {
			body.messageId = params.checkNumber(filters.messageId, params.label('filters.messageId'), { min: 1, integer: true });
		}
		return body;
	},
	toItems: (response, params) => {
		const records = strictRecords(strictList(response));
		return params.flag('returnAll') ? records : records.slice(0, params.number('limit', { min: 1, integer: true }));
	},
};
