import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { MAX_REPLY_FILE_BYTES, readRegistration, REPLY_KEY, type ReplyFile, type WaitRegistration } from '../shared/chatReply';
import type { DeliveryEvent } from './delivery';
import type { TriggerStaticData } from './state';

/**
 * Executions waiting in Send and Wait for Response (`chatReply`) for the next message of a
 * chat, kept in this trigger's slice of the workflow's static data.
 *
 * Only the trigger's webhook handler writes them: n8n loads a workflow's static data for each
 * webhook request and saves it right after the handler returns, so a registration and a reply
 * see each other's changes (an execution saves the static data it loaded when it started, so
 * an action node writing here would overwrite what the trigger wrote meanwhile). An entry holds
 * the chat, the execution's signed resume URL, when the wait ends and whether the reply also
 * starts a run; never a secret of the credential or of the webhook.
 */

/** At most this many executions wait at once per trigger; the oldest entry gives way. */
export const MAX_WAITS = 500;

export interface WaitEntry extends IDataObject {
	chatId: string;
	resumeUrl: string;
	expiresAt: string;
	alsoStartRun: boolean;
	since: string;
}

function waitsOf(data: TriggerStaticData, now: number): WaitEntry[] {
	const stored = Array.isArray(data.waits) ? (data.waits as WaitEntry[]) : [];
	return stored.filter((entry) => typeof entry?.chatId === 'string' && typeof entry.resumeUrl === 'string' && new Date(entry.expiresAt).getTime() > now);
}

function store(data: TriggerStaticData, waits: WaitEntry[]): void {
	if (waits.length === 0) delete data.waits;
	else data.waits = waits;
}

/**
 * Takes a registration posted to the trigger's URL. The resume URL must be on this n8n (the
 * origin of the trigger's own webhook URL): the trigger posts a contact's message there, and
 * must never be made to post it anywhere else.
 */
export function register(
	data: TriggerStaticData,
	body: unknown,
	instance: string,
	ownUrl: string | undefined,
	now = Date.now(),
): { status: number; answer: IDataObject } {
	const read = readRegistration(body, now);
	if (!read.ok) return { status: 400, answer: { message: read.reason } };
	const wait: WaitRegistration = read.wait;
	if (wait.instance !== instance) return { status: 409, answer: { message: 'This trigger watches another instance' } };
	let origin: string | undefined;
	try {
		origin = ownUrl ? new URL(ownUrl).origin : undefined;
	} catch {
		origin = undefined;
	}
	if (!origin || new URL(wait.resumeUrl).origin !== origin) {
		return { status: 403, answer: { message: 'The resume URL is not on this n8n' } };
	}
	const waits = waitsOf(data, now).filter((entry) => entry.chatId !== wait.chatId);
	waits.push({ chatId: wait.chatId, resumeUrl: wait.resumeUrl, expiresAt: wait.expiresAt, alsoStartRun: wait.alsoStartRun, since: new Date(now).toISOString() });
	store(data, waits.slice(-MAX_WAITS));
	return { status: 200, answer: { waiting: true } };
}

/** The chat's ids a waiting entry may name: the trigger's chatId, and the key's JIDs of a direct chat. */
function chatIdsOf(key: NonNullable<DeliveryEvent['key']>): Set<string> {
	const ids = new Set([key.chatId, key.remoteJid]);
	if (!key.isGroup && key.remoteJidAlt) ids.add(key.remoteJidAlt);
	return ids;
}

/** The entry waiting for this event's chat, if the event is a message of the other side. */
export function waitFor(data: TriggerStaticData, event: DeliveryEvent, now = Date.now()): WaitEntry | undefined {
	if (!event.key || !event.message || event.key.fromMe) return undefined;
	const waits = waitsOf(data, now);
	// Expired entries go as soon as a message is looked up (no timers in a node).
	if (Array.isArray(data.waits) && waits.length !== data.waits.length) store(data, waits);
	if (waits.length === 0) return undefined;
	const ids = chatIdsOf(event.key);
	return waits.find((entry) => ids.has(entry.chatId));
}

/** Removes the entry, and every other one of the same execution (its other items' chats). */
export function release(data: TriggerStaticData, entry: WaitEntry, now = Date.now()): void {
	store(data, waitsOf(data, now).filter((other) => other.resumeUrl !== entry.resumeUrl));
}

export type ResumeOutcome = 'resumed' | 'gone' | 'busy' | 'failed';

/** The item as the waiting node receives it: JSON, and its file as base64 (files too large go without). */
export function replyBody(item: INodeExecutionData, file: { name: string; data: Buffer; fileName: string; mimeType: string } | undefined): IDataObject {
	const json: IDataObject = { ...item.json };
	const binary: Record<string, ReplyFile> = {};
	if (file && file.data.length <= MAX_REPLY_FILE_BYTES) {
		binary[file.name] = { data: file.data.toString('base64'), mimeType: file.mimeType, fileName: file.fileName };
	} else if (file) {
		json.mediaError = `No binary data: the file is larger than ${MAX_REPLY_FILE_BYTES / 1024 / 1024} MB, the most handed to a waiting execution; download it with Message → Download Media`;
	}
	return { [REPLY_KEY]: { json, ...(Object.keys(binary).length > 0 ? { binary } : {}) } };
}

/**
 * Posts the reply to the waiting execution. `resumed` only when the waiting node answered that
 * it took it; `busy` when n8n says the execution is still running (a reply faster than the
 * execution reached its wait); `gone` when n8n says the execution is not waiting there
 * (finished, deleted, or an answer that is not the node's); `failed` when n8n could not be
 * reached or failed.
 */
export async function resume(ctx: IWebhookFunctions, entry: WaitEntry, body: IDataObject): Promise<ResumeOutcome> {
	try {
		const response = (await ctx.helpers.httpRequest({
			method: 'POST',
			url: entry.resumeUrl,
			body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 60_000,
		})) as { statusCode?: number; body?: unknown };
		const status = response.statusCode ?? 0;
		const answer = response.body as IDataObject | undefined;
		if (status >= 200 && status < 300) return answer && typeof answer === 'object' && answer.resumed === true ? 'resumed' : 'gone';
		const message = answer && typeof answer === 'object' && typeof answer.message === 'string' ? answer.message : '';
		if (status === 409 && /is running already/i.test(message)) return 'busy';
		if (status === 404 || status === 409 || status === 410) return 'gone';
		return 'failed';
	} catch {
		return 'failed';
	}
}
