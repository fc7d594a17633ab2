/** /message/*: the sends. Each answers 201 with the sent message and emits SEND_MESSAGE. */
import { atLeast } from '../versions';
import type { RouteDef } from '../types';
import { isBase64, isMediaUrl } from '../media';
import { sendFile, sent } from './send';
import { COLOR_PATTERN, FONTS, colorToArgb, isReaction, messageResult, pollCreation, toJid } from '../messages';
import { NUMBER_PATTERN, both, bool, listSections, messageKey, num, sendBody, str, v2Button } from '../schemas';

const bodyDelay = (body: { delay?: unknown }): unknown => body.delay;

export const messageRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { documented: '/message/sendText/{instance}', v2: '/message/sendText/{instance}' },
		messageIdSince: '2.4.0',
		schema: both(sendBody({ text: str }, ['text'])),
		check: (body) => (body.text.trim() === '' ? 'Text is required' : undefined),
		needsAccount: true,
		delayOf: bodyDelay,
		reply: (ctx) => sent(ctx, 'text', ctx.body.text, messageResult(toJid(ctx.body.number), { extendedTextMessage: { text: ctx.body.text } })),
	},
	{
		method: 'POST',
		path: { documented: '/message/sendList/{instance}', v2: '/message/sendList/{instance}' },
		schema: {
			documented: sendBody({ title: str, description: str, buttonText: str, footerText: str, values: listSections }, ['title', 'description', 'buttonText', 'values']),
			v2: sendBody(
				{ title: str, description: str, buttonText: str, footerText: str, sections: listSections },
				['title', 'description', 'buttonText', 'footerText', 'sections'],
			),
		},
		needsAccount: true,
		delayOf: bodyDelay,
		reply: (ctx) => {
			const { body } = ctx;
			const sections: Array<{ title: string; rows: Array<{ title: string }> }> = ctx.v2 ? body.sections : body.values;
			const rows = sections.flatMap((s) => s.rows.map((r) => r.title));
			const result = messageResult(toJid(body.number), pollCreation(body.title, rows));
			return sent(ctx, 'list', `${body.title}\n${body.description}\n[${body.buttonText}] ${rows.join(' · ')}`, result);
		},
	},
	{
		method: 'POST',
		path: { documented: '/message/sendButtons/{instance}', v2: '/message/sendButtons/{instance}' },
		schema: {
			documented: sendBody(
				{
					title: str,
					description: str,
					footer: str,
					buttons: {
						type: 'array',
						minItems: 1,
						maxItems: 3,
						items: { type: 'object', properties: { title: str, displayText: str, id: str }, required: ['title', 'displayText', 'id'] },
					},
				},
				['title', 'description', 'buttons'],
			),
			v2: sendBody({ title: str, description: str, footer: str, buttons: { type: 'array', minItems: 1, items: v2Button } }, ['title', 'description', 'buttons']),
		},
		check: (body, dialect, version) => {
			if (dialect !== 'v2') return undefined;
			const types = (body.buttons as Array<{ type: string }>).map((b) => b.type);
			const replies = types.filter((t) => t === 'reply').length;
			if (replies > 3) return 'Maximum of 3 reply buttons allowed';
			if (!atLeast(version, '2.4.0')) {
				if (replies > 0 && replies < types.length) return 'Reply buttons cannot be mixed with other button types';
				return undefined;
			}
			// 2.4: the mixing message names the other kinds, and at most 2 url/call/copy buttons
			const ctas = types.filter((t) => t === 'url' || t === 'call' || t === 'copy').length;
			if (replies > 0 && types.length > 3) return 'Maximum of 3 reply buttons allowed';
			if (replies > 0 && replies < types.length) return 'Reply buttons cannot be mixed with CTA or PIX buttons';
			if (ctas > 0 && types.length > 2) return 'Maximum of 2 CTA buttons allowed';
			return undefined;
		},
		needsAccount: true,
		delayOf: bodyDelay,
		reply: (ctx) => {
			const { body } = ctx;
			const labels = (body.buttons as Array<{ displayText?: string; title?: string }>).map((b) => b.displayText ?? b.title ?? '');
			const result = messageResult(toJid(body.number), pollCreation(body.title, labels));
			return sent(ctx, 'buttons', `${body.title}\n${body.description}\n${labels.map((l) => `[${l}]`).join(' ')}`, result);
		},
	},
	{
		method: 'POST',
		path: { documented: '/message/sendLocation/{instance}', v2: '/message/sendLocation/{instance}' },
		schema: both(
			sendBody(
				{ name: str, address: str, latitude: { type: 'number', minimum: -90, maximum: 90 }, longitude: { type: 'number', minimum: -180, maximum: 180 } },
				['name', 'address', 'latitude', 'longitude'],
			),
		),
		needsAccount: true,
		delayOf: bodyDelay,
		reply: (ctx) => {
			const { body } = ctx;
			const result = messageResult(toJid(body.number), {
				locationMessage: { degreesLatitude: body.latitude, degreesLongitude: body.longitude, name: body.name, address: body.address, contextInfo: {} },
			});
			return sent(ctx, 'location', `📍 ${body.name}, ${body.address} (${body.latitude}, ${body.longitude})`, result);
		},
	},
	{
		method: 'POST',
		path: { documented: '/message/sendStatus/{instance}', v2: '/message/sendStatus/{instance}' },
		schema: {
			documented: statusSchema(false),
			v2: statusSchema(true),
		},
		check: (body, dialect) => {
			if (body.content.trim() === '') return 'Content is required';
			if (!body.allContacts && !(Array.isArray(body.statusJidList) && body.statusJidList.length > 0)) {
				return 'statusJidList is required when allContacts is false';
			}
			if (body.type === 'text') {
				if (!COLOR_PATTERN.test(body.backgroundColor)) return 'backgroundColor must be a hex colour like #RRGGBB';
				if (!Number.isInteger(body.font) || body.font < 1 || body.font > 5) return 'font must be one of 1, 2, 3, 4, 5';
			} else if (dialect === 'v2' && body.type === 'audio') {
				// v2 servers convert an audio status from a URL or raw base64
				if (!isMediaUrl(body.content) && !isBase64(body.content)) return 'content must be the URL or base64 of the audio';
			} else if (!/^https?:\/\/\S+$/.test(body.content)) {
				return `content must be the URL of the ${body.type}`;
			}
			return undefined;
		},
		delayOf: bodyDelay,
		reply: (ctx) => {
			const { body } = ctx;
			let content: Record<string, unknown>;
			if (body.type === 'text') {
				content = { extendedTextMessage: { text: body.content, backgroundArgb: colorToArgb(body.backgroundColor), font: FONTS[body.font - 1] } };
			} else {
				const mimetype = { image: 'image/jpeg', audio: 'audio/mp4', video: 'video/mp4' }[body.type as 'image' | 'audio' | 'video'];
				content = { [`${body.type}Message`]: { url: body.content, mimetype, ...(body.type === 'audio' ? {} : { caption: body.caption }) } };
			}
			const result = { ...messageResult('status@broadcast', content), participant: ctx.inst.jid };
			if (ctx.v2 && body.type === 'audio' && !isMediaUrl(body.content)) {
				// a file: stored as received, like the other sends with a file
				const mimetype = 'audio/ogg; codecs=opus';
				return sendFile(ctx, { kind: 'status', mediaType: 'audioMessage', field: 'content', mimetype, content: { ptt: true }, result });
			}
			return sent(ctx, 'status', `status (${body.type}): ${body.content}`, result);
		},
	},
	{
		method: 'POST',
		path: { documented: '/message/sendReaction/{instance}', v2: '/message/sendReaction/{instance}' },
		schema: both({ type: 'object', properties: { key: messageKey([]), reaction: str } }),
		check: (body) => {
			if (typeof body.key !== 'object' || body.key === null || Array.isArray(body.key) || !body.key.id || !body.key.remoteJid) return 'Key is required';
			return body.reaction === undefined || isReaction(body.reaction) ? undefined : 'Reaction must be a single emoji or an empty string';
		},
		delayOf: bodyDelay,
		reply: (ctx) => {
			const { body } = ctx;
			const key = { remoteJid: body.key.remoteJid, fromMe: body.key.fromMe ?? false, id: body.key.id };
			const reaction: string = body.reaction ?? '';
			const result = messageResult(key.remoteJid, { reactionMessage: { key, text: reaction, senderTimestampMs: String(Date.now()) } });
			return sent(ctx, 'reaction', reaction === '' ? `reaction removed from ${key.id}` : `${reaction} on ${key.id}`, result);
		},
	},
];

function statusSchema(v2: boolean): import('../validate').Schema {
	return {
		type: 'object',
		properties: {
			type: { type: 'string', enum: v2 ? ['text', 'image', 'audio', 'video'] : ['text', 'image', 'audio'] },
			content: str,
			caption: str,
			backgroundColor: str,
			font: num,
			allContacts: bool,
			statusJidList: {
				type: 'array',
				// v2.3.x: at least one entry and none twice ("statusJidList contains duplicate item")
				...(v2 ? { minItems: 1, uniqueItems: true } : {}),
				items: { type: 'string', pattern: NUMBER_PATTERN, description: 'Invalid format' },
			},
		},
		required: v2
			? ['type', 'content', 'caption', 'backgroundColor', 'font', 'allContacts']
			: ['type', 'content', 'caption', 'backgroundColor', 'font', 'allContacts', 'statusJidList'],
	};
}
