/**
 * The message ids this package gives its sends, and how to know one again in a chat's history.
 *
 * Evolution API 2.4 takes a send's `messageId` as the message's `key.id` (2.3.x chooses its
 * own). The server stores every message with `source`, Baileys' guess of the device from the
 * id's form, and a send's ids look like the ones WhatsApp Web makes (`3EB0` and 18 hex digits:
 * `web`), so neither the form nor `source` tells a send of this package from a message a
 * person typed on WhatsApp Web. The package's ids therefore carry a check: their last six
 * digits are a hash of the twelve before, which an id made elsewhere matches once in 16.7
 * million. Pure functions: no request, no n8n context.
 */

/** Baileys' own ids and WhatsApp Web's are `3EB0` and 18 hex digits; the package's have that form too. */
const ID_PREFIX = '3EB0';
const BODY_DIGITS = 12;
const CHECK_DIGITS = 6;
const OWN_ID = /^3EB0[0-9A-F]{18}$/;

const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * FNV-1a over the text's UTF-8 bytes, 64 bits, from the given start, then MurmurHash3's final
 * mix: FNV alone leaves hashes of neighbouring texts alike in their first digits.
 */
export function hash64(text: string, start: bigint): bigint {
	let hash = start;
	for (const byte of Buffer.from(text, 'utf8')) {
		hash ^= BigInt(byte);
		hash = (hash * FNV_PRIME) & MASK_64;
	}
	hash ^= hash >> 33n;
	hash = (hash * 0xff51afd7ed558ccdn) & MASK_64;
	hash ^= hash >> 33n;
	hash = (hash * 0xc4ceb9fe1a85ec53n) & MASK_64;
	return hash ^ (hash >> 33n);
}

/** The check digits of an id's body: a hash the package alone adds, under a start of its own. */
function checkOf(body: string): string {
	return hash64(`n8n-nodes-messaging-instance\u0000${body}`, 0x6d73672d696e7374n)
		.toString(16)
		.padStart(16, '0')
		.slice(0, CHECK_DIGITS)
		.toUpperCase();
}

/** The package's message id for what makes a send unique (a text naming the workflow, execution, node, run and item). */
export function ownMessageId(identity: string): string {
	const body = hash64(identity, 0xcbf29ce484222325n).toString(16).padStart(16, '0').slice(0, BODY_DIGITS).toUpperCase();
	return `${ID_PREFIX}${body}${checkOf(body)}`;
}

/** Whether this message id is one the package made for a send (its check digits match). */
export function isOwnMessageId(id: unknown): boolean {
	if (typeof id !== 'string' || !OWN_ID.test(id)) return false;
	const body = id.slice(ID_PREFIX.length, ID_PREFIX.length + BODY_DIGITS);
	return id.slice(ID_PREFIX.length + BODY_DIGITS) === checkOf(body);
}
