import { ALL_EVENTS, webhookBody } from '../../../shared/dialect';
import { eventOptions } from '../../../shared/events';
import { hasVersionedEvent } from '../../../shared/serverVersion';
import { ROUTES } from '../../../shared/routes';
import { quoted } from '../normalise';
import type { Operation } from '../types';

export const setWebhook: Operation = {
	resource: 'webhook',
	value: 'set',
	name: 'Set',
	action: 'Set the instance webhook',
	update: { rule: 'sendOnlyWhatIsSet' },
	description: 'Register the address that receives the instance\'s events (replaces the current one)',
	properties: [
		{
			displayName: 'Enabled',
			name: 'enabled',
			type: 'boolean',
			default: true,
			description: 'Whether the server delivers events to the URL',
		},
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://n8n.example.com/webhook/…',
			description: 'Address that receives the events. To start a workflow on events, use the Messaging Instance Trigger node instead: it registers itself.',
		},
		{
			displayName: 'Webhook by Events',
			name: 'webhookByEvents',
			type: 'boolean',
			default: false,
			description: 'Whether each event goes to its own path: the URL plus the event in kebab case, e.g. /messages-upsert',
		},
		{
			displayName: 'Media in Base64',
			name: 'webhookBase64',
			type: 'boolean',
			default: false,
			description: 'Whether media files arrive inside the event, base64-encoded',
		},
		{
			displayName: 'Events',
			name: 'events',
			type: 'multiOptions',
			options: eventOptions(ALL_EVENTS),
			default: ['MESSAGES_UPSERT'],
			required: true,
			description: 'Events to deliver. Names marked v2 or documented exist only in that dialect.',
		},
	],
	...ROUTES.setWebhook,
	needsServerVersion: (params) => hasVersionedEvent(params.raw<unknown>('events', [])),
	buildBody: (params, dialect) => {
		const url = params.text('url').trim();
		if (!/^https?:\/\/[^\s/]+/i.test(url)) params.fail(params.label('url'), `must be an http(s) address, not ${quoted(url)}`);
		const chosen = params.raw<unknown>('events', []);
		if (!Array.isArray(chosen) || chosen.length === 0) return params.fail(params.label('events'), 'needs at least one event');
		if (!chosen.every((event) => typeof event === 'string')) return params.fail(params.label('events'), 'must be a list of event names');
		const events = chosen as string[];
		const unknown = events.filter((event) => !dialect.events.has(event));
		if (unknown.length > 0) {
			const named = unknown.slice(0, 5).map((event) => (event.length > 40 ? quoted(event) : event));
			const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
			params.fail(params.label('events'), `${named.join(', ')}${more} not accepted by a ${dialect.label} server`);
		}
		return webhookBody(dialect, {
			enabled: params.flag('enabled'),
			url,
			webhookByEvents: params.flag('webhookByEvents'),
			webhookBase64: params.flag('webhookBase64'),
			events,
		});
	},
};
