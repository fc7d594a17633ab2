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
		// Expiry, offered before, no server can take: its schema wants it as text (`s3UrlSchema`)
		// and its S3 client as a number (`presignedGetObject`), so either way it answers 400. A
		// workflow saved with it fails here, saying so, instead of at the server.
		const saved = params.raw<IDataObject | undefined>('options', undefined);
		if (saved && typeof saved === 'object' && saved.expiry !== undefined) {
			params.fail(
				'Options: Expiry (Seconds)',
				'cannot be applied: Evolution API (2.3.6 to 2.4) refuses every expiry, as text (its S3 client wants a number) and as a number (its schema wants text)',
				'Remove the option: the link then works for 7 days, the S3 client\'s longest.',
			);
		}
		return { id } as IDataObject;
	},
};
