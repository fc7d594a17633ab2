/**
 * The integrations of an instance on 2.3.7 / 2.4: its proxy, WhatsApp Business catalogs, Meta
 * message templates (Cloud API instances), the S3 media store and Chatwoot
 * (`proxy.router.ts`, `business.router.ts`, `template.router.ts`, `sendTemplate` of
 * `sendMessage.router.ts`, `integrations/storage/s3`, `integrations/chatbot/chatwoot`, with
 * their schemas, controllers and services). One entry each, like the other files of this folder.
 */
import { createHash, randomBytes } from 'crypto';
import { badRequest, errorBody } from '../http';
import { messageResult, numberCheck, toJid } from '../messages';
import { bool, num, numberField, str } from '../schemas';
import type { Instance, Reply, RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { sent } from './send';
import { notEmpty } from './profile';

const CLOUD_API = 'WHATSAPP-BUSINESS';
const isCloudApi = (inst: Instance) => inst.integration === CLOUD_API;
const now = () => new Date().toISOString();
const cuid = (...parts: string[]) => `cm${createHash('sha1').update(parts.join('|')).digest('hex').slice(0, 23)}`;
const fbtrace = () => randomBytes(9).toString('base64').replace(/[^A-Za-z0-9]/g, 'x');

// ------------------------------------------------------------------------------------ proxy

interface ProxyRecord extends Record<string, unknown> {
	enabled: boolean;
	host: string;
	port: string;
	protocol: string;
	username: string;
	password: string;
}
const proxies = new WeakMap<Instance, ProxyRecord & { id: string; createdAt: string; updatedAt: string; instanceId: string }>();

/** The protocols the server's proxy agent knows; any other fails its test of the proxy. */
const PROXY_PROTOCOLS = ['http', 'socks', 'socks5'];

// ---------------------------------------------------------------------------- business

const PRODUCTS = Array.from({ length: 12 }, (_, n) => ({
	id: String(7000000000000000 + n),
	name: `Product ${n + 1}`,
	description: `Sandbox product number ${n + 1}`,
	price: 1000 * (n + 1),
	currency: 'BRL',
	isHidden: false,
	availability: 'in stock',
	url: `https://example.com/p/${n + 1}`,
	retailerId: `SKU-${n + 1}`,
	imageUrls: { requested: `https://example.com/p/${n + 1}.jpg`, original: `https://example.com/p/${n + 1}.jpg` },
}));
const COLLECTIONS = [
	{ id: '8000000000000001', name: 'Summer', products: PRODUCTS.slice(0, 4), status: { status: 'APPROVED', canAppeal: false } },
	{ id: '8000000000000002', name: 'Winter', products: PRODUCTS.slice(4, 8), status: { status: 'APPROVED', canAppeal: false } },
	{ id: '8000000000000003', name: 'Sale', products: PRODUCTS.slice(8), status: { status: 'APPROVED', canAppeal: false } },
];

/** Which account a catalog route reads: the instance's own (no number), or a number that must be on WhatsApp. */
function catalogOwner(ctx: RouteContext): { jid: string; own: boolean } | Reply {
	const number = typeof ctx.body.number === 'string' && ctx.body.number !== '' ? ctx.body.number : undefined;
	if (number === undefined) return { jid: ctx.inst.jid, own: true };
	const check = numberCheck(number);
	if (!check.exists) {
		// BadRequestException(onWhatsapp) caught by the router's createMetaErrorResponse
		return {
			status: 400,
			body: {
				status: 400,
				error: 'Bad Request',
				message: [check],
				details: { whatsapp_error: [check], whatsapp_code: 'UNKNOWN_ERROR', error_user_title: [check], error_user_msg: [check], error_type: 'UNKNOWN', error_subcode: null, fbtrace_id: null, context: 'business_catalog', type: 'whatsapp_api_error' },
				timestamp: now(),
			},
		};
	}
	return { jid: check.jid, own: check.jid === ctx.inst.jid };
}

// ---------------------------------------------------------------------------- templates

interface Template extends Record<string, unknown> {
	id: string;
	name: string;
	language: string;
	status: string;
	category: string;
	components: unknown[];
}
const templates = new WeakMap<Instance, Template[]>();
const templatesOf = (inst: Instance) => {
	let list = templates.get(inst);
	if (!list) {
		list = [
			{
				id: '1000000000000001',
				name: 'hello_world',
				language: 'en_US',
				status: 'APPROVED',
				category: 'UTILITY',
				components: [{ type: 'BODY', text: 'Hello {{1}}, welcome!', example: { body_text: [['Ana']] } }],
			},
		];
		templates.set(inst, list);
	}
	return list;
};

/** Meta's error object, as the service hands it on. */
function metaError(message: string, code: number, subcode?: number, userTitle?: string): Record<string, unknown> {
	return {
		message,
		type: 'OAuthException',
		code,
		...(subcode !== undefined ? { error_subcode: subcode } : {}),
		...(userTitle ? { error_user_title: userTitle, error_user_msg: message } : {}),
		fbtrace_id: fbtrace(),
	};
}

/** A Meta error as the template routes answer it (createMetaErrorResponse): 400 with Meta's text. */
function templateError(error: Record<string, unknown>, context: string): Reply {
	const title = (error.error_user_title ?? error.message) as string;
	const userMsg = (error.error_user_msg ?? error.message) as string;
	return {
		status: 400,
		body: {
			status: 400,
			error: 'Bad Request',
			message: title,
			details: {
				whatsapp_error: userMsg,
				whatsapp_code: error.code ?? 'UNKNOWN_ERROR',
				error_user_title: title,
				error_user_msg: userMsg,
				error_type: error.type ?? 'UNKNOWN',
				error_subcode: error.error_subcode ?? null,
				fbtrace_id: error.fbtrace_id ?? null,
				context,
				type: 'whatsapp_api_error',
			},
			timestamp: now(),
		},
	};
}

/** What Meta answers a Baileys instance's request: it has no business ID, so the path names `undefined`. */
const NO_BUSINESS_ID = () => metaError("Unsupported request - method type: get. Object with ID 'undefined' does not exist, cannot be loaded due to missing permissions, or does not support this operation", 100, 33);

const CATEGORY: Schema = { type: 'string', enum: ['AUTHENTICATION', 'MARKETING', 'UTILITY'] };

// ---------------------------------------------------------------------------- S3 media

/** The S3 record of a stored file: every instance's (the route does not limit by instance). */
function mediaRecords(ctx: RouteContext): Array<Record<string, unknown>> {
	return ctx.media.all().map((m) => {
		const extension = m.mimetype.split('/')[1]?.split(';')[0] ?? 'bin';
		return {
			id: cuid('media', m.instance, m.messageId),
			fileName: `${m.instance}/${m.mediaType}/${m.messageId}.${extension}`,
			type: m.mediaType,
			mimetype: m.mimetype,
			createdAt: now(),
			Message: { key: { id: m.messageId, fromMe: !m.incoming }, messageType: m.mediaType },
		};
	});
}

// ---------------------------------------------------------------------------- Chatwoot

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

export const integrationRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/proxy/set/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { enabled: bool, host: str, port: str, protocol: str, username: str, password: str },
				required: ['enabled', 'host', 'port', 'protocol'],
				when: [notEmpty('enabled', 'host', 'port', 'protocol')],
			},
		},
		reply: (ctx) => {
			const data = { ...ctx.body } as ProxyRecord;
			if (!data.enabled) Object.assign(data, { host: '', port: '', protocol: '', username: '', password: '' });
			// the controller tests the proxy through icanhazip.com; the sandbox fails the protocols the agent cannot make
			if (data.host && !PROXY_PROTOCOLS.includes(data.protocol)) return badRequest(['Invalid proxy']);
			// a record is saved only with a user name and a password (both may be ""); the answer is 201 either way
			if (typeof data.username === 'string' && typeof data.password === 'string') {
				const known = proxies.get(ctx.inst);
				proxies.set(ctx.inst, {
					id: known?.id ?? cuid('proxy', ctx.inst.instanceId),
					enabled: data.enabled === true,
					host: data.host,
					port: data.port,
					protocol: data.protocol,
					username: data.username,
					password: data.password,
					createdAt: known?.createdAt ?? now(),
					updatedAt: now(),
					instanceId: ctx.inst.instanceId,
				});
			}
			return { status: 201, body: { proxy: { instanceName: ctx.inst.name, proxy: data } } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/proxy/find/{instance}' },
		reply: (ctx) => ({ status: 200, body: proxies.get(ctx.inst) ?? null }),
	},
	{
		method: 'POST',
		path: { v2: '/business/getCatalog/{instance}' },
		schema: { v2: { type: 'object', properties: { number: str, limit: num } } },
		reply: (ctx) => {
			const owner = catalogOwner(ctx);
			if ('status' in owner) return owner;
			if (!owner.own) return { status: 200, body: { wuid: owner.jid, name: null, isBusiness: false } };
			// pages of `limit` (default 10), at most five of them
			const limit = Number(ctx.body.limit) || 10;
			const catalog = PRODUCTS.slice(0, limit * 5);
			return { status: 200, body: { wuid: owner.jid, numberExists: true, isBusiness: true, catalogLength: catalog.length, catalog } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/business/getCollections/{instance}' },
		schema: { v2: { type: 'object', properties: { number: str, limit: num } } },
		reply: (ctx) => {
			const owner = catalogOwner(ctx);
			if ('status' in owner) return owner;
			if (!owner.own) return { status: 200, body: { wuid: owner.jid, name: null, isBusiness: false } };
			// `data.limit <= 20 ? data.limit : 20`: no limit reads 20
			const limit = typeof ctx.body.limit === 'number' && ctx.body.limit <= 20 ? ctx.body.limit : 20;
			const collections = COLLECTIONS.slice(0, limit);
			return { status: 200, body: { wuid: owner.jid, name: ctx.inst.name, numberExists: true, isBusiness: true, collectionsLength: collections.length, collections } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/template/create/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { name: str, category: CATEGORY, allowCategoryChange: bool, language: str, components: { type: 'array' }, webhookUrl: str },
				required: ['name', 'category', 'language', 'components'],
				when: [notEmpty('name', 'category', 'language', 'components')],
			},
		},
		reply: (ctx) => {
			if (!isCloudApi(ctx.inst)) return templateError(NO_BUSINESS_ID(), 'template_creation');
			const list = templatesOf(ctx.inst);
			const { name, language, category, components } = ctx.body;
			if (list.some((t) => t.name === name && t.language === language)) {
				return templateError(metaError(`Content in this language already exists for ${name}`, 100, 2388024, 'Message template language is being deleted or already exists'), 'template_creation');
			}
			const id = String(1000000000000000 + list.length + 1);
			// Meta reviews a new template; the sandbox approves it at once
			list.push({ id, name, language, status: 'APPROVED', category, components });
			const response = { id, status: 'PENDING', category };
			const at = now();
			return {
				status: 201,
				body: { id: cuid('template', id), templateId: id, name, template: response, webhookUrl: ctx.body.webhookUrl ?? null, instanceId: ctx.inst.instanceId, createdAt: at, updatedAt: at },
			};
		},
	},
	{
		method: 'GET',
		path: { v2: '/template/find/{instance}' },
		reply: (ctx) => {
			// Meta's refusal leaves `response.data` undefined: Express answers 200 with an empty body
			if (!isCloudApi(ctx.inst)) return { status: 200 };
			return { status: 200, body: templatesOf(ctx.inst).map((t) => ({ ...t })) };
		},
	},
	{
		method: 'POST',
		path: { v2: '/template/edit/{instance}' },
		since: '2.3.7',
		schema: {
			v2: {
				type: 'object',
				properties: { templateId: str, category: CATEGORY, allowCategoryChange: bool, ttl: num, components: { type: 'array' } },
				required: ['templateId'],
				when: [notEmpty('templateId')],
			},
		},
		reply: (ctx) => {
			if (!isCloudApi(ctx.inst)) return templateError(NO_BUSINESS_ID(), 'template_edit');
			const template = templatesOf(ctx.inst).find((t) => t.id === ctx.body.templateId);
			if (!template) return templateError(metaError(`Unsupported post request. Object with ID '${String(ctx.body.templateId)}' does not exist`, 100, 33), 'template_edit');
			if (typeof ctx.body.category === 'string') template.category = ctx.body.category;
			if (Array.isArray(ctx.body.components)) template.components = ctx.body.components;
			return { status: 200, body: { success: true } };
		},
	},
	{
		method: 'DELETE',
		path: { v2: '/template/delete/{instance}' },
		since: '2.3.7',
		schema: { v2: { type: 'object', properties: { name: str, hsmId: str }, required: ['name'], when: [notEmpty('name')] } },
		reply: (ctx) => {
			if (!isCloudApi(ctx.inst)) return templateError(NO_BUSINESS_ID(), 'template_delete');
			const list = templatesOf(ctx.inst);
			const doomed = list.filter((t) => t.name === ctx.body.name && (ctx.body.hsmId === undefined || t.id === ctx.body.hsmId));
			if (doomed.length === 0) return templateError(metaError(`Message template "${String(ctx.body.name)}" was not found`, 100, 2593002, 'Message template not found'), 'template_delete');
			templates.set(ctx.inst, list.filter((t) => !doomed.includes(t)));
			return { status: 200, body: { success: true } };
		},
	},
	{
		method: 'POST',
		path: { v2: '/message/sendTemplate/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { number: numberField, name: str, language: str, components: { type: 'array' }, webhookUrl: str },
				required: ['name', 'language'],
			},
		},
		reply: (ctx) => {
			// the Baileys service has no template send: `throw new Error(...)`, a plain 500
			if (!isCloudApi(ctx.inst)) return { status: 500, body: errorBody(500, 'Method not available in the Baileys service') };
			const { name, language } = ctx.body;
			const template = templatesOf(ctx.inst).find((t) => t.name === name && t.language === language);
			if (!template || template.status !== 'APPROVED') {
				// Meta's refusal comes back as a 201 carrying Meta's error object
				return {
					status: 201,
					body: {
						...metaError(`(#132001) Template name does not exist in the translation`, 132001),
						error_data: { messaging_product: 'whatsapp', details: `template name (${String(name)}) does not exist in ${String(language)}` },
					},
				};
			}
			const result = messageResult(toJid(ctx.body.number), { templateMessage: { name, language, components: ctx.body.components ?? [] } });
			return sent(ctx, 'text', `[template ${String(name)}]`, result);
		},
	},
	{
		method: 'POST',
		path: { v2: '/s3/getMedia/{instance}' },
		schema: {
			v2: { type: 'object', properties: { id: str, type: str, messageId: { type: 'integer' } }, when: [notEmpty('id', 'type', 'messageId')] },
		},
		reply: (ctx) => {
			const { id, type, messageId } = ctx.body as { id?: string; type?: string; messageId?: number };
			const found = mediaRecords(ctx).filter((m) => (id === undefined || m.id === id) && (type === undefined || m.type === type) && messageId === undefined);
			if (found.length === 0) return badRequest(['Media not found']);
			return { status: 201, body: found };
		},
	},
	{
		method: 'POST',
		path: { v2: '/s3/getMediaUrl/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { id: { type: 'string', pattern: '\\d+', minLength: 1 }, expiry: { type: 'string', pattern: '\\d+', minLength: 1 } },
				required: ['id'],
				when: [notEmpty('id')],
			},
		},
		reply: (ctx) => {
			const media = mediaRecords(ctx).find((m) => m.id === ctx.body.id);
			if (!media) return badRequest(['Media not found']);
			const expiry = ctx.body.expiry ?? '604800';
			const signature = createHash('sha256').update(`${String(media.fileName)}|${expiry}`).digest('hex');
			const mediaUrl = `https://s3.sandbox.invalid/evolution/${String(media.fileName)}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=${expiry}&X-Amz-Signature=${signature}`;
			return { status: 200, body: { mediaUrl, ...media } };
		},
	},
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
