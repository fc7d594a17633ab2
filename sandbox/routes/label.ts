/** /label/* of v2.x servers: the account's labels and which chats carry them. */
import { badRequest } from '../http';
import { toJid } from '../messages';
import type { RouteDef } from '../types';
import { accountOf } from './account';

export const labelRoutes: RouteDef[] = [
	{
		method: 'GET',
		path: { v2: '/label/findLabels/{instance}' },
		reply: (ctx) => ({ status: 200, body: [...accountOf(ctx.inst).labels.values()] }),
	},
	{
		method: 'POST',
		path: { v2: '/label/handleLabel/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: {
					number: { type: 'string', minLength: 1, description: 'Invalid format' },
					labelId: { type: 'string', minLength: 1 },
					action: { type: 'string', enum: ['add', 'remove'] },
				},
				required: ['number', 'labelId', 'action'],
			},
		},
		reply: (ctx) => {
			const account = accountOf(ctx.inst);
			if (!account.labels.has(ctx.body.labelId)) return badRequest([`Label ${ctx.body.labelId} not found`]);
			const jid = toJid(ctx.body.number);
			const labels = account.chatLabels.get(jid) ?? new Set<string>();
			if (ctx.body.action === 'add') labels.add(ctx.body.labelId);
			else labels.delete(ctx.body.labelId);
			account.chatLabels.set(jid, labels);
			return { status: 200, body: { numberJid: jid, labelId: ctx.body.labelId, [ctx.body.action]: true } };
		},
	},
];
