/**
 * v2 sends with a file, contacts and polls, and the download of a message's media, following
 * the real v2.3.6 server (src/api/routes/sendMessage.router.ts and chat.router.ts, the schemas
 * of src/validate/message.schema.ts, the checks of src/api/controllers/sendMessage.controller.ts).
 *
 * The sandbox stores the file as received (no JPEG/WebP/Opus conversion as the real server
 * does), so tests can compare bytes; multipart uploads (`file`) are not served.
 */
import type { Reply, RouteContext, RouteDef } from '../types';
import { messageResult, toJid } from '../messages';
import { extensionOf, isBase64, isMediaUrl, mimeOfName } from '../media';
import { bool, sendBody, str } from '../schemas';
import type { Schema } from '../validate';
import { sendFile, sent } from './send';
import { atLeast } from '../versions';

const OWNED_MEDIA = 'Owned media must be a url or base64';
const MAX_URL_DOWNLOAD = 50 * 1024 * 1024;
const FILE_KINDS: ReadonlySet<string> = new Set(['image', 'audio', 'video', 'document', 'sticker']);

/** The file a send with a single media field needs: a URL or raw base64. */
const ownedMedia =
	(field: string, message = OWNED_MEDIA) =>
	(body: Record<string, unknown>): string | undefined =>
		isMediaUrl(body[field]) || isBase64(body[field]) ? undefined : message;

const MEDIA_KINDS = ['image', 'document', 'video', 'audio'];

const contactSchema: Schema = {
	type: 'object',
	properties: {
		fullName: str,
		wuid: { type: 'string', minLength: 10, pattern: '\\d+', description: '"wuid" must be a numeric string' },
		phoneNumber: { type: 'string', minLength: 10 },
		organization: str,
		email: str,
		url: str,
	},
	required: ['fullName', 'phoneNumber'],
	// the real schema's "cannot be empty" rule only fires when fullName is the object's one property
	when: [
		{
			test: (c) => Object.keys(c).every((k) => k === 'fullName'),
			then: { properties: { fullName: { minLength: 1, description: 'The "fullName" cannot be empty' } } },
		},
	],
};

function vcard(c: { fullName: string; organization?: string; email?: string; url?: string; wuid?: string; phoneNumber: string }): string {
	const wuid = c.wuid ?? toJid(c.phoneNumber);
	return [
		'BEGIN:VCARD',
		'VERSION:3.0',
		`N:${c.fullName}`,
		`FN:${c.fullName}`,
		...(c.organization ? [`ORG:${c.organization};`] : []),
		...(c.email ? [`EMAIL:${c.email}`] : []),
		...(c.url ? [`URL:${c.url}`] : []),
		`item1.TEL;waid=${wuid}:${c.phoneNumber}`,
		'item1.X-ABLabel:Celular',
		'END:VCARD',
	].join('\n');
}

export const mediaRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/message/sendMedia/{instance}' },
		messageIdSince: '2.4.0',
		schema: {
			v2: sendBody({ mediatype: { type: 'string', enum: MEDIA_KINDS }, mimetype: str, media: str, fileName: str, caption: str }, ['mediatype']),
		},
		check: (body) => {
			if (isBase64(body.media) && !body.fileName && body.mediatype === 'document') return 'For base64 the file name must be informed.';
			return ownedMedia('media')(body);
		},
		needsAccount: true,
		reply: (ctx) => {
			const { body } = ctx;
			const kind = body.mediatype as 'image' | 'document' | 'video' | 'audio';
			let fileName: string | undefined = body.fileName;
			if (kind === 'document' && !fileName) fileName = /.*\/(.+?)\./.exec(body.media)?.[1];
			if (kind === 'image') fileName ??= 'image.jpg';
			if (kind === 'video') fileName ??= 'video.mp4';
			// images are re-encoded to JPEG by the real server, so they always say image/jpeg
			const mimetype = kind === 'image' ? 'image/jpeg' : (body.mimetype ?? mimeOfName(fileName) ?? mimeOfName(isMediaUrl(body.media) ? body.media.split('?')[0] : undefined) ?? 'application/octet-stream');
			return sendFile(ctx, {
				kind,
				mediaType: `${kind}Message`,
				field: 'media',
				mimetype,
				fileName,
				caption: kind === 'audio' ? undefined : body.caption,
				content: kind === 'document' ? { fileName, title: fileName } : undefined,
			});
		},
	},
	{
		method: 'POST',
		path: { v2: '/message/sendWhatsAppAudio/{instance}' },
		schema: { v2: sendBody({ audio: str, encoding: bool }, []) },
		check: ownedMedia('audio', 'Owned media must be a url, base64, or valid file with buffer'),
		needsAccount: true,
		reply: (ctx) => sendFile(ctx, { kind: 'audio', mediaType: 'audioMessage', field: 'audio', mimetype: 'audio/ogg; codecs=opus', content: { ptt: true } }),
	},
	{
		method: 'POST',
		path: { v2: '/message/sendSticker/{instance}' },
		messageIdSince: '2.4.0',
		schema: { v2: sendBody({ sticker: str }, []) },
		check: ownedMedia('sticker'),
		needsAccount: true,
		reply: (ctx) => sendFile(ctx, { kind: 'sticker', mediaType: 'stickerMessage', field: 'sticker', mimetype: 'image/webp' }),
	},
	{
		method: 'POST',
		path: { v2: '/message/sendPtv/{instance}' },
		messageIdSince: '2.4.0',
		schema: { v2: sendBody({ video: str }, []) },
		check: ownedMedia('video'),
		needsAccount: true,
		reply: (ctx) => sendFile(ctx, { kind: 'video', mediaType: 'ptvMessage', field: 'video', mimetype: 'video/mp4' }),
	},
	{
		method: 'POST',
		path: { v2: '/message/sendContact/{instance}' },
		schema: { v2: sendBody({ contact: { type: 'array', minItems: 1, uniqueItems: true, items: contactSchema } }, ['contact']) },
		needsAccount: true,
		reply: (ctx) => {
			const contacts = ctx.body.contact as Array<Parameters<typeof vcard>[0]>;
			const content =
				contacts.length === 1
					? { contactMessage: { displayName: contacts[0].fullName, vcard: vcard(contacts[0]) } }
					: { contactsArrayMessage: { displayName: `${contacts.length} contacts`, contacts: contacts.map((c) => ({ displayName: c.fullName, vcard: vcard(c) })) } };
			const text = contacts.map((c) => `👤 ${c.fullName} ${c.phoneNumber}`).join('\n');
			return sent(ctx, 'contact', text, messageResult(toJid(ctx.body.number), content));
		},
	},
	{
		method: 'POST',
		path: { v2: '/message/sendPoll/{instance}' },
		messageIdSince: '2.4.0',
		schema: {
			v2: sendBody(
				{
					name: str,
					selectableCount: { type: 'integer', minimum: 0, maximum: 10 },
					values: { type: 'array', minItems: 2, maxItems: 10, uniqueItems: true, items: str },
				},
				['name', 'selectableCount', 'values'],
			),
		},
		needsAccount: true,
		reply: (ctx) => {
			const { body } = ctx;
			const result = messageResult(toJid(body.number), {
				pollCreationMessage: {
					name: body.name,
					options: (body.values as string[]).map((optionName) => ({ optionName })),
					selectableOptionsCount: body.selectableCount,
				},
			});
			return sent(ctx, 'poll', `📊 ${body.name}\n${(body.values as string[]).map((v) => `○ ${v}`).join('\n')}`, result);
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/getBase64FromMediaMessage/{instance}' },
		// no schema on the real server: whatever fails is a 400 with the error's text
		reply: downloadMedia,
	},
];

async function downloadMedia(ctx: RouteContext): Promise<Reply> {
	const fail = (message: string): Reply => ({ status: 400, body: { status: 400, error: 'Bad Request', response: { message: [message] } } });
	const m = ctx.body?.message;
	if (m === undefined || m === null) return fail(`TypeError: Cannot read properties of ${m === null ? 'null' : 'undefined'} (reading 'key')`);
	const id = typeof m === 'object' && m.key && typeof m.key === 'object' ? m.key.id : undefined;
	const stored = typeof id === 'string' ? ctx.media.get(ctx.inst.name, id) : undefined;
	if (!stored) {
		// A message the server has but with no file: a text, or one with only messageContextInfo,
		// which 2.3.7 and later answer with `null` (2.3.6 refused it).
		const message = ctx.server.chatLog().find((entry) => entry.instance === ctx.inst.name && entry.messageId === id);
		// a file message whose file the sandbox forgot (clearMedia) is as unknown as before
		if (!message || FILE_KINDS.has(message.kind)) return fail('Message not found');
		if ((message.body as { contextInfoOnly?: unknown } | undefined)?.contextInfoOnly === true) {
			return atLeast(ctx.version, '2.3.7') ? { status: 201, body: null } : fail('The message is messageContextInfo');
		}
		return fail('The message is not of the media type');
	}
	let bytes = stored.bytes;
	if (!bytes && stored.url) {
		try {
			const res = await fetch(stored.url, { signal: AbortSignal.timeout(10000) });
			const got = Buffer.from(await res.arrayBuffer());
			if (!res.ok || got.length > MAX_URL_DOWNLOAD) return fail(`Error: download of the media URL answered ${res.status}`);
			bytes = got;
		} catch (err: unknown) {
			return fail(String(err));
		}
	}
	const data = bytes ?? Buffer.alloc(0);
	const fileName = (stored.mediaType === 'documentMessage' && stored.fileName) || `${id}.${extensionOf(stored.mimetype)}`;
	const toMp4 = ctx.body.convertToMp4 === true && stored.mediaType === 'audioMessage';
	return {
		status: 201,
		body: {
			mediaType: stored.mediaType,
			fileName,
			...(stored.caption !== undefined ? { caption: stored.caption } : {}),
			size: { fileLength: String(data.length) },
			// the sandbox does not transcode: convertToMp4 relabels the same bytes
			mimetype: toMp4 ? 'audio/mp4' : stored.mimetype,
			base64: data.toString('base64'),
			buffer: null,
		},
	};
}
