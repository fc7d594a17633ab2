/**
 * Meta message templates of Cloud API instances on 2.3.7 / 2.4 (`template.router.ts`,
 * `sendTemplate` of `sendMessage.router.ts`, their schemas, controllers and services). One
 * entry per route, like the other files of this folder.
 */
import { randomBytes } from 'crypto';
import { errorBody } from '../http';
import { messageResult, toJid } from '../messages';
import { bool, num, numberField, str } from '../schemas';
import type { Instance, Reply, RouteDef } from '../types';
import type { Schema } from '../validate';
import { sent } from './send';
import { notEmpty } from './profile';
import { cuid, now } from './records';

const CLOUD_API = 'WHATSAPP-BUSINESS';
const isCloudApi = (inst: Instance) => inst.integration === CLOUD_API;
const fbtrace = () => randomBytes(9).toString('base64').replace(/[^A-Za-z0-9]/g, 'x');

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

export const templateRoutes: RouteDef[] = [
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
];
