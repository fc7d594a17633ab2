/**
 * The sandbox's state on disk, so that a restart keeps what a real server keeps: instances
 * (name, token, id, number), their webhooks and settings, connection state, groups, labels
 * and which chats carry them, blocks, and the recent chat log (Find Messages / Chats /
 * Contacts read it). Media files are not kept (the chat log's media links then answer 404).
 *
 * Written atomically (a temporary file in the same folder, flushed, then renamed over the
 * old one), and bounded: at most MAX_STATE_BYTES, the oldest chat entries dropped first. A
 * file that cannot be read as a state is reported, kept beside as `<file>.corrupt`, and the
 * sandbox starts without it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Account, Group, Label, QrCode } from './accounts';
import type { ChatEntry, Instance } from './types';

export const STATE_VERSION = 1;
/** The file's size bound. */
export const MAX_STATE_BYTES = 4 * 1024 * 1024;
/** Chat entries kept at most (before the size bound). */
export const MAX_CHAT_ENTRIES = 2000;
/** A chat entry's raw body above this size is kept as its summary only. */
const MAX_ENTRY_BODY_BYTES = 16 * 1024;

interface SavedAccount {
	state: Account['state'];
	qr?: QrCode;
	groups: Group[];
	labels: Label[];
	chatLabels: Array<[string, string[]]>;
	blocked: string[];
	read: string[];
	deleted: string[];
	unread: string[];
	presence: Account['presence'];
}

/** An instance as saved: its account's maps and sets as lists. */
type SavedInstance = Omit<Instance, 'account'> & { account?: SavedAccount };

export interface SavedState {
	version: number;
	instances: SavedInstance[];
	chat: ChatEntry[];
}

function saveAccount(a: Account): SavedAccount {
	return {
		state: a.state,
		...(a.qr ? { qr: a.qr } : {}),
		groups: [...a.groups.values()],
		labels: [...a.labels.values()],
		chatLabels: [...a.chatLabels.entries()].map(([chat, ids]) => [chat, [...ids]]),
		blocked: [...a.blocked],
		read: [...a.read],
		deleted: [...a.deleted],
		unread: [...a.unread],
		presence: a.presence,
	};
}

function loadAccount(a: SavedAccount): Account {
	return {
		state: a.state,
		...(a.qr ? { qr: a.qr } : {}),
		groups: new Map(a.groups.map((g) => [g.id, g])),
		labels: new Map(a.labels.map((l) => [l.id, l])),
		chatLabels: new Map(a.chatLabels.map(([chat, ids]) => [chat, new Set(ids)])),
		blocked: new Set(a.blocked),
		read: new Set(a.read),
		deleted: new Set(a.deleted),
		unread: new Set(a.unread),
		presence: a.presence,
	};
}

function boundedEntry(e: ChatEntry): ChatEntry {
	const size = Buffer.byteLength(JSON.stringify(e.body ?? null));
	return size <= MAX_ENTRY_BODY_BYTES ? e : { ...e, body: { omitted: `${size} bytes, not kept across restarts` } };
}

/** The state as written: instances whole, the newest chat entries that fit the size bound. */
export function serialize(instances: Instance[], chat: ChatEntry[]): string {
	const saved: SavedState = {
		version: STATE_VERSION,
		instances: instances.map((i) => ({
			name: i.name,
			token: i.token,
			instanceId: i.instanceId,
			jid: i.jid,
			...(i.integration ? { integration: i.integration } : {}),
			...(i.webhook ? { webhook: i.webhook } : {}),
			...(i.settings ? { settings: i.settings } : {}),
			...(i.account ? { account: saveAccount(i.account) } : {}),
		})),
		chat: chat.slice(-MAX_CHAT_ENTRIES).map(boundedEntry),
	};
	let text = JSON.stringify(saved);
	while (Buffer.byteLength(text) > MAX_STATE_BYTES && saved.chat.length > 0) {
		saved.chat = saved.chat.slice(Math.ceil(saved.chat.length / 4));
		text = JSON.stringify(saved);
	}
	return text;
}

function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkInstance(v: unknown, at: string): SavedInstance {
	if (!isObject(v)) throw new Error(`${at} is not an object`);
	for (const k of ['name', 'token', 'instanceId', 'jid']) {
		if (typeof v[k] !== 'string' || !v[k]) throw new Error(`${at}.${k} is not a text`);
	}
	if (v.account !== undefined) {
		const a = v.account;
		if (!isObject(a)) throw new Error(`${at}.account is not an object`);
		for (const k of ['groups', 'labels', 'chatLabels', 'blocked', 'read', 'deleted', 'unread']) {
			if (!Array.isArray(a[k])) throw new Error(`${at}.account.${k} is not a list`);
		}
	}
	if (v.webhook !== undefined && (!isObject(v.webhook) || typeof v.webhook.url !== 'string' || !Array.isArray(v.webhook.events))) {
		throw new Error(`${at}.webhook is not a webhook`);
	}
	return v as unknown as SavedInstance;
}

/** Parses a state file's text; throws a readable reason when it is not one. */
export function parseState(text: string): { instances: Instance[]; chat: ChatEntry[] } {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (e) {
		throw new Error(`not JSON (${e instanceof Error ? e.message : String(e)})`);
	}
	if (!isObject(parsed)) throw new Error('not a JSON object');
	if (parsed.version !== STATE_VERSION) throw new Error(`version ${JSON.stringify(parsed.version)}, expected ${STATE_VERSION}`);
	if (!Array.isArray(parsed.instances)) throw new Error('"instances" is not a list');
	if (!Array.isArray(parsed.chat)) throw new Error('"chat" is not a list');
	const instances = parsed.instances.map((v, i) => {
		const s = checkInstance(v, `instances[${i}]`);
		const inst: Instance = { name: s.name, token: s.token, instanceId: s.instanceId, jid: s.jid };
		if (typeof s.integration === 'string' && s.integration !== '') inst.integration = s.integration;
		if (s.webhook) inst.webhook = s.webhook;
		if (s.settings) inst.settings = s.settings;
		if (s.account) inst.account = loadAccount(s.account);
		return inst;
	});
	const chat = (parsed.chat as unknown[]).filter(
		(e): e is ChatEntry => isObject(e) && typeof e.seq === 'number' && typeof e.instance === 'string' && typeof e.chat === 'string',
	);
	return { instances, chat };
}

/** What reading the file gave: a state, nothing (no file), or a problem to report. */
export type LoadResult = { state?: { instances: Instance[]; chat: ChatEntry[] }; problem?: string };

export function loadState(file: string): LoadResult {
	let text: string;
	try {
		const size = fs.statSync(file).size;
		if (size > MAX_STATE_BYTES * 2) throw new Error(`${size} bytes, more than a saved state can be`);
		text = fs.readFileSync(file, 'utf8');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
		return keepAside(file, e instanceof Error ? e.message : String(e));
	}
	try {
		return { state: parseState(text) };
	} catch (e) {
		return keepAside(file, e instanceof Error ? e.message : String(e));
	}
}

function keepAside(file: string, reason: string): LoadResult {
	const aside = `${file}.corrupt`;
	try {
		fs.renameSync(file, aside);
	} catch {
		/* leave it */
	}
	return { problem: `the sandbox's saved state ${file} could not be read (${reason}); starting without it (the file is kept as ${path.basename(aside)})` };
}

/** Writes the state atomically: a temporary file in the same folder, flushed, renamed over the old one. */
export function writeStateAtomically(file: string, text: string): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const tmp = `${file}.${process.pid}.tmp`;
	const fd = fs.openSync(tmp, 'w', 0o600);
	try {
		fs.writeSync(fd, text);
		fs.fsyncSync(fd);
	} finally {
		fs.closeSync(fd);
	}
	fs.renameSync(tmp, file);
}
