/**
 * Contacts known by LID (`…@lid`): the key a MESSAGES_UPSERT carries for them on each server
 * release. Baileys hands the server the LID in `remoteJid` and the phone JID in `remoteJidAlt`
 * (`addressingMode: 'lid'`); 2.3.6 delivers that as it is, 2.3.7 overwrites `remoteJid` with
 * the phone JID, 2.4 swaps the two (`addressingMode: 'pn'`). Without a phone JID the LID stays
 * in `remoteJid`. In groups the author is `participant` / `participantAlt`, in the order of the
 * group's addressing mode, on every release.
 */
import type { ServerVersion } from './versions';
import { atLeast } from './versions';

export function isLid(jid: string): boolean {
	return jid.endsWith('@lid');
}

/**
 * The key fields of an incoming message as the server stores it: Baileys' key, on every
 * release (2.3.7 and 2.4 store the message before they rewrite the key they deliver).
 */
export function storedKeyAddress(chat: { fromJid: string; lid?: string; group?: string; groupAddressing?: 'lid' | 'pn' }): Record<string, string> {
	return incomingKeyAddress('2.3.6', chat);
}

/** The key fields that name the chat and the author of an incoming message. */
export function incomingKeyAddress(
	version: ServerVersion,
	chat: { fromJid: string; lid?: string; group?: string; groupAddressing?: 'lid' | 'pn' },
): Record<string, string> {
	const { fromJid, lid, group } = chat;
	if (group) {
		if (!lid) return { remoteJid: group, participant: fromJid };
		if (isLid(fromJid)) return { remoteJid: group, participant: fromJid, addressingMode: 'lid' };
		return (chat.groupAddressing ?? 'lid') === 'lid'
			? { remoteJid: group, participant: lid, participantAlt: fromJid, addressingMode: 'lid' }
			: { remoteJid: group, participant: fromJid, participantAlt: lid, addressingMode: 'pn' };
	}
	// a contact known only by its LID: no Alt, the LID stays on every release
	if (isLid(fromJid)) return { remoteJid: fromJid, addressingMode: 'lid' };
	if (!lid) return { remoteJid: fromJid };
	if (atLeast(version, '2.4.0')) return { remoteJid: fromJid, remoteJidAlt: lid, addressingMode: 'pn' };
	if (atLeast(version, '2.3.7')) return { remoteJid: fromJid, remoteJidAlt: fromJid, addressingMode: 'lid' };
	return { remoteJid: lid, remoteJidAlt: fromJid, addressingMode: 'lid' };
}
