/**
 * /group/* of v2.x servers. The group comes from the query string (`?groupJid=`; a POST
 * route also takes it from the body), and `@g.us` is added when missing — except Send
 * Invite, which reads it from the body only, as given. Schemas as v2.3.6's group schemas.
 */
import { groupInfo, groupJidOf, inviteCode, newGroup, type Group } from '../accounts';
import { badRequest } from '../http';
import { messageResult } from '../messages';
import type { Reply, RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { accountOf } from './account';

const participants: Schema = {
	type: 'array',
	minItems: 1,
	uniqueItems: true,
	items: { type: 'string', minLength: 10, pattern: '\\d+', description: '"participants" must be an array of numeric strings' },
};

/** The group the request names, as groupValidate reads it; a Reply when it names none or an unknown one. */
function groupOf(ctx: RouteContext): Group | Reply {
	const given = (typeof ctx.body?.groupJid === 'string' && ctx.body.groupJid) || ctx.query.groupJid;
	if (!given) return badRequest(['The group id needs to be informed in the query', 'ex: "groupJid=120362@g.us"']);
	const jid = groupJidOf(given);
	const group = accountOf(ctx.inst).groups.get(jid);
	return group ?? badRequest([`Group ${jid} not found`]);
}

function withGroup(ctx: RouteContext, act: (group: Group) => Reply): Reply {
	const found = groupOf(ctx);
	return 'status' in found && !('subject' in found) ? found : act(found as Group);
}

export function route(method: RouteDef['method'], name: string, act: (group: Group, ctx: RouteContext) => Reply, schema?: Schema): RouteDef {
	return {
		method,
		path: { v2: `/group/${name}/{instance}` },
		...(schema ? { schema: { v2: schema } } : {}),
		reply: (ctx) => withGroup(ctx, (group) => act(group, ctx)),
	};
}

const SETTINGS: Record<string, Partial<Group>> = {
	announcement: { announce: true },
	not_announcement: { announce: false },
	locked: { restrict: true },
	unlocked: { restrict: false },
};

export const groupRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/group/create/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { subject: { type: 'string' }, description: { type: 'string', minLength: 1 }, promoteParticipants: { type: 'boolean' }, participants },
				required: ['subject', 'participants'],
			},
		},
		reply: (ctx) => {
			const { body } = ctx;
			const group = newGroup(ctx.inst.jid, body.subject, body.description ?? '', body.participants, body.promoteParticipants === true);
			accountOf(ctx.inst).groups.set(group.id, group);
			ctx.emit('groups.upsert', [groupInfo(group)]);
			return { status: 201, body: groupInfo(group) };
		},
	},
	route('GET', 'findGroupInfos', (group) => ({ status: 200, body: groupInfo(group) })),
	{
		method: 'GET',
		path: { v2: '/group/fetchAllGroups/{instance}' },
		reply: (ctx) => {
			const flag = ctx.query.getParticipants;
			if (!flag) return badRequest(['The getParticipants needs to be informed in the query']);
			if (flag !== 'true' && flag !== 'false') return badRequest([['getParticipants is not one of enum values: true,false']]);
			return { status: 200, body: [...accountOf(ctx.inst).groups.values()].map((group) => groupInfo(group, flag === 'true')) };
		},
	},
	route('GET', 'participants', (group) => ({ status: 200, body: { participants: group.participants } })),
	route(
		'POST',
		'updateParticipant',
		(group, { body }) => {
			const jids = (body.participants as string[]).map((number) => `${number.replace(/\D/g, '')}@s.whatsapp.net`);
			for (const jid of jids) {
				const index = group.participants.findIndex((p) => p.id === jid);
				if (body.action === 'add' && index < 0) group.participants.push({ id: jid, admin: null });
				if (body.action === 'remove' && index >= 0) group.participants.splice(index, 1);
				if ((body.action === 'promote' || body.action === 'demote') && index >= 0) group.participants[index].admin = body.action === 'promote' ? 'admin' : null;
			}
			return { status: 201, body: { updateParticipants: jids.map((jid) => ({ status: '200', jid })) } };
		},
		{ type: 'object', properties: { action: { type: 'string', enum: ['add', 'remove', 'promote', 'demote'] }, participants }, required: ['action', 'participants'] },
	),
	route(
		'POST',
		'updateGroupSubject',
		(group, { body }) => {
			group.subject = body.subject;
			return { status: 201, body: { update: 'success' } };
		},
		{ type: 'object', properties: { subject: { type: 'string', minLength: 1 } }, required: ['subject'] },
	),
	route(
		'POST',
		'updateGroupDescription',
		(group, { body }) => {
			group.description = body.description;
			return { status: 201, body: { update: 'success' } };
		},
		{ type: 'object', properties: { description: { type: 'string', minLength: 1 } }, required: ['description'] },
	),
	route(
		'POST',
		'updateGroupPicture',
		() => ({ status: 201, body: { update: 'success' } }),
		{ type: 'object', properties: { image: { type: 'string', minLength: 1 } }, required: ['image'] },
	),
	route(
		'POST',
		'updateSetting',
		(group, { body }) => {
			Object.assign(group, SETTINGS[body.action]);
			return { status: 201, body: { updateSetting: true } };
		},
		{ type: 'object', properties: { action: { type: 'string', enum: Object.keys(SETTINGS) } }, required: ['action'] },
	),
	route(
		'POST',
		'toggleEphemeral',
		(group, { body }) => {
			group.ephemeral = body.expiration;
			return { status: 201, body: { success: true } };
		},
		{ type: 'object', properties: { expiration: { type: 'number', enum: [0, 86400, 604800, 7776000] } }, required: ['expiration'] },
	),
	route('GET', 'inviteCode', (group) => ({ status: 200, body: { inviteUrl: `https://chat.whatsapp.com/${group.inviteCode}`, inviteCode: group.inviteCode } })),
	route('POST', 'revokeInviteCode', (group) => {
		group.inviteCode = inviteCode();
		return { status: 201, body: { revoked: true, inviteCode: group.inviteCode } };
	}),
	{
		method: 'POST',
		path: { v2: '/group/sendInvite/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: {
					groupJid: { type: 'string', minLength: 1 },
					description: { type: 'string', minLength: 1 },
					numbers: { ...participants, items: { ...participants.items, description: '"numbers" must be an array of numeric strings' } },
				},
				required: ['groupJid', 'description', 'numbers'],
			},
		},
		reply: (ctx) => {
			// This route reads the group from the body as given: no @g.us is added.
			const group = accountOf(ctx.inst).groups.get(ctx.body.groupJid);
			if (!group) return badRequest([`Group ${ctx.body.groupJid} not found`]);
			const link = `https://chat.whatsapp.com/${group.inviteCode}`;
			for (const number of ctx.body.numbers as string[]) {
				const sent = messageResult(`${number.replace(/\D/g, '')}@s.whatsapp.net`, { conversation: `${ctx.body.description}\n\n${link}` });
				ctx.out('text', sent.key.remoteJid, `${ctx.body.description} ${link}`, sent.key.id);
			}
			return { status: 200, body: { send: true, inviteUrl: link } };
		},
	},
	{
		method: 'DELETE',
		path: { v2: '/group/leaveGroup/{instance}' },
		reply: (ctx) =>
			withGroup(ctx, (group) => {
				accountOf(ctx.inst).groups.delete(group.id);
				return { status: 200, body: { groupJid: group.id, leave: true } };
			}),
	},
];
