/** /settings/* and /webhook/*: the instance's configuration. */
import { randomBytes } from 'crypto';
import type { Reply, RouteContext, RouteDef, StoredWebhook } from '../types';
import { isObject } from '../http';
import { both, bool, str, webhookEvents } from '../schemas';

export const settingsRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { documented: '/settings/set/{instance}', v2: '/settings/set/{instance}' },
		schema: both({
			type: 'object',
			properties: {
				rejectCall: bool,
				msgCall: str,
				groupsIgnore: bool,
				alwaysOnline: bool,
				readMessages: bool,
				readStatus: bool,
				syncFullHistory: bool,
			},
			required: ['rejectCall', 'msgCall', 'groupsIgnore', 'alwaysOnline', 'readMessages', 'readStatus', 'syncFullHistory'],
		}),
		reply: ({ inst, body, v2 }) => {
			inst.settings = { ...body };
			const settings = v2
				? body
				: {
						reject_call: body.rejectCall,
						groups_ignore: body.groupsIgnore,
						always_online: body.alwaysOnline,
						read_messages: body.readMessages,
						read_status: body.readStatus,
						sync_full_history: body.syncFullHistory,
					};
			return { status: 201, body: { settings: { instanceName: inst.name, settings } } };
		},
	},
	{
		method: 'POST',
		path: { documented: '/webhook/set/{instance}', v2: '/webhook/set/{instance}' },
		schema: {
			documented: {
				type: 'object',
				properties: { enabled: bool, url: str, webhookByEvents: bool, webhookBase64: bool, events: webhookEvents('documented') },
				required: ['enabled', 'url', 'webhookByEvents', 'webhookBase64', 'events'],
			},
			v2: {
				type: 'object',
				properties: {
					webhook: {
						type: 'object',
						properties: {
							enabled: bool,
							url: str,
							byEvents: bool,
							base64: bool,
							events: webhookEvents('v2'),
							headers: { type: 'object', additionalProperties: str },
						},
						required: ['enabled', 'url'],
						// a webhook switched on must say which events it wants
						when: [{ test: (w) => w.enabled === true, then: { required: ['events'] } }],
					},
				},
				required: ['webhook'],
			},
		},
		check: (body, dialect) => {
			const url: string = dialect === 'v2' ? body.webhook.url : body.url;
			try {
				const u = new URL(url);
				if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Invalid "url" property';
			} catch {
				return 'Invalid "url" property';
			}
			return undefined;
		},
		reply: setWebhook,
	},
	{
		method: 'GET',
		path: { v2: '/settings/find/{instance}' },
		reply: ({ inst }) => ({
			status: 200,
			body: {
				rejectCall: false,
				msgCall: '',
				groupsIgnore: false,
				alwaysOnline: false,
				readMessages: false,
				readStatus: false,
				syncFullHistory: false,
				...inst.settings,
				instanceId: inst.instanceId,
			},
		}),
	},
	{
		method: 'GET',
		path: { v2: '/webhook/find/{instance}' },
		reply: ({ inst }) => ({ status: 200, body: inst.webhook ? { ...inst.webhook } : null }),
	},
];

function setWebhook({ inst, body, v2 }: RouteContext): Reply {
	const w = v2 ? body.webhook : body;
	const now = new Date().toISOString();
	const stored: StoredWebhook = {
		id: inst.webhook?.id ?? 'wh' + randomBytes(11).toString('hex'),
		url: w.url,
		// the controller's upsert writes `headers: data.webhook?.headers`: left out, Prisma keeps the stored ones
		headers: v2 && isObject(w.headers) ? { ...(w.headers as Record<string, string>) } : v2 ? { ...(inst.webhook?.headers ?? {}) } : {},
		enabled: w.enabled,
		events: Array.isArray(w.events) ? [...w.events] : [],
		webhookByEvents: (v2 ? w.byEvents : w.webhookByEvents) ?? false,
		webhookBase64: (v2 ? w.base64 : w.webhookBase64) ?? false,
		createdAt: inst.webhook?.createdAt ?? now,
		updatedAt: now,
		instanceId: inst.instanceId,
	};
	inst.webhook = stored;
	if (v2) return { status: 201, body: { ...stored } };
	return { status: 201, body: { webhook: { instanceName: inst.name, webhook: { url: stored.url, events: stored.events, enabled: stored.enabled } } } };
}
