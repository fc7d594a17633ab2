import { kindOf, type MediaKind } from '../../../shared/files';
import { recipientProperty } from '../fields';
import type { Operation } from '../types';
import { mediaOptionsProperty, messageOptions, withMessageOptions } from './common';
import { messageIdFor, messageIdOption, withMessageId } from './messageId';
import { checkKind, fileNameFor, mediaSourceProperties, mediaValue, readMedia } from './media';

const MEDIA_TYPES: MediaKind[] = ['image', 'video', 'audio', 'document'];

export const sendMedia: Operation = {
	resource: 'message',
	value: 'sendMedia',
	name: 'Send Media',
	action: 'Send an image, video, audio or document',
	description: 'Send a file — image, video, audio or document — from binary data, a URL or base64',
	v2Only: true,
	properties: [
		recipientProperty(),
		{
			displayName: 'Media Type',
			name: 'mediaType',
			type: 'options',
			default: 'auto',
			options: [
				{ name: 'Audio', value: 'audio', description: 'An audio file (to send a voice note, use Send Voice Note)' },
				{ name: 'Document', value: 'document', description: 'Any file, shown with its name' },
				{ name: 'From MIME Type', value: 'auto', description: 'Image, video or audio when the file is one, else a document' },
				{ name: 'Image', value: 'image' },
				{ name: 'Video', value: 'video' },
			],
			description: 'How the recipient sees the file',
		},
		...mediaSourceProperties('file'),
		{
			displayName: 'Caption',
			name: 'caption',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'Text shown with the file. Left out when empty.',
		},
		mediaOptionsProperty([
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'report.pdf',
				description: 'Name the recipient sees (documents). Default: the binary file\'s name, or the URL\'s last part.',
			},
			{
				displayName: 'GIF Playback',
				name: 'gifPlayback',
				type: 'boolean',
				default: false,
				description: 'Whether a video plays as a looping GIF, without sound (read by Evolution API 2.4; older servers send a normal video)',
			},
			{
				displayName: 'GIF Attribution',
				name: 'gifAttribution',
				type: 'options',
				options: [
					{ name: 'None', value: 0 },
					{ name: 'GIPHY', value: 1 },
					{ name: 'Tenor', value: 2 },
				],
				default: 0,
				description: 'The GIF service WhatsApp names under a video sent as a GIF (read by Evolution API 2.4; older servers leave it out)',
			},
			{
				displayName: 'MIME Type',
				name: 'mimeType',
				type: 'string',
				default: '',
				placeholder: 'application/pdf',
				description: 'Type of the file. Default: the binary file\'s type, or the one its name says.',
			},
			messageIdOption,
		]),
	],
	path: '/message/sendMedia',
	sendsMessage: { toNumber: true, typing: 'composing' },
	carriesMessageId: true,
	buildRequest: async (params, dialect, run) => {
		const number = params.recipient('number');
		const chosen = params.text('mediaType');
		if (chosen !== 'auto' && !MEDIA_TYPES.includes(chosen as MediaKind)) {
			params.fail(params.label('mediaType'), `must be one of auto, ${MEDIA_TYPES.join(', ')}`);
		}
		const caption = params.textOrEmpty('caption');
		const options = params.collection('options');
		const sendOptions = messageOptions(params);
		const file = await readMedia(params, options);
		const mediatype = chosen === 'auto' ? kindOf(file.mimeType) : (chosen as MediaKind);
		checkKind(params, mediatype, file, 'Media Type');
		const fileName = fileNameFor(file, mediatype === 'document' ? 'document' : mediatype);
		if (mediatype === 'document' && !fileName && !file.fromUrl) {
			// The server refuses a base64 document without a name ("For base64 the file name must be informed").
			params.fail(params.label('options.fileName'), 'is required for a document given as base64 of unknown type');
		}
		const gifPlayback = options.gifPlayback === undefined ? false : params.checkFlag(options.gifPlayback, params.label('options.gifPlayback'));
		if (gifPlayback && mediatype !== 'video') {
			params.fail(params.label('options.gifPlayback'), `needs a video, not ${/^[aeiou]/.test(mediatype) ? 'an' : 'a'} ${mediatype}`, 'Send the GIF as an MP4 video with Media Type Video.');
		}
		const gifAttribution = options.gifAttribution === undefined ? undefined : params.checkNumber(options.gifAttribution, params.label('options.gifAttribution'), { integer: true, min: 0, max: 2 });
		// The server reads it for a video only (whatsapp.baileys.service.ts, 2.4).
		if (gifAttribution !== undefined && mediatype !== 'video') {
			params.fail(params.label('options.gifAttribution'), `needs a video, not ${/^[aeiou]/.test(mediatype) ? 'an' : 'a'} ${mediatype}`, 'Send the GIF as an MP4 video with Media Type Video.');
		}
		const messageId = messageIdFor(params, dialect, run);
		const request = withMessageOptions(
			{
				number,
				mediatype,
				...(file.mimeType ? { mimetype: file.mimeType } : {}),
				...(caption !== '' ? { caption } : {}),
				media: mediaValue(file),
				...(fileName ? { fileName } : {}),
				...(gifPlayback ? { gifPlayback } : {}),
				...(gifAttribution !== undefined ? { gifAttribution } : {}),
			},
			sendOptions,
		);
		return withMessageId(request, messageId);
	},
};
