/**
 * The event buses an instance's events can go to (tags 2.3.7 and 2.4.0-rc2:
 * src/api/integrations/event/<kind>/<kind>.router.ts, event.schema.ts, pusher.schema.ts,
 * event.controller.ts): `set` takes `{ <kind>: { enabled, events } }` (Pusher also its app's
 * credentials), `find` answers what was saved or null. One entry per route.
 */
import { randomBytes } from 'crypto';

import { errorBody } from '../http';
import type { Reply, RouteContext, RouteDef } from '../types';
import type { Schema } from '../validate';
import { atLeast } from '../versions';

/** EventController.events; 2.4 added MESSAGING_HISTORY_SET. */
const EVENTS_2_3 = [
	'APPLICATION_STARTUP',
	'QRCODE_UPDATED',
	'MESSAGES_SET',
	'MESSAGES_UPSERT',
	'MESSAGES_EDITED',
	'MESSAGES_UPDATE',
	'MESSAGES_DELETE',
	'SEND_MESSAGE',
	'SEND_MESSAGE_UPDATE',
	'CONTACTS_SET',
	'CONTACTS_UPSERT',
	'CONTACTS_UPDATE',
	'PRESENCE_UPDATE',
	'CHATS_SET',
	'CHATS_UPSERT',
	'CHATS_UPDATE',
	'CHATS_DELETE',
	'GROUPS_UPSERT',
	'GROUP_UPDATE',
	'GROUP_PARTICIPANTS_UPDATE',
	'CONNECTION_UPDATE',
	'LABELS_EDIT',
	'LABELS_ASSOCIATION',
	'CALL',
	'TYPEBOT_START',
	'TYPEBOT_CHANGE_STATUS',
	'REMOVE_INSTANCE',
	'LOGOUT_INSTANCE',
	'INSTANCE_CREATE',
	'INSTANCE_DELETE',
	'STATUS_INSTANCE',
];
const EVENTS_2_4 = [...EVENTS_2_3.slice(0, 26), 'MESSAGING_HISTORY_SET', ...EVENTS_2_3.slice(26)];

/** The buses that share eventSchema (Kafka's router uses it too, not its own kafkaSchema). */
const SHARED = ['websocket', 'rabbitmq', 'nats', 'sqs', 'kafka'];

const eventsField: Schema = { type: 'array', minItems: 0, items: { type: 'string', enum: EVENTS_2_4 } };
const event: Schema = { type: 'object', properties: { enabled: { type: 'boolean', enum: [true, false] }, events: eventsField }, required: ['enabled'] };

const eventSchema: Schema = { type: 'object', properties: Object.fromEntries(SHARED.map((kind) => [kind, event])) };

const PUSHER_REQUIRED = ['enabled', 'appId', 'key', 'secret', 'cluster', 'useTLS'];
const pusherSchema: Schema = {
	type: 'object',
	properties: {
		pusher: {
			type: 'object',
			properties: { enabled: { type: 'boolean' }, appId: { type: 'string' }, key: { type: 'string' }, secret: { type: 'string' }, cluster: { type: 'string' }, useTLS: { type: 'boolean' }, events: eventsField },
			required: PUSHER_REQUIRED,
			when: [
				{
					test: (b) => Object.keys(b).every((key) => PUSHER_REQUIRED.includes(key)),
					then: { properties: Object.fromEntries(PUSHER_REQUIRED.map((name) => [name, { minLength: 1, description: `The "${name}" cannot be empty` }])) },
				},
			],
		},
	},
	required: ['pusher'],
};

/** 2.3.x's enum lacks MESSAGING_HISTORY_SET: the schema's own message for it. */
function olderEvents(kind: string) {
	return (body: Record<string, Record<string, unknown>> | undefined, _dialect: unknown, version: Parameters<typeof atLeast>[0]): string | undefined => {
		if (atLeast(version, '2.4.0')) return undefined;
		const events = body?.[kind]?.events;
		if (!Array.isArray(events)) return undefined;
		const index = events.indexOf('MESSAGING_HISTORY_SET');
		return index === -1 ? undefined : `instance.${kind}.events[${index}] is not one of enum values: ${EVENTS_2_3.join(',')}`;
	};
}

function set(kind: string) {
	return (ctx: RouteContext): Reply => {
		const given = (ctx.body as Record<string, Record<string, unknown>>)[kind];
		// a body without the bus's own object passes the shared schema, then the controller reads undefined
		if (!given || typeof given !== 'object') return { status: 500, body: errorBody(500, `Cannot set properties of undefined (setting 'events')`) };
		if (given.enabled === true && !Array.isArray(given.events)) return { status: 500, body: errorBody(500, `Cannot read properties of undefined (reading 'length')`) };
		const events = given.enabled !== true ? [] : (given.events as string[]).length === 0 ? (atLeast(ctx.version, '2.4.0') ? EVENTS_2_4 : EVENTS_2_3) : given.events;
		const buses = (ctx.inst.eventBuses ??= {});
		const existing = buses[kind];
		const own = kind === 'pusher' ? { appId: given.appId, key: given.key, secret: given.secret, cluster: given.cluster, useTLS: given.useTLS } : {};
		const now = new Date().toISOString();
		const record = { id: (existing?.id as string | undefined) ?? `c${randomBytes(12).toString('hex')}`, enabled: given.enabled, events, ...own, createdAt: existing?.createdAt ?? now, updatedAt: now, instanceId: ctx.inst.instanceId };
		buses[kind] = record;
		return { status: 201, body: record };
	};
}

const KINDS = [...SHARED, 'pusher'];

export const eventRoutes: RouteDef[] = KINDS.flatMap((kind): RouteDef[] => [
	{
		method: 'POST',
		path: { v2: `/${kind}/set/{instance}` },
		schema: { v2: kind === 'pusher' ? pusherSchema : eventSchema },
		check: olderEvents(kind),
		// switched off in the environment, the controller returns nothing: an empty 201, nothing saved
		reply: (ctx) => (ctx.server.switchedOff(kind) ? { status: 201 } : set(kind)(ctx)),
	},
	{
		method: 'GET',
		path: { v2: `/${kind}/find/{instance}` },
		// nothing saved: null; switched off in the environment: an empty body (event.controller.ts `get`)
		reply: (ctx) => (ctx.server.switchedOff(kind) ? { status: 200 } : { status: 200, body: ctx.inst.eventBuses?.[kind] ?? null }),
	},
]);
