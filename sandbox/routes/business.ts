/**
 * WhatsApp Business catalogs on 2.3.7 / 2.4 (`business.router.ts`, its schema and the
 * Baileys service). One entry per route, like the other files of this folder.
 */
import { numberCheck } from '../messages';
import { num, str } from '../schemas';
import type { Reply, RouteContext, RouteDef } from '../types';
import { now } from './records';

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

export const businessRoutes: RouteDef[] = [
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
];
