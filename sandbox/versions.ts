/**
 * Which Evolution API release the sandbox plays: what `GET /` answers, the routes each release
 * serves (`RouteDef.since`), and the headers of its webhook deliveries; the licence gate of 2.4
 * is ./licence.ts. Facts from github.com/evolution-foundation/evolution-api at tags 2.3.6,
 * 2.3.7, 2.4.0-rc2 (README.md lists them with their source paths).
 */
import type { Instance } from './types';
import type { Schema } from './validate';

export const SERVER_VERSIONS = ['2.3.6', '2.3.7', '2.4.0'] as const;
export type ServerVersion = (typeof SERVER_VERSIONS)[number];
export const DEFAULT_SERVER_VERSION: ServerVersion = '2.3.6';

export function isServerVersion(value: unknown): value is ServerVersion {
	return typeof value === 'string' && (SERVER_VERSIONS as readonly string[]).includes(value);
}

/** true when `version` is `min` or newer */
export function atLeast(version: ServerVersion, min: ServerVersion): boolean {
	return SERVER_VERSIONS.indexOf(version) >= SERVER_VERSIONS.indexOf(min);
}

/** The WhatsApp Web version the server reports (it asks WhatsApp at each call; the sandbox has a fixed one). */
const WHATSAPP_WEB_VERSION = '2.3000.1029496154';

/**
 * `GET /` as every release answers it (no key, never gated): the server's package version,
 * the manager's address on the request's host; then the sandbox's own `dialect` and chat page.
 */
export function rootAnswer(version: ServerVersion, requestHost: string, dialect: string, chatUrl: string): Record<string, unknown> {
	return {
		status: 200,
		message: 'Welcome to the Evolution API, it is working!',
		version,
		clientName: 'evolution_exchange',
		manager: `http://${requestHost}/manager`,
		documentation: 'https://doc.evolution-api.com',
		whatsappWebVersion: WHATSAPP_WEB_VERSION,
		dialect,
		chat: chatUrl,
	};
}

/**
 * The headers a delivery carries: 2.3.x the custom ones and `Content-Type`; 2.4 adds the
 * instance, the event, the time and its own User-Agent after the custom ones (so those and
 * `Content-Type` win over a custom header of the same name).
 */
export function deliveryHeaders(
	version: ServerVersion,
	custom: Record<string, string> | undefined,
	inst: Instance,
	event: string,
): Record<string, string> {
	const headers: Record<string, string> = { ...(custom ?? {}) };
	headers['Content-Type'] = 'application/json';
	if (!atLeast(version, '2.4.0')) return headers;
	headers['X-Instance-ID'] = inst.instanceId;
	headers['X-Instance-Name'] = inst.name;
	headers['X-Event-Type'] = event;
	headers['X-Timestamp'] = Date.now().toString();
	// 2.4.0-rc2 still names itself 2.3.7 here
	headers['User-Agent'] = 'EvolutionAPI-Webhook/2.3.7';
	return headers;
}

const BOOLEAN_FLAG: Schema = { type: 'boolean', enum: [true, false] };

/**
 * A route's v2 body schema as this release checks it. The sandbox's tables hold one schema per
 * dialect; what the releases changed in the existing routes is applied here:
 * - the mention-everyone flag: 2.3.x schemas check `everyOne`, 2.4 checks `mentionsEveryOne`
 *   (2.4's own sendCarousel still checks `everyOne`);
 * - sendMedia: 2.4 adds `gifPlayback` (a boolean or "true"/"false") and `gifAttribution` (0–2);
 * - Find Contacts: `where.remoteJid: ""` is refused from 2.3.7 on;
 * - webhook events: 2.4 adds MESSAGING_HISTORY_SET (before REMOVE_INSTANCE).
 */
export function schemaAt(version: ServerVersion, path: string, schema: Schema): Schema {
	const props = schema.properties;
	if (!props) return schema;
	const v24 = atLeast(version, '2.4.0');
	let out = schema;
	if ('mentionsEveryOne' in props) {
		const { mentionsEveryOne: _dropped, ...rest } = props;
		out = { ...out, properties: v24 ? { ...props, mentionsEveryOne: BOOLEAN_FLAG } : { ...rest, everyOne: BOOLEAN_FLAG } };
	}
	if (v24 && path.startsWith('/message/sendMedia/')) {
		out = {
			...out,
			properties: {
				...out.properties,
				gifPlayback: { oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] },
				gifAttribution: { oneOf: [{ type: 'integer', enum: [0, 1, 2] }, { type: 'string', enum: ['0', '1', '2'] }] },
			},
		};
	}
	// 2.3.7 added `where.remoteJid` (at least 1 character) to Find Contacts' schema; 2.3.6 takes "" (no filter)
	const where = props.where?.properties;
	if (!atLeast(version, '2.3.7') && path.startsWith('/chat/findContacts/') && where?.remoteJid) {
		const { remoteJid: _checked, ...others } = where;
		out = { ...out, properties: { ...out.properties, where: { ...props.where, properties: { ...others, remoteJid: { type: 'string' } } } } };
	}
	const webhook = props.webhook?.properties;
	if (v24 && path.startsWith('/webhook/set/') && webhook?.events?.items?.enum) {
		const events = webhook.events.items.enum.filter((e) => e !== 'MESSAGING_HISTORY_SET');
		events.splice(events.indexOf('REMOVE_INSTANCE'), 0, 'MESSAGING_HISTORY_SET');
		out = {
			...out,
			properties: {
				...out.properties,
				webhook: { ...props.webhook, properties: { ...webhook, events: { ...webhook.events, items: { ...webhook.events.items, enum: events } } } },
			},
		};
	}
	return out;
}
