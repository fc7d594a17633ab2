import type { IDataObject } from 'n8n-workflow';

/**
 * What the action node and the trigger say to each other for a Send and Wait whose answer is
 * the recipient's next message in the chat (`chatReply`):
 *
 * - the action posts a registration to the trigger's own webhook (with the trigger's secret):
 *   `{ messagingInstanceWait: { instance, chatId, resumeUrl, expiresAt, alsoStartRun } }`;
 * - the trigger, when that chat's next message arrives, posts the item it would emit to the
 *   resume URL: `{ messagingInstanceReply: { json, binary? } }`, and the waiting node answers
 *   `{ resumed: true }`.
 *
 * Both sides read the other's body with the functions here, so the shapes are known once.
 */

export const WAIT_KEY = 'messagingInstanceWait';
export const REPLY_KEY = 'messagingInstanceReply';

/** The waiting node's answer when it took the reply; anything else means nobody waited there. */
export const RESUMED = { resumed: true };

/** The longest resume URL taken: n8n's signed waiting links are well under 500 characters. */
export const MAX_RESUME_URL_LENGTH = 2_000;
/** The longest chat id: a JID is a few dozen characters. */
export const MAX_CHAT_ID_LENGTH = 200;
/** The furthest expiry stored; a wait without a limit is kept this long at most. */
export const MAX_WAIT_MS = 366 * 86_400_000;
/**
 * The largest file handed to the waiting execution with the reply. n8n refuses a request body
 * over 16 MB by default (N8N_PAYLOAD_SIZE_MAX), and base64 adds a third.
 */
export const MAX_REPLY_FILE_BYTES = 10 * 1024 * 1024;
/** At most this many fields in the reply's JSON at its top level (a trigger item has about 15). */
export const MAX_REPLY_FIELDS = 100;

export interface WaitRegistration {
	instance: string;
	chatId: string;
	resumeUrl: string;
	/** ISO date after which the wait is over; never later than MAX_WAIT_MS from now. */
	expiresAt: string;
	alsoStartRun: boolean;
}

const isRecord = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A chat id as the trigger gives it: a JID without spaces (`…@s.whatsapp.net`, `…@g.us`, `…@lid`). */
const JID = /^[^\s@]{1,150}@[a-z0-9.-]{1,40}$/i;

/** Whether the body is a registration at all (then it is never read as a delivery). */
export function isRegistration(body: unknown): boolean {
	return isRecord(body) && WAIT_KEY in body;
}

/** The registration in a body, checked, or the reason it is not one. */
export function readRegistration(body: unknown, now = Date.now()): { ok: true; wait: WaitRegistration } | { ok: false; reason: string } {
	const wait = isRecord(body) ? body[WAIT_KEY] : undefined;
	if (!isRecord(wait)) return { ok: false, reason: `"${WAIT_KEY}" must be an object` };
	const { instance, chatId, resumeUrl, expiresAt, alsoStartRun } = wait;
	if (typeof instance !== 'string' || instance === '' || instance.length > 200) return { ok: false, reason: '"instance" must be the instance name' };
	if (typeof chatId !== 'string' || chatId.length > MAX_CHAT_ID_LENGTH || !JID.test(chatId)) return { ok: false, reason: '"chatId" must be a chat JID' };
	if (typeof resumeUrl !== 'string' || resumeUrl.length > MAX_RESUME_URL_LENGTH) return { ok: false, reason: '"resumeUrl" must be an address' };
	let url: URL;
	try {
		url = new URL(resumeUrl);
	} catch {
		return { ok: false, reason: '"resumeUrl" must be an address' };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: '"resumeUrl" must be an http(s) address' };
	if (url.username !== '' || url.password !== '') return { ok: false, reason: '"resumeUrl" must not carry a user name or password' };
	if (typeof alsoStartRun !== 'boolean') return { ok: false, reason: '"alsoStartRun" must be true or false' };
	const until = typeof expiresAt === 'string' && expiresAt.length <= 40 ? new Date(expiresAt).getTime() : Number.NaN;
	if (Number.isNaN(until)) return { ok: false, reason: '"expiresAt" must be an ISO date' };
	if (until <= now) return { ok: false, reason: '"expiresAt" is in the past' };
	return {
		ok: true,
		wait: { instance, chatId, resumeUrl: url.toString(), expiresAt: new Date(Math.min(until, now + MAX_WAIT_MS)).toISOString(), alsoStartRun },
	};
}

/** A file of the reply, as it travels to the waiting execution. */
export interface ReplyFile {
	/** The file as base64. */
	data: string;
	mimeType: string;
	fileName?: string;
}

export interface ChatReply {
	json: IDataObject;
	binary: Record<string, ReplyFile>;
}

/** The base64 text of at most `maxBytes` bytes (4 characters per 3 bytes, padding allowed). */
function isBase64Within(text: string, maxBytes: number): boolean {
	return text.length <= Math.ceil(maxBytes / 3) * 4 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/** The reply in a body posted to the waiting node, checked, or the reason it is not one. */
export function readReply(body: unknown): { ok: true; reply: ChatReply } | { ok: false; reason: string } {
	const reply = isRecord(body) ? body[REPLY_KEY] : undefined;
	if (!isRecord(reply) || !isRecord(reply.json)) return { ok: false, reason: `"${REPLY_KEY}.json" must be an object` };
	if (Object.keys(reply.json).length > MAX_REPLY_FIELDS) return { ok: false, reason: `"${REPLY_KEY}.json" has more than ${MAX_REPLY_FIELDS} fields` };
	const binary: Record<string, ReplyFile> = {};
	if (reply.binary !== undefined) {
		if (!isRecord(reply.binary)) return { ok: false, reason: `"${REPLY_KEY}.binary" must be an object` };
		const entries = Object.entries(reply.binary);
		if (entries.length > 1) return { ok: false, reason: 'a reply carries at most one file' };
		for (const [name, file] of entries) {
			if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) return { ok: false, reason: 'the file\'s field name is not a plain name' };
			if (!isRecord(file) || typeof file.data !== 'string' || !isBase64Within(file.data, MAX_REPLY_FILE_BYTES)) {
				return { ok: false, reason: 'the file must be base64 of at most 10 MB' };
			}
			if (typeof file.mimeType !== 'string' || file.mimeType.length > 255) return { ok: false, reason: 'the file needs its MIME type' };
			if (file.fileName !== undefined && (typeof file.fileName !== 'string' || file.fileName.length > 255)) {
				return { ok: false, reason: 'the file name must be text' };
			}
			binary[name] = { data: file.data, mimeType: file.mimeType, ...(typeof file.fileName === 'string' ? { fileName: file.fileName } : {}) };
		}
	}
	return { ok: true, reply: { json: reply.json, binary } };
}

/** The chat a message to `recipient` goes to, as the trigger names it (`chatId`). */
export function chatIdOf(recipient: string): string {
	return recipient.includes('@') ? recipient : `${recipient}@s.whatsapp.net`;
}

/**
 * The option a reply picks: its number in the list (`2`, `2.`, `2)`), or an option's text
 * (case and surrounding spaces ignored). Null when it picks none.
 */
export function choiceOf(text: string, choices: readonly string[]): string | null {
	const answer = text.trim();
	if (answer === '' || choices.length === 0) return null;
	const numbered = /^(\d{1,3})\s*[.)]?$/.exec(answer);
	if (numbered) {
		const position = Number(numbered[1]);
		if (position >= 1 && position <= choices.length) return choices[position - 1];
	}
	const lower = answer.toLowerCase();
	return choices.find((choice) => choice.trim().toLowerCase() === lower) ?? null;
}
