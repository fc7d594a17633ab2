import type { IDataObject } from 'n8n-workflow';

import { maxFileBytes, maxFileSizeProperty, HIGHEST_MAX_FILE_MB, MAX_FILE_SIZE_LABEL, MAX_FILE_SIZE_OPTION } from '../../../shared/files';
import type { ItemParameters } from '../parameters';
import type { Operation, Refusal } from '../types';

const SIZE_LABEL = `Options: ${MAX_FILE_SIZE_LABEL}`;

/**
 * A message the server has, without a file: a text (every version refuses it "not of the
 * media type"), or one with no content but its messageContextInfo, which 2.3.6 refuses and
 * 2.3.7 and later answer with `null`. All three read the same.
 */
const NO_FILE: Omit<Refusal, 'serverText'> = {
	field: 'messageId',
	problem: 'is the ID of a message without a file',
	hint: "Download Media takes the ID of an image, video, audio, document or sticker message. This one is a text, or a message with no content (WhatsApp sends some that carry only context information). Check the trigger's messageType first: imageMessage, videoMessage, audioMessage, documentMessage or stickerMessage.",
};

/** The largest file the item takes, checked before any request. */
function maxBytesOf(params: ItemParameters): number {
	const options = params.collection('options');
	if (options[MAX_FILE_SIZE_OPTION] === undefined) return maxFileBytes(undefined);
	const value = options[MAX_FILE_SIZE_OPTION];
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || value > HIGHEST_MAX_FILE_MB) {
		params.fail(SIZE_LABEL, `must be a number of MB from 1 to ${HIGHEST_MAX_FILE_MB}`);
	}
	return maxFileBytes(value);
}

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
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [maxFileSizeProperty('file downloaded')],
		},
	],
	path: '/chat/getBase64FromMediaMessage',
	buildBody: (params) => {
		const id = params.text('messageId').trim();
		params.text('binaryPropertyName');
		const convertToMp4 = params.flag('convertToMp4');
		maxBytesOf(params);
		return { message: { key: { id } }, convertToMp4 };
	},
	// `buffer` is the server's own copy of the file (null unless asked for): never output.
	toItems: (response, params) => {
		if (response === null) return params.fail(params.label(NO_FILE.field), NO_FILE.problem, NO_FILE.hint);
		if (!response || typeof response !== 'object' || Array.isArray(response)) {
			return params.fail(params.label('messageId'), 'got no file from the server', 'The server answered without the file. Check that the message has media.');
		}
		const { buffer: _serverCopy, ...json } = response as IDataObject;
		return [json];
	},
	refusals: [
		{ ...NO_FILE, serverText: /\bnot of the media type\b/ },
		{ ...NO_FILE, serverText: /\bis messageContextInfo\b/ },
	],
	binaryOutput: {
		dataField: 'base64',
		mimeTypeField: 'mimetype',
		fileNameField: 'fileName',
		defaultMimeType: 'application/octet-stream',
		defaultFileName: 'media',
		required: true,
		// The server's own copy of the file as a JSON byte list (null unless asked for): read past.
		dropFields: ['buffer'],
		sizeLimit: { maxBytes: maxBytesOf, label: SIZE_LABEL },
	},
};
