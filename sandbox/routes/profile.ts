/**
 * The account's own routes of 2.3.7 / 2.4 (`chat.router.ts`, `group.router.ts`,
 * `validate/chat.schema.ts`, `validate/group.schema.ts`, the Baileys service): profile name,
 * status, picture and privacy, the business profile, one chat by JID, the stored receipts,
 * and joining a group by invite. One entry each, like the other files of this folder.
 */
import { createHash } from 'crypto';
import { findChats, groupInfo } from '../accounts';
import { badRequest, errorBody, notFound } from '../http';
import { numberCheck } from '../messages';
import { bool, str } from '../schemas';
import type { ChatEntry, Instance, Reply, RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { accountOf } from './account';

/** The server's `isNotEmpty(...)`: applies only when the body has no other key than these. */
export function notEmpty(...keys: string[]): NonNullable<Schema['when']>[number] {
	return {
		test: (b) => Object.keys(b).every((k) => keys.includes(k)),
		then: { properties: Object.fromEntries(keys.map((k) => [k, { minLength: 1, description: `The "${k}" cannot be empty` }])) },
	};
}

/** What the Baileys service's InternalServerErrorException(title, error.toString()) answers. */
export function internalError(...message: string[]): Reply {
	return { status: 500, body: { status: 500, error: 'Internal Server Error', response: { message } } };
}

interface Profile {
	name?: string;
	status?: string;
	picture?: 'url' | 'base64' | 'removed';
	privacy: Record<string, string>;
}

const profiles = new WeakMap<Instance, Profile>();

function profileOf(inst: Instance): Profile {
	let profile = profiles.get(inst);
	if (!profile) {
		// WhatsApp's defaults for a new account
		profile = { privacy: { readreceipts: 'all', profile: 'all', status: 'contacts', online: 'all', last: 'all', groupadd: 'all' } };
		profiles.set(inst, profile);
	}
	return profile;
}

const AUDIENCE = ['all', 'contacts', 'contact_blacklist', 'none'];
const PRIVACY_KEYS = ['readreceipts', 'profile', 'status', 'online', 'last', 'groupadd'];

const privacySchema: Schema = {
	type: 'object',
	properties: {
		readreceipts: { type: 'string', enum: ['all', 'none'] },
		profile: { type: 'string', enum: AUDIENCE },
		status: { type: 'string', enum: AUDIENCE },
		online: { type: 'string', enum: ['all', 'match_last_seen'] },
		last: { type: 'string', enum: AUDIENCE },
		groupadd: { type: 'string', enum: AUDIENCE },
	},
	required: PRIVACY_KEYS,
	when: [notEmpty(...PRIVACY_KEYS)],
};

const pictureSchema: Schema = { type: 'object', properties: { number: str, picture: str } };

/** class-validator's isURL as the service calls it: a scheme-less or http(s) address with a dotted host. */
function isUrl(value: string): boolean {
	return /^(https?:\/\/)?[^\s/:?#@]+\.[a-z]{2,}(:\d+)?([/?#]\S*)?$/i.test(value);
}

function isBase64(value: string): boolean {
	return value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

function log(ctx: RouteContext): ChatEntry[] {
	return ctx.server.chatLog().filter((entry) => entry.instance === ctx.inst.name);
}

function cuid(...parts: string[]): string {
	return `cm${createHash('sha1').update(parts.join('|')).digest('hex').slice(0, 23)}`;
}

/** Where the chat page shows what the account's contacts see change: beside its status posts. */
const OWN_UPDATES = 'status@broadcast';

/** The receipts the server stored: one DELIVERY_ACK per message the instance sent, then READ for the ones the contact read. */
function receipts(ctx: RouteContext): Array<Record<string, unknown>> {
	const all: Array<Record<string, unknown>> = [];
	for (const entry of log(ctx)) {
		if (entry.direction !== 'out' || !entry.messageId || entry.kind === 'read' || entry.kind === 'presence' || entry.kind === 'archive' || entry.kind === 'unread') continue;
		all.push({
			id: cuid(ctx.inst.instanceId, entry.messageId, 'DELIVERY_ACK'),
			keyId: entry.messageId,
			remoteJid: entry.chat,
			fromMe: true,
			participant: null,
			pollUpdates: null,
			status: 'DELIVERY_ACK',
			messageId: cuid(ctx.inst.instanceId, entry.messageId),
			instanceId: ctx.inst.instanceId,
		});
	}
	return all;
}

const INVITE_QUERY: Schema = { type: 'object', properties: { inviteCode: { type: 'string', pattern: '^[a-zA-Z0-9]{22}$' } } };
const INVITE_MISSING = badRequest(['The group invite code id needs to be informed in the query', 'ex: "inviteCode=F1EX5QZxO181L3TMVP31gY" (Obtained from group join link)']);

/** The group an invite code leads to, on any instance of the server (invites are for other accounts' groups). */
function invited(ctx: RouteContext, code: string) {
	for (const inst of ctx.instances()) {
		for (const group of accountOf(inst).groups.values()) if (group.inviteCode === code) return group;
	}
	return undefined;
}

export const profileRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/chat/fetchBusinessProfile/{instance}' },
		schema: { v2: pictureSchema },
		reply: (ctx) => {
			const number = typeof ctx.body.number === 'string' && ctx.body.number !== '' ? ctx.body.number : undefined;
			if (number === undefined) {
				// the sandbox's own accounts are business accounts
				return {
					status: 200,
					body: {
						isBusiness: true,
						wid: ctx.inst.jid,
						description: `${ctx.inst.name} — sandbox business`,
						website: ['https://example.com'],
						email: `${ctx.inst.name}@example.com`,
						category: 'Shopping & retail',
						address: 'Rua Exemplo 100, São Paulo',
						business_hours: { timezone: 'America/Sao_Paulo', business_config: [{ day_of_week: 'mon', mode: 'open_24h' }] },
					},
				};
			}
			return { status: 200, body: { isBusiness: false, message: 'Not is business profile', ...numberCheck(number) } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/updateProfileName/{instance}' },
		schema: { v2: { type: 'object', properties: { name: str }, when: [notEmpty('name')] } },
		reply: (ctx) => {
			if (typeof ctx.body.name !== 'string') return internalError('Error updating profile name', 'Error: bad-request');
			profileOf(ctx.inst).name = ctx.body.name;
			ctx.out('profile', OWN_UPDATES, `changed the profile name to “${ctx.body.name}”`);
			return { status: 200, body: { update: 'success' } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/updateProfileStatus/{instance}' },
		schema: { v2: { type: 'object', properties: { status: str }, when: [notEmpty('status')] } },
		reply: (ctx) => {
			if (typeof ctx.body.status !== 'string') return internalError('Error updating profile status', 'Error: bad-request');
			profileOf(ctx.inst).status = ctx.body.status;
			ctx.out('profile', OWN_UPDATES, `changed the About text to “${ctx.body.status}”`);
			return { status: 200, body: { update: 'success' } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/updateProfilePicture/{instance}' },
		schema: { v2: pictureSchema },
		reply: (ctx) => {
			const picture = ctx.body.picture;
			// a value neither URL nor base64: the service's BadRequestException, wrapped as text
			if (typeof picture !== 'string' || (!isUrl(picture) && !isBase64(picture))) return internalError('Error updating profile picture', '[object Object]');
			profileOf(ctx.inst).picture = isUrl(picture) ? 'url' : 'base64';
			const shown = isUrl(picture) ? picture : `(base64, ${picture.length} characters)`;
			ctx.out('profile', OWN_UPDATES, `changed the profile picture (${isUrl(picture) ? picture : 'an uploaded image'})`, undefined, { body: { picture: shown } });
			return { status: 200, body: { update: 'success' } };
		},
	},
	{
		method: 'DELETE',
		path: { v2: '/chat/removeProfilePicture/{instance}' },
		schema: { v2: pictureSchema },
		reply: (ctx) => {
			profileOf(ctx.inst).picture = 'removed';
			ctx.out('profile', OWN_UPDATES, 'removed the profile picture');
			return { status: 200, body: { update: 'success' } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/chat/fetchPrivacySettings/{instance}' },
		reply: (ctx) => ({ status: 200, body: { ...profileOf(ctx.inst).privacy } }),
	},
	{
		method: 'POST',
		path: { v2: '/chat/updatePrivacySettings/{instance}' },
		schema: { v2: privacySchema },
		reply: (ctx) => {
			const data = Object.fromEntries(PRIVACY_KEYS.map((key) => [key, ctx.body[key] as string]));
			profileOf(ctx.inst).privacy = data;
			return { status: 201, body: { update: 'success', data } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/chat/findChatByRemoteJid/{instance}' },
		reply: (ctx) => {
			const remoteJid = ctx.query.remoteJid;
			if (!remoteJid) return { status: 400, body: { error: 'remoteJid is a required query parameter' } };
			// the JID is compared exactly: a bare number finds nothing
			const chat = findChats(log(ctx), ctx.inst.instanceId, accountOf(ctx.inst), remoteJid)[0];
			if (!chat) return { status: 200, body: null };
			return {
				status: 200,
				body: {
					id: chat.id,
					remoteJid: chat.remoteJid,
					name: chat.pushName,
					labels: chat.labels,
					createdAt: chat.updatedAt,
					updatedAt: chat.updatedAt,
					instanceId: ctx.inst.instanceId,
					unreadMessages: chat.unreadMessages,
				},
			};
		},
	},
	{
		method: 'POST',
		path: { v2: '/chat/findStatusMessage/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: {
					where: {
						type: 'object',
						properties: {
							_id: str,
							remoteJid: str,
							id: str,
							fromMe: bool,
							participant: str,
							status: { type: 'string', enum: ['ERROR', 'PENDING', 'SERVER_ACK', 'DELIVERY_ACK', 'READ', 'PLAYED'] },
						},
						when: [notEmpty('_id', 'remoteJid', 'id', 'status')],
					},
					limit: { type: 'integer' },
				},
			},
		},
		reply: (ctx) => {
			// only remoteJid and id filter; `offset` is the page size (50), `page` counts from 1
			const where = (ctx.body.where ?? {}) as { remoteJid?: string; id?: string };
			const offset = Number(ctx.body.offset) || 50;
			const page = Number(ctx.body.page) || 1;
			const matching = receipts(ctx).filter((r) => (where.remoteJid === undefined || r.remoteJid === where.remoteJid) && (where.id === undefined || r.keyId === where.id));
			const skip = offset * (page === 1 ? 0 : page - 1);
			return { status: 200, body: matching.slice(skip, skip + offset) };
		},
	},
	{
		method: 'GET',
		path: { v2: '/group/inviteInfo/{instance}' },
		querySchema: { v2: INVITE_QUERY },
		reply: (ctx) => {
			const code = ctx.query.inviteCode;
			if (!code) return INVITE_MISSING;
			const group = invited(ctx, code);
			if (!group) return notFound('No invite info');
			const info = groupInfo(group, false);
			return { status: 200, body: { ...info, participants: undefined, size: group.participants.length } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/group/acceptInviteCode/{instance}' },
		querySchema: { v2: INVITE_QUERY },
		reply: (ctx) => {
			const code = ctx.query.inviteCode;
			if (!code) return INVITE_MISSING;
			const group = invited(ctx, code);
			if (!group) return { status: 404, body: errorBody(404, 'Accept invite error') };
			if (!group.participants.some((p) => p.id === ctx.inst.jid)) group.participants.push({ id: ctx.inst.jid, admin: null });
			accountOf(ctx.inst).groups.set(group.id, group);
			ctx.emit('groups.upsert', [groupInfo(group)]);
			return { status: 200, body: { accepted: true, groupJid: group.id } };
		},
	},
];

