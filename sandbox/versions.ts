/**
 * Which Evolution API release the sandbox plays: what `GET /` answers, the routes each release
 * serves (`RouteDef.since`), and the headers of its webhook deliveries; the licence gate of 2.4
 * is ./licence.ts. Facts from github.com/evolution-foundation/evolution-api at tags 2.3.6,
 * 2.3.7, 2.4.0-rc2 (README.md lists them with their source paths).
 */
import type { Instance } from './types';

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
