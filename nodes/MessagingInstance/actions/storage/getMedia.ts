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
		// No Message Record ID filter: the server's schema takes it only as a number, and its
		// database holds the message's id as text, so no value ever matched.
		return body;
	},
	toItems: (response, params) => {
		const records = strictRecords(strictList(response));
		return params.flag('returnAll') ? records : records.slice(0, params.number('limit', { min: 1, integer: true }));
	},
};
