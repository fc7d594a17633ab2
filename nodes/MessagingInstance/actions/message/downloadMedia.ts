import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../types';

export const downloadMedia: Operation = {
	resource: 'message',
	value: 'downloadMedia',
	name: 'Download Media',
	action: 'Download the file of a message',
	description: 'Get the image, video, audio, document or sticker of a received message as binary data',
	v2Only: true,
	properties: [
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3EB0C431C26A1916E07A',
			description: 'ID of the message with the file: its key.ID (the trigger outputs it as messageId)',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the output binary field to put the file in',
		},
		{
			displayName: 'Convert to MP4',
			name: 'convertToMp4',
			type: 'boolean',
			default: false,
			description: 'Whether the server converts an audio message to MP4 (audio/mp4) before sending it',
		},
	],
	path: '/chat/getBase64FromMediaMessage',
	buildBody: (params) => {
		const id = params.text('messageId').trim();
		params.text('binaryPropertyName');
		return { message: { key: { id } }, convertToMp4: params.flag('convertToMp4') };
	},
	// `buffer` is the server's own copy of the file (null unless asked for): never output.
	toItems: (response, params) => {
		if (!response || typeof response !== 'object' || Array.isArray(response)) {
			return params.fail(params.label('messageId'), 'got no file from the server', 'The server answered without the file. Check that the message has media.');
		}
		const { buffer: _serverCopy, ...json } = response as IDataObject;
		return [json];
	},
	binaryOutput: {
		dataField: 'base64',
		mimeTypeField: 'mimetype',
		fileNameField: 'fileName',
		defaultMimeType: 'application/octet-stream',
		defaultFileName: 'media',
		required: true,
	},
};
