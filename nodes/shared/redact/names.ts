/**
 * Secrets found by a field's name: the value under a key that names a secret (`token`,
 * `apikey`, `authorization`, `password`, `clientSecret`, …, compared case-insensitively without
 * `-`/`_`), and the values of a `headers` object except harmless ones.
 */

/** Key names whose value is a secret, normalised (lower case, no `-`, `_`, `.` or spaces). */
const SECRET_NAMES = new Set([
	'token',
	'apikey',
	'xapikey',
	'apitoken',
	'accesstoken',
	'authtoken',
	'bearertoken',
	'instancetoken',
	'refreshtoken',
	'idtoken',
	'sessiontoken',
	'authorization',
	'proxyauthorization',
	'cookie',
	'setcookie',
	'password',
	'passwd',
	// an instance's integrations as instance records carry them (Chatwoot token, proxy password)
	'chatwoottoken',
	'proxypassword',
	// a chatbot's basic authentication (n8n bots): the server names it either way
	'basicauthpass',
	'basicauthpassword',
	'secret',
	'clientsecret',
	'webhooksecret',
	'secretaccesskey',
	'accesskeyid',
	'privatekey',
	'xmessaginginstancesecret',
]);

/** Headers that carry no secret and stay readable inside a `headers` object. */
const HARMLESS_HEADERS = new Set([
	'accept',
	'acceptencoding',
	'acceptlanguage',
	'contenttype',
	'contentlength',
	'contentencoding',
	'useragent',
	'host',
	'connection',
	'date',
	'location',
	'retryafter',
]);

function normalisedName(key: string): string {
	return key.length > 64 ? '' : key.toLowerCase().replace(/[-_.\s]/g, '');
}

/** What a field's name says about its value (bits, so that one cached number says all). */
const SECRET_NAME = 1;
const HEADERS_NAME = 2;
const HARMLESS_HEADER_NAME = 4;

/** Field names seen before, with what each says: the same few names come in every item and delivery. */
const nameCache = new Map<string, number>();
const MAX_CACHED_NAMES = 4_096;

function nameKind(key: string): number {
	let kind = nameCache.get(key);
	if (kind === undefined) {
		const name = normalisedName(key);
		kind =
			(SECRET_NAMES.has(name) ? SECRET_NAME : 0) |
			(name === 'headers' ? HEADERS_NAME : 0) |
			(HARMLESS_HEADERS.has(name) ? HARMLESS_HEADER_NAME : 0);
		if (key.length <= 64) {
			if (nameCache.size >= MAX_CACHED_NAMES) nameCache.clear();
			nameCache.set(key, kind);
		}
	}
	return kind;
}

/** Whether a field of this name holds a secret whatever its value says. */
export function isSecretName(key: string): boolean {
	return (nameKind(key) & SECRET_NAME) !== 0;
}

export function isHeadersName(key: string): boolean {
	return (nameKind(key) & HEADERS_NAME) !== 0;
}

export function isHarmlessHeader(key: string): boolean {
	return (nameKind(key) & HARMLESS_HEADER_NAME) !== 0;
}
