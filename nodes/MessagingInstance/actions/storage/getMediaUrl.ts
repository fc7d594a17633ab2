import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';

export const getMediaUrl: Operation = {
	resource: 'storage',
	value: 'getMediaUrl',
	name: 'Get Media URL',
	action: 'Get a link to stored media',
	description: 'Get a time-limited download link to a media file in the server\'s S3 storage',
	v2Only: true,
	properties: [
		{ displayName: 'Media ID', name: 'mediaId', type: 'string', default: '', required: true, placeholder: 'clx2b3c4d0001', description: 'ID of the media (as Get Media lists it)' },
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [{ displayName: 'Expiry (Seconds)', name: 'expiry', type: 'number', typeOptions: { minValue: 1, maxValue: 604_800 }, default: 3600, description: 'How long the link works' }],
		},
	],
	path: '/s3/getMediaUrl',
	buildBody: (params) => {
		const label = params.label('mediaId');
		const id = params.identifier('mediaId', label).trim();
		// The server's schema wants a digit somewhere in the ID.
		if (!/\d/.test(id)) params.fail(label, 'must be a media ID as Get Media lists it (it has digits)');
		const body: IDataObject = { id };
		const options = params.collection('options');
		if (options.expiry !== undefined) body.expiry = String(params.checkNumber(options.expiry, params.label('options.expiry'), { min: 1, integer: true }));
		return body;
	},
};
