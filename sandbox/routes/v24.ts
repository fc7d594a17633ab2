/**
 * Routes Evolution API 2.4 added (schemas and answers as at tag 2.4.0-rc2); a sandbox playing
 * 2.3.x answers them 404, as those releases do.
 */
import { messageResult, toJid } from '../messages';
import { sendBody, str } from '../schemas';
import type { RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { route } from './group';
import { sent } from './send';

const nonEmpty: Schema = { type: 'string', minLength: 1 };

const carouselButton: Schema = {
	type: 'object',
	properties: { type: { type: 'string', enum: ['reply', 'copy', 'url', 'call'] }, displayText: str, id: str, url: str, copyCode: str, phoneNumber: str },
	required: ['type'],
};

const carouselCard: Schema = {
	type: 'object',
	properties: { title: str, body: nonEmpty, footer: str, imageUrl: str, buttons: { type: 'array', minItems: 1, maxItems: 3, items: carouselButton } },
	required: ['body', 'buttons'],
};

const playedKey: Schema = {
	type: 'object',
	properties: { id: nonEmpty, fromMe: { type: 'boolean' }, remoteJid: nonEmpty },
	required: ['id', 'fromMe', 'remoteJid'],
};

/** The poll the instance sent with this id, from the chat log. */
function pollOf(ctx: RouteContext, id: string): { name: string; values: string[] } | undefined {
	const entry = ctx.server.chatLog().find((logged) => logged.instance === ctx.inst.name && logged.kind === 'poll' && logged.messageId === id);
	const body = entry?.body as { name?: unknown; values?: unknown } | undefined;
	return body && typeof body.name === 'string' && Array.isArray(body.values) ? { name: body.name, values: body.values.map(String) } : undefined;
}

export const v24Routes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/message/sendCarousel/{instance}' },
		since: '2.4.0',
		schema: { v2: sendBody({ body: nonEmpty, cards: { type: 'array', minItems: 1, maxItems: 10, items: carouselCard } }, ['body', 'cards']) },
		needsAccount: true,
		delayOf: (body) => body.delay,
		reply: (ctx) => {
			const cards = ctx.body.cards as Array<{ body: string; buttons: Array<{ displayText?: string }> }>;
			const text = `${ctx.body.body}\n${cards.map((card) => `${card.body} ${card.buttons.map((b) => `[${b.displayText ?? ''}]`).join(' ')}`).join('\n')}`;
			const result = messageResult(toJid(ctx.body.number), { interactiveMessage: { body: { text: ctx.body.body }, carouselMessage: { cards: cards.length } } });
			return sent(ctx, 'buttons', text, result);
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/markMessageAsPlayed/{instance}' },
		since: '2.4.0',
		schema: { v2: { type: 'object', properties: { playedMessages: { type: 'array', minItems: 1, uniqueItems: true, items: playedKey } }, required: ['playedMessages'] } },
		reply: (ctx) => {
			for (const key of ctx.body.playedMessages as Array<{ id: string; remoteJid: string }>) {
				// As the real server: only a phone JID or a group gets the receipt, the rest is skipped.
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
		reply: (ctx) => {
			const poll = pollOf(ctx, String(ctx.body.message.key.id));
			if (!poll) return { status: 500, body: { status: 500, error: 'Internal Server Error', response: { message: 'Error decrypting poll votes' } } };
			const results = Object.fromEntries(poll.values.map((value) => [value, { votes: 0, voters: [] }]));
			return { status: 200, body: { poll: { name: poll.name, totalVotes: 0, results } } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/findChannels/{instance}' },
		since: '2.4.0',
		reply: (ctx) => {
			const page = Number(ctx.body.page ?? 1);
			const limit = Number(ctx.body.limit ?? 50);
			const latest = new Map<string, number>();
			for (const entry of ctx.server.chatLog()) {
				if (entry.instance === ctx.inst.name && entry.chat.endsWith('@newsletter')) latest.set(entry.chat, Math.floor(entry.at / 1000));
			}
			const all = [...latest].reverse().map(([remoteJid, lastMessageTimestamp]) => ({ remoteJid, lastMessageTimestamp }));
			const records = all.slice((page - 1) * limit, page * limit);
			return { status: 200, body: { total: all.length, pages: Math.ceil(all.length / limit), currentPage: page, limit, records } };
		},
	},
	{
		...route(
			'POST',
			'updateMemberAddMode',
			(_group, { body }) => ({ status: 201, body: { update: 'success', mode: body.mode } }),
			{ type: 'object', properties: { groupJid: str, mode: { type: 'string', enum: ['admin_add', 'all_member_add'] } }, required: ['mode'] },
		),
		since: '2.4.0',
	},
];
