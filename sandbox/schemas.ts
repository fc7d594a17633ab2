/**
 * Building blocks of the request body schemas (the routes in ./routes/ put them together),
 * following the interface's documented bodies and, for the v2 dialect, the real servers' own
 * schemas (src/validate/*.schema.ts of github.com/EvolutionAPI/evolution-api, tag 2.3.6).
 * Error strings come from ./validate (jsonschema style).
 */
import type { Schema } from './validate';
import type { Dialect } from './types';
import { eventsOf } from './events';

export type { Dialect } from './types';
export { DOCUMENTED_EVENTS, V2_EVENTS, eventsOf } from './events';

export const PRESENCES = ['unavailable', 'available', 'composing', 'recording', 'paused'];

/**
 * `number`: digits with country code, optionally with `+`, spaces or dashes; or a JID
 * (`<digits>@s.whatsapp.net`, a group `<digits>[-<digits>]@g.us`, a contact's LID `<digits>@lid`).
 * Anything else: Invalid format.
 */
export const NUMBER_PATTERN = '^(\\+?[ -]*[0-9][0-9 -]*|[0-9]+(-[0-9]+)?@(s\\.whatsapp\\.net|g\\.us|lid))$';

export const str: Schema = { type: 'string' };
export const bool: Schema = { type: 'boolean' };
export const num: Schema = { type: 'number' };
export const numberField: Schema = { type: 'string', pattern: NUMBER_PATTERN, description: 'Invalid format' };
export const delayField: Schema = { type: 'integer', minimum: 0, description: 'Enter a value in milliseconds' };

export const messageKey = (required: string[]): Schema => ({
	type: 'object',
	properties: { remoteJid: str, fromMe: bool, id: str },
	required,
});

export const commonProperties: Record<string, Schema> = {
	number: numberField,
	delay: delayField,
	linkPreview: bool,
	mentionsEveryOne: bool,
	mentioned: {
		type: 'array',
		uniqueItems: true,
		items: { type: 'string', pattern: '^\\d+', description: '"mentioned" must be an array of numeric strings' },
	},
	quoted: {
		type: 'object',
		properties: {
			key: messageKey(['id']),
			message: { type: 'object', properties: { conversation: str } },
		},
		required: ['key'],
	},
};

export const sendBody = (own: Record<string, Schema>, required: string[]): Schema => ({
	type: 'object',
	properties: { ...own, ...commonProperties },
	required: ['number', ...required],
});

export const listSections: Schema = {
	type: 'array',
	minItems: 1,
	items: {
		type: 'object',
		properties: {
			title: str,
			rows: {
				type: 'array',
				minItems: 1,
				items: {
					type: 'object',
					properties: { title: str, description: str, rowId: str },
					required: ['title', 'description', 'rowId'],
				},
			},
		},
		required: ['title', 'rows'],
	},
};

const V2_BUTTON_TYPES = ['reply', 'copy', 'url', 'call', 'pix'];
export const v2ButtonNeeds: Record<string, string[]> = {
	reply: ['displayText', 'id'],
	copy: ['displayText', 'copyCode'],
	url: ['displayText', 'url'],
	call: ['displayText', 'phoneNumber'],
	pix: ['currency', 'name', 'keyType', 'key'],
};

/** v2 button: `type` required, and per type the fields that type needs. */
export const v2Button: Schema = {
	type: 'object',
	properties: {
		type: { type: 'string', enum: V2_BUTTON_TYPES },
		displayText: str,
		id: str,
		copyCode: str,
		url: str,
		phoneNumber: str,
		currency: str,
		name: str,
		keyType: { type: 'string', enum: ['phone', 'email', 'cpf', 'cnpj', 'random'] },
		key: str,
	},
	required: ['type'],
	when: V2_BUTTON_TYPES.map((t) => ({ test: (b: Record<string, unknown>) => b.type === t, then: { required: v2ButtonNeeds[t] } })),
};

export function webhookEvents(dialect: Dialect): Schema {
	return { type: 'array', minItems: 1, items: { type: 'string', enum: [...eventsOf(dialect)] } };
}

/** The same schema in both dialects. */
export function both(schema: Schema): Record<Dialect, Schema> {
	return { documented: schema, v2: schema };
}
