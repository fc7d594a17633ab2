/**
 * The chatbot platforms the server hosts (tags 2.3.7 and 2.4.0-rc2:
 * src/api/integrations/chatbot/<platform>/routes, validate/*.schema.ts, the controllers and
 * base-chatbot.controller.ts). Every platform serves the same ten routes with its own schema;
 * Typebot adds `start`, OpenAI its credentials and models. The platforms are a table in
 * ./chatbotPlatforms.ts; every route is one entry of the list at the end.
 */
import { randomBytes } from 'crypto';

import { badRequest, errorBody } from '../http';
import type { ChatbotState, Instance, Reply, RouteContext, RouteDef } from '../types';
import { PLATFORMS, botSchema, credsSchema, ignoreSchema, settingsSchema, startSchema, statusSchema, type Platform } from './chatbotPlatforms';


/** An id like the server's (Prisma cuid). */
const newId = () => `c${randomBytes(12).toString('hex').slice(0, 24)}`;
const now = () => new Date().toISOString();

function stateOf(inst: Instance): ChatbotState {
	inst.chatbots ??= { bots: {}, settings: {}, sessions: [], openaiCreds: [] };
	return inst.chatbots;
}

const botsOf = (inst: Instance, kind: string) => (stateOf(inst).bots[kind] ??= []);

/** A thrown `Error` of a controller: the server answers 500 with its message. */
const failed = (message: string): Reply => ({ status: 500, body: errorBody(500, message) });

/** The bot with this id on any instance (the server looks ids up without the instance). */
function findAnywhere(ctx: RouteContext, kind: string, id: string | undefined): { bot: Record<string, unknown>; owner: Instance } | undefined {
	for (const owner of ctx.instances()) {
		const bot = (owner.chatbots?.bots[kind] ?? []).find((entry) => entry.id === id);
		if (bot) return { bot, owner };
	}
	return undefined;
}

const BEHAVIOUR_KEYS = ['expire', 'keywordFinish', 'delayMessage', 'unknownMessage', 'listeningFromMe', 'stopBotFromMe', 'keepOpen', 'debounceTime', 'ignoreJids', 'splitMessages', 'timePerChar'];

/** The bot's own columns from the body: the DTO's names (n8n's password as basicAuthPass). */
function ownColumns(p: Platform, body: Record<string, unknown>): Record<string, unknown> {
	const columns: Record<string, unknown> = {};
	for (const key of Object.keys(p.own)) {
		if (key === 'basicAuthPassword') continue;
		columns[key] = body[key];
	}
	if (p.kind === 'n8n') columns.basicAuthPass = body.basicAuthPass;
	return columns;
}

/** The trigger checks of create and update (`exceptId`: the bot being updated). */
function triggerProblem(p: Platform, bots: Array<Record<string, unknown>>, body: Record<string, unknown>, exceptId?: string): string | undefined {
	const others = bots.filter((bot) => bot.id !== exceptId);
	if (body.triggerType === 'all' && others.some((bot) => bot.enabled === true && bot.triggerType === 'all')) {
		return `You already have a ${p.label} with an "All" trigger, you cannot have more bots while it is active`;
	}
	if (body.triggerType === 'keyword') {
		if (!body.triggerOperator || !body.triggerValue) return 'Trigger operator and value are required';
		if (others.some((bot) => bot.triggerOperator === body.triggerOperator && bot.triggerValue === body.triggerValue)) return 'Trigger already exists';
	}
	if (body.triggerType === 'advanced') {
		if (!body.triggerValue) return 'Trigger value is required';
		if (others.some((bot) => bot.triggerValue === body.triggerValue)) return 'Trigger already exists';
	}
	return undefined;
}

function duplicate(p: Platform, bots: Array<Record<string, unknown>>, body: Record<string, unknown>, exceptId?: string): boolean {
	const identity = p.identity(body);
	if (!identity) return false;
	return bots.some((bot) => bot.id !== exceptId && Object.entries(identity).every(([key, value]) => bot[key] === value));
}

/**
 * Whether the server transcribes voice notes of this instance: its OpenAI settings have
 * `speechToText` on and name credentials (OPENAI_ENABLED is on in the sandbox).
 */
export function transcribesVoiceNotes(inst: Instance): boolean {
	const settings = inst.chatbots?.settings.openai;
	return settings?.speechToText === true && typeof settings.openaiCredsId === 'string' && settings.openaiCredsId !== '';
}

const SERVER_DEFAULT_SETTINGS = {
	expire: 300,
	keywordFinish: 'bye',
	delayMessage: 1000,
	unknownMessage: 'Sorry, I dont understand',
	listeningFromMe: true,
	stopBotFromMe: true,
	keepOpen: false,
	debounceTime: 1,
	ignoreJids: [],
	splitMessages: false,
	timePerChar: 0,
	fallbackId: '',
	fallback: null,
};

/** Saves the settings as the controller does (the fallback under the platform's own column); the answer adds `fallbackId`. */
function saveSettings(p: Platform, inst: Instance, body: Record<string, unknown>): Record<string, unknown> {
	const state = stateOf(inst);
	const data: Record<string, unknown> = {};
	for (const key of BEHAVIOUR_KEYS) if (body[key] !== undefined) data[key] = body[key];
	data[p.fallbackField] = body.fallbackId;
	if (p.kind === 'openai') {
		data.openaiCredsId = body.openaiCredsId;
		data.speechToText = body.speechToText;
	}
	const existing = state.settings[p.kind];
	const given = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
	const saved: Record<string, unknown> = existing
		? Object.assign(existing, given, { updatedAt: now() })
		: { id: newId(), ...given, createdAt: now(), updatedAt: now(), instanceId: inst.instanceId };
	state.settings[p.kind] = saved;
	return { ...saved, fallbackId: saved[p.fallbackField] };
}

function platformRoutes(p: Platform): RouteDef[] {
	const base = `/${p.kind}`;
	return [
		{
			method: 'POST',
			path: { v2: `${base}/create/{instance}` },
			schema: { v2: botSchema(p) },
			reply: (ctx) => {
				const body = ctx.body as Record<string, unknown>;
				const bots = botsOf(ctx.inst, p.kind);
				const state = stateOf(ctx.inst);
				// gaps are filled from the platform's settings; without settings they are saved from the bot
				const filled: Record<string, unknown> = { ...body };
				const settings = state.settings[p.kind];
				for (const key of BEHAVIOUR_KEYS) if (filled[key] === undefined || filled[key] === null) filled[key] = settings?.[key] ?? (key === 'splitMessages' ? false : key === 'timePerChar' ? 0 : undefined);
				if (!settings) saveSettings(p, ctx.inst, filled);
				const problem = triggerProblem(p, bots, filled);
				if (problem) return failed(problem);
				const own = p.check?.(body);
				if (own) return failed(own);
				if (duplicate(p, bots, body)) return failed(p.exists);
				const bot: Record<string, unknown> = {
					id: newId(),
					enabled: body.enabled,
					description: body.description ?? null,
					...ownColumns(p, body),
					expire: filled.expire ?? null,
					keywordFinish: filled.keywordFinish ?? null,
					delayMessage: filled.delayMessage ?? null,
					unknownMessage: filled.unknownMessage ?? null,
					listeningFromMe: filled.listeningFromMe ?? null,
					stopBotFromMe: filled.stopBotFromMe ?? null,
					keepOpen: filled.keepOpen ?? null,
					debounceTime: filled.debounceTime ?? null,
					ignoreJids: filled.ignoreJids ?? [],
					splitMessages: filled.splitMessages,
					timePerChar: filled.timePerChar,
					triggerType: body.triggerType,
					triggerOperator: body.triggerOperator ?? null,
					triggerValue: body.triggerValue ?? null,
					createdAt: now(),
					updatedAt: now(),
					instanceId: ctx.inst.instanceId,
				};
				bots.push(bot);
				return { status: 201, body: bot };
			},
		},
		{
			method: 'GET',
			path: { v2: `${base}/find/{instance}` },
			reply: (ctx) => ({ status: 200, body: botsOf(ctx.inst, p.kind) }),
		},
		{
			method: 'GET',
			path: { v2: `${base}/fetch/{id}/{instance}` },
			// an unknown id answers null; a bot of another instance is found too
			reply: (ctx) => ({ status: 200, body: findAnywhere(ctx, p.kind, ctx.pathId)?.bot ?? null }),
		},
		{
			method: 'PUT',
			path: { v2: `${base}/update/{id}/{instance}` },
			schema: { v2: botSchema(p) },
			reply: (ctx) => {
				const body = ctx.body as Record<string, unknown>;
				const bots = botsOf(ctx.inst, p.kind);
				const bot = bots.find((entry) => entry.id === ctx.pathId);
				// every failure inside the controller's try reads the same
				const error = failed(`Error updating ${p.label}`);
				if (!bot) return error;
				if (triggerProblem(p, bots, body, bot.id as string) || p.check?.(body) || duplicate(p, bots, body, bot.id as string)) return error;
				const changes: Record<string, unknown> = { enabled: body.enabled, description: body.description, ...ownColumns(p, body), triggerType: body.triggerType, triggerOperator: body.triggerOperator, triggerValue: body.triggerValue };
				for (const key of BEHAVIOUR_KEYS) changes[key] = body[key];
				// undefined keeps the stored value, as Prisma's update does
				for (const [key, value] of Object.entries(changes)) if (value !== undefined) bot[key] = value;
				bot.updatedAt = now();
				return { status: 200, body: bot };
			},
		},
		{
			method: 'DELETE',
			path: { v2: `${base}/delete/{id}/{instance}` },
			reply: (ctx) => {
				const bots = botsOf(ctx.inst, p.kind);
				const index = bots.findIndex((entry) => entry.id === ctx.pathId);
				if (index === -1) return failed(`Error deleting ${p.label} bot`);
				bots.splice(index, 1);
				const state = stateOf(ctx.inst);
				state.sessions = state.sessions.filter((session) => session.botId !== ctx.pathId);
				return { status: 200, body: { bot: { id: ctx.pathId } } };
			},
		},
		{
			method: 'POST',
			path: { v2: `${base}/settings/{instance}` },
			schema: { v2: settingsSchema(p) },
			reply: (ctx) => ({ status: 200, body: saveSettings(p, ctx.inst, ctx.body as Record<string, unknown>) }),
		},
		{
			method: 'GET',
			path: { v2: `${base}/fetchSettings/{instance}` },
			reply: (ctx) => {
				const settings = stateOf(ctx.inst).settings[p.kind];
				if (!settings) return { status: 200, body: SERVER_DEFAULT_SETTINGS };
				const fallbackId = settings[p.fallbackField];
				const fallback = typeof fallbackId === 'string' ? (botsOf(ctx.inst, p.kind).find((bot) => bot.id === fallbackId) ?? null) : null;
				return { status: 200, body: { ...settings, fallbackId, fallback } };
			},
		},
		{
			method: 'POST',
			path: { v2: `${base}/changeStatus/{instance}` },
			schema: { v2: statusSchema },
			reply: (ctx) => {
				const { remoteJid, status } = ctx.body as { remoteJid: string; status: string };
				const instance = { instanceName: ctx.inst.name };
				// closing or deleting ends the chat's conversations with bots on every instance
				const everywhere = ctx.instances().map(stateOf);
				if (status === 'delete') {
					for (const state of everywhere) state.sessions = state.sessions.filter((session) => session.remoteJid !== remoteJid);
					return { status: 200, body: { bot: { remoteJid, status } } };
				}
				if (status === 'closed') {
					const keepOpen = stateOf(ctx.inst).settings[p.kind]?.keepOpen === true;
					for (const state of everywhere) {
						if (keepOpen) for (const session of state.sessions) if (session.remoteJid === remoteJid) session.status = 'closed';
						else state.sessions = state.sessions.filter((session) => session.remoteJid !== remoteJid);
					}
					return { status: 200, body: { bot: { ...instance, bot: { remoteJid, status } } } };
				}
				const mine = stateOf(ctx.inst).sessions.filter((session) => session.remoteJid === remoteJid);
				for (const session of mine) {
					session.status = status;
					session.updatedAt = now();
				}
				return { status: 200, body: { bot: { ...instance, bot: { remoteJid, status, session: { count: mine.length } } } } };
			},
		},
		{
			method: 'GET',
			path: { v2: `${base}/fetchSessions/{id}/{instance}` },
			reply: (ctx) => {
				const found = findAnywhere(ctx, p.kind, ctx.pathId);
				if (found && found.owner !== ctx.inst) return failed('Error fetching sessions');
				// an unknown id lists the conversations of every bot of the platform
				const sessions = stateOf(ctx.inst).sessions.filter((session) => session.kind === p.kind && (!found || session.botId === ctx.pathId));
				return { status: 200, body: sessions.map(({ kind: _kind, ...session }) => ({ ...session, type: p.sessionType, instanceId: ctx.inst.instanceId })) };
			},
		},
		{
			method: 'POST',
			path: { v2: `${base}/ignoreJid/{instance}` },
			schema: { v2: ignoreSchema },
			reply: (ctx) => {
				const settings = stateOf(ctx.inst).settings[p.kind];
				if (!settings) return failed('Error setting default settings');
				const { remoteJid, action } = ctx.body as { remoteJid: string; action: string };
				const current = Array.isArray(settings.ignoreJids) ? (settings.ignoreJids as string[]) : [];
				if (action === 'add' && current.includes(remoteJid)) return { status: 200, body: { ignoreJids: current } };
				settings.ignoreJids = action === 'add' ? [...current, remoteJid] : current.filter((jid) => jid !== remoteJid);
				return { status: 200, body: { ignoreJids: settings.ignoreJids } };
			},
		},
	];
}

/** Whether the Typebot server at this address cannot be reached: a host under `.invalid` (RFC 2606), or no address at all. */
function typebotUnreachable(url: string): boolean {
	try {
		return new URL(url).hostname.endsWith('.invalid');
	} catch {
		return true;
	}
}

/** Typebot's `start`: a flow started in a chat now; without saved settings the controller fails reading them. */
function startTypebot(ctx: RouteContext): Reply {
	const body = ctx.body as { remoteJid: string; url: string; typebot: string; startSession?: boolean; variables?: Array<{ name: string; value: string }> };
	const typebot = PLATFORMS.find((p) => p.kind === 'typebot') as Platform;
	// Status is never started: the controller returns nothing, an empty 200.
	if (body.remoteJid === 'status@broadcast') return { status: 200 };
	const state = stateOf(ctx.inst);
	const settings = state.settings.typebot;
	if (!settings) return failed('Cannot read properties of null (reading \'expire\')');
	if (Array.isArray(settings.ignoreJids) && (settings.ignoreJids as string[]).some((jid) => jid === body.remoteJid || (jid.startsWith('@') && body.remoteJid.endsWith(jid)))) {
		return failed('Jid not allowed');
	}
	const prefilledVariables: Record<string, string> = {};
	for (const variable of body.variables ?? []) prefilledVariables[variable.name] = variable.value;
	// The controller returns nothing (an empty 200) when its call to the Typebot server fails:
	// the sandbox's Typebot servers are every host but those under `.invalid`.
	if (!body.startSession && typebotUnreachable(body.url)) return { status: 200 };
	if (body.startSession) {
		const bots = botsOf(ctx.inst, 'typebot');
		let bot = bots.find((entry) => entry.url === body.url && entry.typebot === body.typebot);
		if (!bot) {
			bot = { id: newId(), enabled: true, url: body.url, typebot: body.typebot, triggerType: null, createdAt: now(), updatedAt: now(), instanceId: ctx.inst.instanceId };
			bots.push(bot);
		}
		state.sessions = state.sessions.filter((session) => session.remoteJid !== body.remoteJid);
		state.sessions.push({ id: newId(), kind: typebot.kind, botId: bot.id as string, remoteJid: body.remoteJid, status: 'opened', createdAt: now(), updatedAt: now() });
	}
	ctx.out('text', body.remoteJid, `[Typebot ${body.typebot}] flow started`);
	return { status: 200, body: { typebot: { instanceName: ctx.inst.name, typebot: { url: body.url, remoteJid: body.remoteJid, typebot: body.typebot, prefilledVariables } } } };
}

/** The models OpenAI lists for a key (the sandbox's fixed few). */
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'whisper-1'].map((id, index) => ({ id, object: 'model', created: 1_715_367_049 + index, owned_by: 'system' }));

const openaiRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/openai/creds/{instance}' },
		schema: { v2: credsSchema },
		reply: (ctx) => {
			const { name, apiKey } = ctx.body as { name: string; apiKey: string };
			const creds = stateOf(ctx.inst).openaiCreds;
			// the key is unique on the whole server, the name on the instance
			if (ctx.instances().some((inst) => (inst.chatbots?.openaiCreds ?? []).some((entry) => entry.apiKey === apiKey))) {
				return badRequest(['This API key is already registered. Please use a different API key.']);
			}
			if (creds.some((entry) => entry.name === name)) return badRequest(['This credential name is already in use. Please choose a different name.']);
			const record = { id: newId(), name, apiKey, createdAt: now(), updatedAt: now(), instanceId: ctx.inst.instanceId };
			creds.push(record);
			return { status: 201, body: record };
		},
	},
	{
		method: 'GET',
		path: { v2: '/openai/creds/{instance}' },
		reply: (ctx) => ({ status: 200, body: stateOf(ctx.inst).openaiCreds }),
	},
	{
		method: 'DELETE',
		path: { v2: '/openai/creds/{id}/{instance}' },
		reply: (ctx) => {
			const state = stateOf(ctx.inst);
			if (!state.openaiCreds.some((entry) => entry.id === ctx.pathId)) return failed('Openai Creds not found');
			state.openaiCreds = state.openaiCreds.filter((entry) => entry.id !== ctx.pathId);
			return { status: 200, body: { openaiCreds: { id: ctx.pathId } } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/openai/getModels/{instance}' },
		reply: (ctx) => {
			const state = stateOf(ctx.inst);
			const id = ctx.query.openaiCredsId;
			if (id) {
				if (!state.openaiCreds.some((entry) => entry.id === id)) return failed('OpenAI credentials not found for the provided ID');
			} else {
				const settings = state.settings.openai;
				if (!settings) return failed('Settings not found');
				if (!state.openaiCreds.some((entry) => entry.id === settings.openaiCredsId)) {
					return failed('OpenAI credentials not found. Please create credentials and associate them with the settings.');
				}
			}
			return { status: 200, body: MODELS };
		},
	},
];

export const chatbotRoutes: RouteDef[] = [
	...PLATFORMS.flatMap(platformRoutes),
	{ method: 'POST', path: { v2: '/typebot/start/{instance}' }, schema: { v2: startSchema }, reply: startTypebot },
	...openaiRoutes,
];
