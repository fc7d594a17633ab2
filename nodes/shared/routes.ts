import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { DialectName } from './dialect';

/**
 * The routes more than one part of the package calls (an operation and a picker, the trigger
 * or the credential test), each with how its answer is read: one place to change when a
 * server moves a route or reshapes an answer.
 */

/** A route of the interface: method, path without the instance, and whether an instance ends the path. */
export interface Route {
	readonly method: IHttpRequestMethods;
	readonly path: string;
	/** `server` for routes of the whole server: no instance in the path. */
	readonly scope: 'instance' | 'server';
}

export const ROUTES = {
	/** The server's instances (only the key's own with an instance token); v2.x servers. */
	listInstances: { method: 'GET', path: '/instance/fetchInstances', scope: 'server' },
	/** The instance's groups; the query `getParticipants` ("true"/"false") is required. */
	listGroups: { method: 'GET', path: '/group/fetchAllGroups', scope: 'instance' },
	/** The account's labels. */
	listLabels: { method: 'GET', path: '/label/findLabels', scope: 'instance' },
	/** Replaces the instance's webhook; the body's shape is the dialect's (`webhookBody`). */
	setWebhook: { method: 'POST', path: '/webhook/set', scope: 'instance' },
	/** The instance's webhook as stored (v2.x servers); read with `readWebhook`. */
	findWebhook: { method: 'GET', path: '/webhook/find', scope: 'instance' },
	/** The OpenAI credentials stored on the instance (each with its API key: redact the answer). */
	listOpenAiCredentials: { method: 'GET', path: '/openai/creds', scope: 'instance' },
	/** The models an OpenAI credential may use (`?openaiCredsId=`; none: the OpenAI settings' credential). */
	listOpenAiModels: { method: 'GET', path: '/openai/getModels', scope: 'instance' },
	/** The message templates of a Cloud API instance, as Meta lists them (its first page). */
	listTemplates: { method: 'GET', path: '/template/find', scope: 'instance' },
} as const satisfies Record<string, Route>;

/** The bots of one chatbot platform on the instance (`kind`: the platform's route prefix, e.g. `typebot`). */
export function chatbotListRoute(kind: string): Route {
	return { method: 'GET', path: `/${kind}/find`, scope: 'instance' };
}

/** Check Numbers, whose path differs by dialect; the credential test uses the documented one. */
export const CHECK_NUMBERS_PATH: Readonly<Record<DialectName, string>> = {
	documented: '/chat/messagingNumbers',
	v2: '/chat/whatsappNumbers',
};

/** The records of a list answer: its entries that are objects (anything else is skipped). */
export function recordsOf(answer: unknown): IDataObject[] {
	return Array.isArray(answer) ? answer.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object' && !Array.isArray(entry)) : [];
}

/** The webhook an instance has, as the find route answers it. */
export interface FoundWebhook extends IDataObject {
	enabled: boolean;
	url: string;
	events: string[];
	base64: boolean;
	byEvents: boolean;
	headers: Record<string, string>;
}

/** A value as text; an object as its JSON (its own `toString` is never called). */
function textOf(value: unknown): string {
	return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The find route's answer; null when the instance has no webhook (no object, or no URL). */
export function readWebhook(answer: unknown): FoundWebhook | null {
	if (!answer || typeof answer !== 'object') return null;
	const record = answer as IDataObject;
	if (typeof record.url !== 'string' || record.url === '') return null;
	const headers: Record<string, string> = {};
	if (record.headers && typeof record.headers === 'object') {
		for (const [key, value] of Object.entries(record.headers as IDataObject)) headers[key] = textOf(value);
	}
	return {
		enabled: record.enabled === true,
		url: record.url,
		events: Array.isArray(record.events) ? record.events.map(textOf) : [],
		base64: record.webhookBase64 === true,
		byEvents: record.webhookByEvents === true,
		headers,
	};
}

/** The integration a Cloud API (Meta) instance has; Baileys is `WHATSAPP-BAILEYS`, Evolution's channel `EVOLUTION`. */
export const CLOUD_API_INTEGRATION = 'WHATSAPP-BUSINESS';

/** The integration of the named instance in a list of instances; undefined when the list does not say. */
export function integrationIn(answer: unknown, instance: string): string | undefined {
	const record = recordsOf(answer).find((entry) => entry.name === instance || entry.instanceName === instance);
	return typeof record?.integration === 'string' && record.integration !== '' ? record.integration : undefined;
}

/** The templates of a template list answer: Meta's records (the server answers an empty body when Meta refuses). */
export function templatesIn(answer: unknown): IDataObject[] | undefined {
	if (Array.isArray(answer)) return recordsOf(answer);
	if (answer && typeof answer === 'object' && Array.isArray((answer as IDataObject).data)) return recordsOf((answer as IDataObject).data);
	return undefined;
}
