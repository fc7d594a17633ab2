/**
 * What the sandbox's injections deliver, as a real server would: the data of a
 * CONNECTION_UPDATE and of a QRCODE_UPDATED, and what an incoming message leaves behind (its
 * media file for Download Media and the chat page, its chat entry).
 */
import { randomBytes } from 'crypto';
import type { ChatEntry, Instance } from './types';
import { IncomingMessage, TINY_PNG_BASE64, storedKey } from './messages';
import type { MediaStore } from './media';
import { mediaPath } from './routes/send';

/** CONNECTION_UPDATE data for a state: open carries the number and profile name; close and refused a 428. */
export function connectionData(inst: Instance, state: string): Record<string, unknown> {
	const data: Record<string, unknown> = {
		instance: inst.name,
		state,
		statusReason: state === 'open' || state === 'connecting' ? 200 : 428,
	};
	if (state === 'open') {
		data.wuid = inst.jid;
		data.profileName = `Sandbox ${inst.name}`;
	}
	return data;
}

/** QRCODE_UPDATED data: a fresh pairing code, a code shaped like the real one, and a small PNG. */
export function qrData(inst: Instance): Record<string, unknown> {
	return {
		qrcode: {
			instance: inst.name,
			pairingCode: randomBytes(4).toString('hex').toUpperCase(),
			code: `2@${randomBytes(48).toString('base64')},${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')},1`,
			base64: `data:image/png;base64,${TINY_PNG_BASE64}`,
		},
	};
}

/** A message's content as stored: what the webhook carries, without the file's base64 (a delivery's copy). */
function storedContent(message: Record<string, unknown>): Record<string, unknown> {
	const { base64: _base64, ...content } = message;
	return content;
}

/**
 * An injected message arrives: its media file is kept as given (exact bytes), and the chat
 * entry it makes is returned (to be added to the chat log).
 *
 * @param data the MESSAGES_UPSERT data built for it (its key and pushName are the entry's)
 */
export function receive(media: MediaStore, instance: string, msg: IncomingMessage, data: Record<string, unknown>): Omit<ChatEntry, 'seq' | 'at' | 'time'> & { at?: number } {
	const key = data.key as { remoteJid: string; id: string };
	const summary = msg.media ? `[${msg.media.kind}] ${msg.media.caption ?? msg.text ?? msg.media.fileName ?? ''}`.trim() : (msg.text ?? '');
	const m = msg.media;
	if (m) {
		const bytes = Buffer.from(m.base64, 'base64');
		const caption = m.kind === 'audio' ? undefined : (m.caption ?? msg.text);
		const fileName = m.kind === 'document' ? (m.fileName ?? 'document') : m.fileName;
		media.put({ instance, messageId: key.id, mediaType: `${m.kind}Message`, mimetype: m.mimetype, fileName, caption, bytes, incoming: true });
	}
	return {
		direction: 'in',
		instance,
		chat: key.remoteJid,
		kind: msg.media ? msg.media.kind : 'text',
		text: summary,
		// The message as the server stores it (Find Messages answers it): its content, the file's base64 left out.
		body: { ...msg, message: storedContent(data.message as Record<string, unknown>) },
		messageId: key.id,
		...(msg.sentAt !== undefined ? { at: msg.sentAt } : {}),
		key: storedKey(msg, key.id),
		pushName: data.pushName as string,
		...(m ? { media: { url: mediaPath(instance, key.id), mimetype: m.mimetype, fileName: m.fileName, caption: m.caption ?? msg.text, size: Buffer.byteLength(m.base64, 'base64') } } : {}),
	};
}
