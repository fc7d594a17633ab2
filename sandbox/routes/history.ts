/**
 * /chat/* routes of v2.x servers beyond the interface document: the history the chat log
 * holds (Find Messages, Find Chats, Find Contacts, with the real server's paging), read
 * marks, deletions, unread marks, profiles and blocks. Schemas as v2.3.6's chat schemas.
 */
import { findChats, findContacts, findMessages, pageOf, type MessageFilter } from '../accounts';
import { badRequest } from '../http';
import { toJid } from '../messages';
import { messageKey } from '../schemas';
import type { ChatEntry, RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { accountOf } from './account';
import { atLeast } from '../versions';

const lastMessage: Schema = { type: 'object', properties: { key: messageKey(['id', 'fromMe', 'remoteJid']) }, required: ['key'] };
const whereJid: Schema = { type: 'object', properties: { where: { type: 'object', properties: { remoteJid: { type: 'string', minLength: 1 } } } } };

function log(ctx: RouteContext): ChatEntry[] {
	return ctx.server.chatLog().filter((entry) => entry.instance === ctx.inst.name);
}

function epochSeconds(value: unknown): number | undefined {
	const at = typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : NaN;
	return Number.isNaN(at) ? undefined : Math.floor(at / 1000);
}

/** A number or a JID, as the server reads a contact: a bare number becomes its JID. */
function jidOf(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? toJid(value) : undefined;
}

export const historyRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/chat/markMessageAsRead/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { readMessages: { type: 'array', minItems: 1, uniqueItems: true, items: messageKey(['id', 'fromMe', 'remoteJid']) } },
				required: ['readMessages'],
			},
		},
		reply: (ctx) => {
			const account = accountOf(ctx.inst);
			for (const key of ctx.body.readMessages as Array<{ id: string; remoteJid: string }>) {
				account.read.add(key.id);
				account.unread.delete(key.remoteJid);
				ctx.out('read', key.remoteJid, `read ${key.id}`, key.id);
			}
			return { status: 201, body: { message: 'Read messages', read: 'success' } };
		},
	},
	{
		method: 'DELETE',
		path: { v2: '/chat/deleteMessageForEveryone/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { id: { type: 'string', minLength: 1 }, fromMe: { type: 'boolean' }, remoteJid: { type: 'string', minLength: 1 }, participant: { type: 'string', minLength: 1 } },
				required: ['id', 'fromMe', 'remoteJid'],
			},
		},
		reply: (ctx) => {
			const known = log(ctx).some((entry) => entry.messageId === ctx.body.id);
			if (!known) return badRequest([`Message ${ctx.body.id} not found`]);
			accountOf(ctx.inst).deleted.add(ctx.body.id);
			ctx.out('delete', ctx.body.remoteJid, `deleted ${ctx.body.id}`, ctx.body.id);
			return { status: 201, body: { key: { remoteJid: ctx.body.remoteJid, fromMe: true, id: ctx.body.id }, message: { protocolMessage: { key: { id: ctx.body.id }, type: 'REVOKE' } }, status: 'PENDING' } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/findMessages/{instance}' },
		schema: { v2: { type: 'object', properties: { where: { type: 'object' }, page: { type: 'integer' }, offset: { type: 'integer' } } } },
		reply: (ctx) => {
			const where = (ctx.body.where ?? {}) as Record<string, any>;
			const timestamps = where.messageTimestamp ?? {};
			const filter: MessageFilter = {
				id: where.key?.id,
				remoteJid: where.key?.remoteJid,
				remoteJidAlt: where.key?.remoteJidAlt,
				remoteJidAlone: !atLeast(ctx.version, '2.3.7'),
				participant: where.key?.participant,
				// The real server filters on fromMe only when it is true.
				fromMe: where.key?.fromMe === true,
				messageType: where.messageType,
				from: epochSeconds(timestamps.gte),
				to: epochSeconds(timestamps.lte),
			};
			return { status: 200, body: findMessages(log(ctx), ctx.inst.instanceId, accountOf(ctx.inst).deleted, filter, ctx.body.page || 1, ctx.body.offset || 50, ctx.server.historyQuirks()) };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/findChats/{instance}' },
		schema: { v2: whereJid },
		reply: (ctx) => {
			const chats = findChats(log(ctx), ctx.inst.instanceId, accountOf(ctx.inst), jidOf(ctx.body.where?.remoteJid));
			const take = typeof ctx.body.take === 'number' ? ctx.body.take : undefined;
			return { status: 200, body: pageOf(chats, typeof ctx.body.skip === 'number' ? ctx.body.skip : 0, take) };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/findContacts/{instance}' },
		schema: { v2: whereJid },
		reply: (ctx) => {
			const contacts = findContacts(log(ctx), ctx.inst.instanceId, jidOf(ctx.body.where?.remoteJid));
			const size = typeof ctx.body.offset === 'number' && ctx.body.offset > 0 ? ctx.body.offset : undefined;
			const page = typeof ctx.body.page === 'number' ? Math.max(ctx.body.page, 1) : 1;
			return { status: 200, body: pageOf(contacts, size === undefined ? 0 : size * (page - 1), size) };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/markChatUnread/{instance}' },
		schema: { v2: { type: 'object', properties: { chat: { type: 'string' }, lastMessage }, required: ['lastMessage'] } },
		reply: (ctx) => {
			const chat = ctx.body.chat ?? ctx.body.lastMessage.key.remoteJid;
			accountOf(ctx.inst).unread.add(chat);
			ctx.out('unread', chat, 'marked unread');
			return { status: 201, body: { chatId: chat, markedChatUnread: true } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/fetchProfile/{instance}' },
		reply: (ctx) => {
			const jid = jidOf(ctx.body.number);
			if (!jid) return badRequest(['number is required']);
			const known = log(ctx).find((entry) => entry.chat === jid && entry.pushName);
			return {
				status: 200,
				body: { wuid: jid, name: known?.pushName ?? null, numberExists: true, picture: null, status: { status: 'Hey there! I am using WhatsApp.', setAt: null }, isBusiness: false },
			};
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/fetchProfilePictureUrl/{instance}' },
		reply: (ctx) => {
			const jid = jidOf(ctx.body.number);
			if (!jid) return badRequest(['number is required']);
			return { status: 200, body: { wuid: jid, profilePictureUrl: null } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/updateBlockStatus/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { number: { type: 'string', minLength: 1 }, status: { type: 'string', enum: ['block', 'unblock'] } },
				required: ['number', 'status'],
			},
		},
		reply: (ctx) => {
			const jid = toJid(ctx.body.number);
			const blocked = accountOf(ctx.inst).blocked;
			if (ctx.body.status === 'block') blocked.add(jid);
			else blocked.delete(jid);
			return { status: 201, body: { accepted: true } };
		},
	},
];
