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
	],
	path: '/s3/getMediaUrl',
	buildBody: (params) => {
		const label = params.label('mediaId');
		const id = params.identifier('mediaId', label).trim();
		// The server's schema wants a digit somewhere in the ID.
		if (!/\d/.test(id)) params.fail(label, 'must be a media ID as Get Media lists it (it has digits)');
		// No Expiry: the server refuses every one, as text (its S3 client's presignedGetObject wants a
		// number) and as a number (its s3UrlSchema wants text); the link works for 7 days.
		return { id } as IDataObject;
	},
};
