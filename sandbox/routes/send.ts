/**
 * How a send is answered, for every route that sends a message: the chat line, SEND_MESSAGE to
 * the webhook, 201 with the message; for a file, also the stored file (../media.ts).
 */
import type { ChatKind, ChatMedia, Reply, RouteContext } from '../types';
import type { MessageResult } from '../messages';
import { messageResult, toJid } from '../messages';
import { MediaMessageType, StoredMedia, isMediaUrl, mediaFields } from '../media';

/** A send answered: the chat line, SEND_MESSAGE to the webhook, 201 with the message. */
export function sent(ctx: RouteContext, kind: ChatKind, text: string, result: MessageResult): Reply {
	if (ctx.chosenMessageId) result.key.id = ctx.chosenMessageId;
	ctx.out(kind, result.key.remoteJid, text, result.key.id);
	ctx.emit('send.message', result);
	return { status: 201, body: result };
}

/** The chat page's link to a stored file. */
export function mediaPath(instance: string, messageId: string): string {
	return `/_sandbox/media/${encodeURIComponent(instance)}/${encodeURIComponent(messageId)}`;
}

/** The body as the chat log keeps it: long media strings replaced by their length. */
function chatBody(body: Record<string, unknown>, field: string): Record<string, unknown> {
	const value = body[field];
	if (typeof value !== 'string' || value.length <= 200 || isMediaUrl(value)) return body;
	return { ...body, [field]: `(base64, ${value.length} characters)` };
}

export interface FileSend {
	kind: ChatKind;
	mediaType: MediaMessageType;
	/** the body field holding the URL or base64 */
	field: string;
	mimetype: string;
	fileName?: string;
	caption?: string;
	/** more fields of the message content (ptt, seconds, fileName of a document …) */
	content?: Record<string, unknown>;
	/** the message as sent elsewhere than to `number` (a status post) */
	result?: MessageResult;
}

/** Stores the file of a send, answers like every send (chat line, SEND_MESSAGE, 201). */
export function sendFile(ctx: RouteContext, f: FileSend): Reply {
	const media: string = ctx.body[f.field];
	const url = isMediaUrl(media) ? media : undefined;
	const bytes = url === undefined ? Buffer.from(media, 'base64') : undefined;
	const result = f.result ?? messageResult(toJid(ctx.body.number), {});
	if (ctx.chosenMessageId) result.key.id = ctx.chosenMessageId;
	const id = result.key.id;
	result.message = {
		[f.mediaType]: {
			...mediaFields(id, f.mimetype, bytes),
			...(f.caption !== undefined ? { caption: f.caption } : {}),
			...(f.content ?? {}),
		},
	};
	const stored: StoredMedia = { instance: ctx.inst.name, messageId: id, mediaType: f.mediaType, mimetype: f.mimetype, fileName: f.fileName, caption: f.caption, bytes, url, incoming: false };
	ctx.media.put(stored);
	const shown: ChatMedia = { url: url ?? mediaPath(ctx.inst.name, id), mimetype: f.mimetype, fileName: f.fileName, caption: f.caption, size: bytes?.length ?? 0 };
	const summary = `[${f.kind}] ${f.caption ?? f.fileName ?? ''}`.trim();
	ctx.out(f.kind, result.key.remoteJid, summary, id, { body: chatBody(ctx.body, f.field), media: shown });
	ctx.emit('send.message', result);
	return { status: 201, body: result };
}

