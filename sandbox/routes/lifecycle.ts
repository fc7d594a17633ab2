/**
 * /instance/* of v2.x servers: create, connect (QR code and pairing code), state, restart,
 * presence, log out, delete — answered as v2.3.6's instance controller answers them,
 * including its HTTP 200 `{error: true}` for failed connects and restarts.
 */
import { atLeast } from '../versions';
import { newAccount, startConnecting } from '../accounts';
import { badRequest, notFound } from '../http';
import type { RouteContext, RouteDef } from '../types';
import { accountOf } from './account';

const INTEGRATIONS = ['WHATSAPP-BAILEYS', 'WHATSAPP-BUSINESS', 'EVOLUTION'];

function state(ctx: RouteContext) {
	return { instance: { instanceName: ctx.inst.name, state: accountOf(ctx.inst).state } };
}

/** Connecting as the controller does: open answers the state, connecting the code, close starts over. */
function connect(ctx: RouteContext, number?: string) {
	const account = accountOf(ctx.inst);
	if (account.state === 'open') return state(ctx);
	const qr = account.state === 'connecting' && account.qr ? account.qr : startConnecting(account, number);
	ctx.emit('qrcode.updated', { qrcode: { instance: ctx.inst.name, pairingCode: qr.pairingCode, code: qr.code, base64: qr.base64 } });
	return qr;
}

export const lifecycleRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/instance/create' },
		schema: {
			v2: {
				type: 'object',
				properties: {
					instanceName: { type: 'string' },
					token: { type: 'string' },
					number: { type: 'string', pattern: '^\\d+[\\.@\\w-]+' },
					qrcode: { type: 'boolean' },
					integration: { type: 'string', enum: INTEGRATIONS },
				},
			},
		},
		check: (body) => {
			if (typeof body.instanceName !== 'string' || body.instanceName.trim() === '') return 'instanceName is required';
			if (body.integration !== undefined && !INTEGRATIONS.includes(body.integration)) return 'Invalid integration';
			return undefined;
		},
		reply: (ctx) => {
			const { body } = ctx;
			if (ctx.instances().some((inst) => inst.name === body.instanceName)) {
				return { status: 403, body: { status: 403, error: 'Forbidden', response: { message: [`This name "${body.instanceName}" is already in use.`] } } };
			}
			const inst = ctx.server.addInstance(body.instanceName, typeof body.token === 'string' && body.token !== '' ? body.token : undefined, body.integration);
			inst.account = newAccount('close');
			const qr = body.qrcode === true ? startConnecting(inst.account, body.number) : undefined;
			return {
				status: 201,
				body: {
					instance: { instanceName: inst.name, instanceId: inst.instanceId, integration: body.integration ?? 'WHATSAPP-BAILEYS', status: inst.account.state },
					hash: inst.token,
					webhook: { webhookUrl: body.webhook?.url, webhookByEvents: body.webhook?.byEvents, webhookBase64: body.webhook?.base64 },
					settings: { rejectCall: body.rejectCall ?? false, groupsIgnore: body.groupsIgnore ?? false, alwaysOnline: body.alwaysOnline ?? false },
					...(qr ? { qrcode: qr } : {}),
				},
			};
		},
	},
	{
		method: 'GET',
		path: { v2: '/instance/connect/{instance}' },
		reply: (ctx) => ({ status: 200, body: connect(ctx, ctx.query.number) }),
	},
	{
		method: 'GET',
		path: { v2: '/instance/connectionState/{instance}' },
		reply: (ctx) => ({ status: 200, body: state(ctx) }),
	},
	{
		method: 'POST',
		path: { v2: '/instance/restart/{instance}' },
		reply: (ctx) => {
			const account = accountOf(ctx.inst);
			if (account.state === 'close') {
				return { status: 200, body: { error: true, message: `BadRequestException: The "${ctx.inst.name}" instance is not connected` } };
			}
			account.state = 'close';
			return { status: 200, body: connect(ctx) };
		},
	},
	{
		method: 'POST',
		path: { v2: '/instance/setPresence/{instance}' },
		schema: { v2: { type: 'object', properties: { presence: { type: 'string', enum: ['unavailable', 'available', 'composing', 'recording', 'paused'] } }, required: ['presence'] } },
		reply: (ctx) => {
			accountOf(ctx.inst).presence = ctx.body.presence === 'unavailable' ? 'unavailable' : 'available';
			return { status: 201, body: { presence: ctx.body.presence } };
		},
	},
	{
		method: 'DELETE',
		path: { v2: '/instance/logout/{instance}' },
		reply: (ctx) => {
			const account = accountOf(ctx.inst);
			if (account.state === 'close') {
				// 2.4 logs out idempotently: an instance already closed is a success
				if (atLeast(ctx.version, '2.4.0')) return { status: 200, body: { status: 'SUCCESS', error: false, response: { message: 'Instance was already disconnected' } } };
				return badRequest([`The "${ctx.inst.name}" instance is not connected`]);
			}
			account.state = 'close';
			account.qr = undefined;
			ctx.emit('connection.update', { instance: ctx.inst.name, state: 'close', statusReason: 401 });
			return { status: 200, body: { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } } };
		},
	},
	{
		method: 'DELETE',
		path: { v2: '/instance/delete/{instance}' },
		reply: (ctx) => {
			if (!ctx.instances().includes(ctx.inst)) return notFound(`The "${ctx.inst.name}" instance does not exist`);
			ctx.emit('instance.delete', { instanceName: ctx.inst.name, instanceId: ctx.inst.instanceId });
			ctx.server.removeInstance(ctx.inst.name);
			return { status: 200, body: { status: 'SUCCESS', error: false, response: { message: 'Instance deleted' } } };
		},
	},
];
