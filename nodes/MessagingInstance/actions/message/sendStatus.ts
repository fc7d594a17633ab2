import type { IDataObject } from 'n8n-workflow';

import { factsOf, type DialectTable } from '../../../shared/dialect';
import { isHexColour, quoted } from '../normalise';
import type { Operation } from '../types';
import { checkKind, mediaValue, readMedia, type SourceParameters } from './media';

/** An audio status can come from a file (v2.x servers convert it); images and videos go as URLs, as the server reads them. */
const AUDIO_SOURCE: SourceParameters = { source: 'contentSource', binary: 'binaryPropertyName', url: 'content', base64: 'contentBase64' };

export const STATUS_FONTS = [
	{ name: 'Serif', value: 1, description: 'Font 1: SERIF' },
	{ name: 'Norican Regular', value: 2, description: 'Font 2: NORICAN_REGULAR' },
	{ name: 'Bryndan Write', value: 3, description: 'Font 3: BRYNDAN_WRITE' },
	{ name: 'Bebas Neue Regular', value: 4, description: 'Font 4: BEBASNEUE_REGULAR' },
	{ name: 'Oswald Heavy', value: 5, description: 'Font 5: OSWALD_HEAVY' },
];

interface StatusFacts {
	/** The status types the server accepts. */
	types: readonly string[];
	/** Whether `statusJidList` goes even when every contact sees the status. */
	jidListAlways: boolean;
}

const STATUS: DialectTable<StatusFacts> = {
	// Every field of Send Status is required here, so the list goes even when it is empty.
	documented: { types: ['text', 'image', 'audio'], jidListAlways: true },
	v2: { types: ['text', 'image', 'audio', 'video'], jidListAlways: false },
};

export const sendStatus: Operation = {
	resource: 'message',
	value: 'sendStatus',
	name: 'Send Status',
	action: 'Post a status',
	description: 'Post a status (story) to all contacts or to chosen ones',
	properties: [
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			default: 'text',
			options: [
				{ name: 'Text', value: 'text', description: 'A text on a coloured background' },
				{ name: 'Image', value: 'image', description: 'An image, given by its URL' },
				{ name: 'Audio', value: 'audio', description: 'An audio file, given by its URL' },
				{ name: 'Video', value: 'video', description: 'A video, given by its URL (v2 servers only)' },
			],
			description: 'Kind of status post',
		},
		{
			displayName: 'Audio Source',
			name: 'contentSource',
			type: 'options',
			default: 'url',
			options: [
				{ name: 'URL', value: 'url', description: 'An address the server downloads the audio from' },
				{ name: 'Binary File', value: 'binary', description: 'A file of the input item (v2 servers only)' },
				{ name: 'Base64 Text', value: 'base64', description: 'The audio as base64 text (v2 servers only)' },
			],
			displayOptions: { show: { type: ['audio'] } },
			description: 'Where the audio comes from',
		},
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			displayOptions: { hide: { contentSource: ['binary', 'base64'] } },
			description: 'The text of a text post, or the URL of the image, audio or video',
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			displayOptions: { show: { type: ['audio'], contentSource: ['binary'] } },
			hint: 'The name of the input binary field containing the audio file',
		},
		{
			displayName: 'Base64 Data',
			name: 'contentBase64',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			displayOptions: { show: { type: ['audio'], contentSource: ['base64'] } },
			description: 'The audio as base64 text (a data: URL prefix is allowed)',
		},
		{
			displayName: 'Caption',
			name: 'caption',
			type: 'string',
			default: '',
			description: 'Caption of an image or video post (sent as "" when empty)',
		},
		{
			displayName: 'Background Color',
			name: 'backgroundColor',
			type: 'color',
			default: '#008069',
			required: true,
			description: 'Background of a text post, as #RRGGBB',
		},
		{
			displayName: 'Font',
			name: 'font',
			type: 'options',
			options: STATUS_FONTS,
			default: 1,
			required: true,
			description: 'Font of a text post',
		},
		{
			displayName: 'Send to All Contacts',
			name: 'allContacts',
			type: 'boolean',
			default: true,
			description: 'Whether every contact sees the status; when off, only the contacts listed below do',
		},
		{
			displayName: 'Status Recipients',
			name: 'statusJidList',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: '5511999990000@s.whatsapp.net, 5511888880000@s.whatsapp.net',
			description: 'Who sees the status: JIDs or numbers, separated by commas or new lines',
			displayOptions: { show: { allContacts: [false] } },
		},
	],
	path: '/message/sendStatus',
	sendsMessage: { toNumber: false },
	buildBody: async (params, dialect) => {
		const facts = factsOf(STATUS, dialect);
		const type = params.text('type');
		if (!facts.types.includes(type)) {
			params.fail(params.label('type'), `${quoted(type)} is not accepted by a ${dialect.label} server (use ${facts.types.join(', ')})`);
		}
		const source = type === 'audio' ? params.text('contentSource') : 'url';
		let content: IDataObject | string;
		if (source === 'url') {
			content = params.text('content');
		} else {
			if (!dialect.servesV2Routes) {
				params.fail(params.label('contentSource'), 'can be a file only with a v2.x server', 'Give the audio as a URL, or use a credential whose Server Dialect is "Server v2.x".');
			}
			const file = await readMedia(params, {}, AUDIO_SOURCE);
			checkKind(params, 'audio', file, 'Audio Source');
			content = mediaValue(file);
		}
		const caption = params.textOrEmpty('caption');
		const backgroundColor = params.text('backgroundColor').trim();
		if (!isHexColour(backgroundColor)) {
			params.fail(params.label('backgroundColor'), `must be a colour as #RRGGBB, not ${quoted(backgroundColor)}`);
		}
		const font = params.number('font', { min: 1, max: 5, integer: true });
		const allContacts = params.flag('allContacts');
		const jids = allContacts ? [] : params.recipientList('statusJidList');
		if (!allContacts && jids.length === 0) {
			params.fail(params.label('statusJidList'), 'needs at least one JID when "Send to All Contacts" is off');
		}
		return {
			type,
			content,
			caption,
			backgroundColor,
			font,
			allContacts,
			...(!allContacts || facts.jidListAlways ? { statusJidList: jids } : {}),
		};
	},
};
