/** /chat/*: archive, numbers check, edit, presence. */
import type { RouteDef } from '../types';
import { numberCheck, toJid } from '../messages';
import { NUMBER_PATTERN, PRESENCES, both, bool, delayField, messageKey, numberField, str } from '../schemas';

export const chatRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { documented: '/chat/archiveChat/{instance}', v2: '/chat/archiveChat/{instance}' },
		schema: both({
			type: 'object',
			properties: {
				lastMessage: { type: 'object', properties: { key: messageKey(['id', 'fromMe', 'remoteJid']) }, required: ['key'] },
				archive: bool,
				chat: { type: 'string', minLength: 1 },
			},
			required: ['lastMessage', 'archive', 'chat'],
		}),
		reply: (ctx) => {
			ctx.out('archive', toJid(ctx.body.chat), ctx.body.archive ? 'chat archived' : 'chat unarchived');
			return { status: 201, body: { chatId: ctx.body.chat, archived: ctx.body.archive } };
		},
	},
	{
		method: 'POST',
		path: { documented: '/chat/messagingNumbers/{instance}', v2: '/chat/whatsappNumbers/{instance}' },
		schema: {
			documented: numbersSchema(false),
			v2: numbersSchema(true),
		},
		// the real handler answers the validation exception as thrown (no `response` wrapper)
		validationShape: 'thrown',
		reply: (ctx) => ({ status: 200, body: (ctx.body.numbers as string[]).map((n) => numberCheck(n)) }),
	},
	{
		method: 'POST',
		path: { documented: '/chat/updateMessage/{instance}', v2: '/chat/updateMessage/{instance}' },
		schema: {
			documented: updateSchema({ type: 'integer', minimum: 1, description: 'Invalid format' }),
			v2: updateSchema(numberField),
		},
		check: (body) => (body.text.trim() === '' ? 'Text is required' : undefined),
		delayOf: (body) => body.delay,
		reply: (ctx) => {
			ctx.out('edit', ctx.body.key.remoteJid, `edited ${ctx.body.key.id}: ${ctx.body.text}`, ctx.body.key.id);
			return { status: 200 };
		},
	},
	{
		method: 'POST',
		path: { documented: '/chat/sendPresence/{instance}', v2: '/chat/sendPresence/{instance}' },
		schema: {
			documented: {
				type: 'object',
				properties: {
					number: numberField,
					options: {
						type: 'object',
						properties: { delay: delayField, presence: { type: 'string', enum: PRESENCES }, number: numberField },
						required: ['delay', 'presence', 'number'],
					},
				},
				required: ['number', 'options'],
			},
			v2: {
				type: 'object',
				properties: { number: numberField, presence: { type: 'string', enum: PRESENCES }, delay: delayField },
				required: ['number', 'presence', 'delay'],
			},
		},
		needsAccount: true,
		delayOf: (body, dialect) => (dialect === 'v2' ? body.delay : body.options.delay),
		reply: (ctx) => {
			const { body } = ctx;
			const presence = ctx.v2 ? body.presence : body.options.presence;
			const delay = ctx.v2 ? body.delay : body.options.delay;
			ctx.out('presence', toJid(body.number), `${presence} (${delay} ms)`);
			return { status: 201 };
		},
	},
];

function numbersSchema(v2: boolean): import('../validate').Schema {
	return {
		type: 'object',
		properties: {
			// v2.3.x refuses a number given twice ("numbers contains duplicate item")
			numbers: { type: 'array', ...(v2 ? { uniqueItems: true } : {}), items: { type: 'string', pattern: NUMBER_PATTERN, description: 'Invalid format' } },
		},
		required: ['numbers'],
	};
}

function updateSchema(number: import('../validate').Schema): import('../validate').Schema {
	return {
		type: 'object',
		properties: { number, text: str, key: messageKey(['id', 'fromMe', 'remoteJid']) },
		required: ['number', 'text', 'key'],
	};
}
