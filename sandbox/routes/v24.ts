/**
 * The routes Evolution API 2.4 added (tag 2.4.0-rc2: `src/api/routes/*.router.ts`,
 * `src/validate/*.schema.ts`, the Baileys service); older releases answer 404 as their
 * router does. One entry each, like the other files of this folder.
 */
import { randomBytes, randomUUID } from 'crypto';
import { messageResult, toJid } from '../messages';
import { bool, delayField, messageKey, numberField, str } from '../schemas';
import type { ChatEntry, Reply, RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { route } from './group';
import { sent } from './send';

const CAROUSEL_BUTTON_TYPES = ['reply', 'copy', 'url', 'call'];

/** sendCarousel's own schema: it still names `everyOne` (not `mentionsEveryOne`) and wants ≥1 mention when `mentioned` is sent. */
const carouselSchema: Schema = {
	type: 'object',
	properties: {
		number: numberField,
		body: { type: 'string', minLength: 1 },
		cards: {
			type: 'array',
			minItems: 1,
			maxItems: 10,
			items: {
				type: 'object',
				properties: {
					title: str,
					body: { type: 'string', minLength: 1 },
					footer: str,
					imageUrl: str,
					buttons: {
						type: 'array',
						minItems: 1,
						maxItems: 3,
						items: {
							type: 'object',
							properties: { type: { type: 'string', enum: CAROUSEL_BUTTON_TYPES }, displayText: str, id: str, url: str, copyCode: str, phoneNumber: str },
							required: ['type'],
						},
					},
				},
				required: ['body', 'buttons'],
			},
		},
		delay: delayField,
		quoted: { type: 'object', properties: { key: messageKey(['id']), message: { type: 'object', properties: { conversation: str } } }, required: ['key'] },
		everyOne: bool,
		mentioned: {
			type: 'array',
			minItems: 1,
			uniqueItems: true,
			items: { type: 'string', pattern: '^\\d+', description: '"mentioned" must be an array of numeric strings' },
		},
	},
	required: ['number', 'body', 'cards'],
};

interface CarouselButton {
	type: string;
	displayText?: string;
	id?: string;
	url?: string;
	copyCode?: string;
	phoneNumber?: string;
}
interface CarouselCard {
	title?: string;
	body: string;
	footer?: string;
	imageUrl?: string;
	buttons: CarouselButton[];
}

/** A button as WhatsApp's native flow carries it (a reply without `id` gets a random one). */
function nativeFlowButton(b: CarouselButton): { name: string; buttonParamsJson: string } {
	const display_text = b.displayText ?? '';
	if (b.type === 'url') return { name: 'cta_url', buttonParamsJson: JSON.stringify({ display_text, url: b.url, merchant_url: b.url }) };
	if (b.type === 'call') return { name: 'cta_call', buttonParamsJson: JSON.stringify({ display_text, phone_number: b.phoneNumber }) };
	if (b.type === 'copy') return { name: 'cta_copy', buttonParamsJson: JSON.stringify({ display_text, copy_code: b.copyCode }) };
	return { name: 'quick_reply', buttonParamsJson: JSON.stringify({ display_text, id: b.id ?? randomUUID() }) };
}

/**
 * The interactive message the server builds: one card without an image goes out as a plain
 * native flow message (the carousel's own `body` and each card's `title` are then unused);
 * otherwise a carousel of cards under the message's `body`.
 */
function carouselMessage(body: string, cards: CarouselCard[]): Record<string, unknown> {
	const footer = (c: CarouselCard): Record<string, unknown> => (c.footer ? { footer: { text: c.footer } } : {});
	if (cards.length === 1 && !cards[0].imageUrl) {
		const c = cards[0];
		return {
			interactiveMessage: {
				body: { text: c.body },
				...footer(c),
				nativeFlowMessage: { buttons: c.buttons.map(nativeFlowButton), messageParamsJson: JSON.stringify({ from: 'api', templateId: randomUUID() }) },
			},
		};
	}
	return {
		interactiveMessage: {
			body: { text: body },
			carouselMessage: {
				cards: cards.map((c) => ({
					...(c.imageUrl ? { header: { hasMediaAttachment: true, imageMessage: { url: c.imageUrl, mimetype: 'image/jpeg' } } } : {}),
					body: { text: c.body },
					...footer(c),
					nativeFlowMessage: { buttons: c.buttons.map(nativeFlowButton) },
				})),
				messageVersion: 1,
			},
		},
	};
}

const NEWSLETTER = /@newsletter$/;

function pollVotes(ctx: RouteContext): Reply {
	const id = ctx.body.message.key.id as string;
	const poll = ctx.server
		.chatLog()
		.find((e: ChatEntry) => e.instance === ctx.inst.name && e.kind === 'poll' && e.messageId === id);
	if (!poll) {
		// the service's "not found" is thrown inside its try and re-thrown as a 500 whose detail is the thrown object's text
		return { status: 500, body: { status: 500, error: 'Internal Server Error', response: { message: ['Error decrypting poll votes', '[object Object]'] } } };
	}
	const { name, values } = poll.body as { name: string; values: string[] };
	const results: Record<string, { votes: number; voters: string[] }> = {};
	for (const option of values) results[option] = { votes: 0, voters: [] };
	return { status: 200, body: { poll: { name, totalVotes: 0, results } } };
}

function channels(ctx: RouteContext): Reply {
	const page = Number(ctx.body?.page ?? 1);
	const limit = Number(ctx.body?.limit ?? ctx.body?.rows ?? 50);
	const latest = new Map<string, number>();
	const entries = ctx.server.chatLog().filter((e) => e.instance === ctx.inst.name && NEWSLETTER.test(e.chat));
	for (const e of [...entries].sort((a, b) => b.at - a.at)) {
		if (!latest.has(e.chat)) latest.set(e.chat, Math.floor(e.at / 1000));
	}
	const all = [...latest].map(([remoteJid, lastMessageTimestamp]) => ({ remoteJid, lastMessageTimestamp }));
	const skip = (page - 1) * limit;
	return { status: 200, body: { total: all.length, pages: Math.ceil(all.length / limit), currentPage: page, limit, records: all.slice(skip, skip + limit) } };
}

export const v24Routes: RouteDef[] = [
	{
		// a fresh id as WhatsApp Web makes them (`3EB0` + 18 hex digits), for a send's `messageId`
		method: 'GET',
		path: { v2: '/baileys/generateMessageID/{instance}' },
		since: '2.4.0',
		reply: () => ({ status: 200, body: { id: `3EB0${randomBytes(9).toString('hex').toUpperCase()}` } }),
	},
	{
		method: 'POST',
		path: { v2: '/message/sendCarousel/{instance}' },
		since: '2.4.0',
		schema: { v2: carouselSchema },
		needsAccount: true,
		reply: (ctx) => {
			const cards = ctx.body.cards as CarouselCard[];
			const result = messageResult(toJid(ctx.body.number), carouselMessage(ctx.body.body, cards));
			const text = `${ctx.body.body}\n${cards.map((c) => `[${c.body}] ${c.buttons.map((b) => b.displayText ?? b.type).join(' · ')}`).join('\n')}`;
			return sent(ctx, 'buttons', text, result);
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/markMessageAsPlayed/{instance}' },
		since: '2.4.0',
		schema: {
			v2: {
				type: 'object',
				properties: { playedMessages: { type: 'array', minItems: 1, uniqueItems: true, items: messageKey(['id', 'fromMe', 'remoteJid']) } },
				required: ['playedMessages'],
			},
		},
		reply: (ctx) => {
			// receipts go only to phone-number and group chats; others (e.g. …@lid) are skipped silently
			for (const key of ctx.body.playedMessages as Array<{ id: string; remoteJid: string }>) {
				if (/@(s\.whatsapp\.net|g\.us)$/.test(key.remoteJid)) ctx.out('read', key.remoteJid, `played ${key.id}`, key.id);
			}
			return { status: 201, body: { message: 'Played messages', played: 'success' } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/getPollVote/{instance}' },
		since: '2.4.0',
		schema: {
			v2: {
				type: 'object',
				properties: {
					message: { type: 'object', properties: { key: { type: 'object', properties: { id: str }, required: ['id'] } }, required: ['key'] },
					remoteJid: str,
				},
				required: ['message', 'remoteJid'],
			},
		},
		reply: pollVotes,
	},
	{
		method: 'POST',
		path: { v2: '/chat/findChannels/{instance}' },
		since: '2.4.0',
		schema: {
			v2: {
				type: 'object',
				properties: {
					where: {
						type: 'object',
						properties: { _id: { type: 'string', minLength: 1 }, pushName: { type: 'string', minLength: 1 }, id: { type: 'string', minLength: 1 }, remoteJid: { type: 'string', minLength: 1 } },
					},
				},
			},
		},
		reply: channels,
	},
	{
		...route(
			'POST',
			'updateMemberAddMode',
			(_group, ctx) => ({ status: 201, body: { update: 'success', mode: ctx.body.mode } }),
			{
				type: 'object',
				properties: { groupJid: str, mode: { type: 'string', enum: ['admin_add', 'all_member_add'] } },
				required: ['groupJid', 'mode'],
				// the real "cannot be empty" rule fires only when groupJid and mode are the body's only properties
				when: [
					{
						test: (b) => Object.keys(b).every((k) => k === 'groupJid' || k === 'mode'),
						then: {
							properties: {
								groupJid: { minLength: 1, description: 'The "groupJid" cannot be empty' },
								mode: { minLength: 1, description: 'The "mode" cannot be empty' },
							},
						},
					},
				],
			},
		),
		since: '2.4.0',
	},
];
