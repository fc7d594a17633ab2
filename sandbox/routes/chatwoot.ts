/**
 * The instance's Chatwoot inbox on 2.3.7 / 2.4 (`integrations/chatbot/chatwoot`: its routes,
 * schema and service). One entry per route, like the other files of this folder.
 */
import { bool, num, str } from '../schemas';
import type { Instance, RouteDef } from '../types';
import type { Schema } from '../validate';
import { notEmpty } from './profile';

const SERVER_URL = 'http://localhost:8080';
const chatwoots = new WeakMap<Instance, Record<string, unknown>>();
const webhookUrl = (inst: Instance) => `${SERVER_URL}/chatwoot/webhook/${encodeURIComponent(inst.name)}`;

const chatwootSchema: Schema = {
	type: 'object',
	properties: {
		enabled: bool,
		accountId: str,
		token: str,
		url: str,
		signMsg: bool,
		signDelimiter: { type: ['string', 'null'] },
		nameInbox: { type: ['string', 'null'] },
		reopenConversation: bool,
		conversationPending: bool,
		autoCreate: bool,
		importContacts: bool,
		mergeBrazilContacts: bool,
		importMessages: bool,
		daysLimitImportMessages: num,
		ignoreJids: { type: 'array', items: str },
	},
	required: ['enabled', 'accountId', 'token', 'url', 'signMsg', 'reopenConversation', 'conversationPending'],
	when: [notEmpty('enabled', 'accountId', 'token', 'url', 'signMsg', 'reopenConversation', 'conversationPending')],
};

/** The fields the service's `setChatwoot` writes; a field the body leaves out is undefined there. */
const STORED = [
	'enabled', 'accountId', 'token', 'url', 'nameInbox', 'signMsg', 'number', 'reopenConversation', 'conversationPending', 'mergeBrazilContacts',
	'importContacts', 'importMessages', 'daysLimitImportMessages', 'organization', 'logo', 'ignoreJids',
];

/**
 * `setChatwoot` (channel.service.ts): a new row takes the body; an existing one is updated
 * through Prisma, which leaves a field it gets as undefined unchanged. The delimiter is
 * `signMsg ? signDelimiter : null`.
 */
function upsert(existing: Record<string, unknown> | undefined, data: Record<string, unknown>): Record<string, unknown> {
	const row: Record<string, unknown> = { ...existing };
	for (const key of STORED) if (data[key] !== undefined || !existing) row[key] = data[key];
	const delimiter = data.signMsg ? data.signDelimiter : null;
	if (delimiter !== undefined || !existing) row.signDelimiter = delimiter;
	return row;
}

export const chatwootRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/chatwoot/set/{instance}' },
		schema: { v2: chatwootSchema },
		check: (body) => {
			if (body.enabled) {
				if (typeof body.url !== 'string' || !/^(https?:\/\/)?[^\s/?#]+(:\d+)?([/?#]\S*)?$/i.test(body.url)) return 'url is not valid';
				if (!body.accountId) return 'accountId is required';
				if (!body.token) return 'token is required';
			}
			return undefined;
		},
		reply: (ctx) => {
			const data: Record<string, unknown> = { ...ctx.body };
			if (data.enabled && data.signMsg === false) data.signDelimiter = null;
			if (!data.nameInbox) data.nameInbox = ctx.inst.name;
			chatwoots.set(ctx.inst, upsert(chatwoots.get(ctx.inst), data));
			// the controller answers what it was sent, not the stored row
			return { status: 201, body: { ...data, webhook_url: webhookUrl(ctx.inst) } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/chatwoot/find/{instance}' },
		reply: (ctx) => {
			const data = chatwoots.get(ctx.inst);
			if (!data) return { status: 200, body: { enabled: false, url: '', accountId: '', token: '', signMsg: false, nameInbox: '', webhook_url: '' } };
			return { status: 200, body: { ...data, webhook_url: webhookUrl(ctx.inst) } };
		},
	},
];
