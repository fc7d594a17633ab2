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
			chatwoots.set(ctx.inst, data);
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
