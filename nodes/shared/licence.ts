/**
 * Evolution API 2.4 answers every route but its root, manager and licence pages with
 * `503 {"code":"LICENSE_REQUIRED","register_url":…}` until the server is activated, before it
 * checks the route or the key. That is not a failure of the request: it says what the server
 * lacks and how to give it, and the error says the same in those words.
 */
export const LICENCE_REQUIRED_CODE = 'LICENSE_REQUIRED';

/** The longest register address taken from the server's answer. */
const MAX_URL_LENGTH = 300;

export interface LicenceGate {
	message: string;
	description: string;
}

/** The register address the server gives, when it is a plain http(s) address. */
function registerUrlOf(body: Record<string, unknown>): string | undefined {
	const url = body.register_url;
	if (typeof url !== 'string' || url.length > MAX_URL_LENGTH || !/^https?:\/\/[^\s"<>]+$/i.test(url)) return undefined;
	return url;
}

/** The licence gate's answer told as such; undefined for any other answer. */
export function licenceGate(status: number | undefined, body: unknown): LicenceGate | undefined {
	if (status !== 503 || !body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const answer = body as Record<string, unknown>;
	if (answer.code !== LICENCE_REQUIRED_CODE) return undefined;
	const registerUrl = registerUrlOf(answer);
	const open = registerUrl ? `open ${registerUrl} and activate it there` : "open the server's /manager/login page and activate it there";
	return {
		message: `The server is not activated: Evolution API 2.4 needs a licence before it serves any request (HTTP 503 ${LICENCE_REQUIRED_CODE})`,
		description: `To activate the server, ${open}, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Nothing was sent.`,
	};
}

/**
 * The credential test's words for a 503. Its rules are static texts, so they cannot quote the
 * register address the server sends; that address is the server's own `/manager/login`.
 */
export const LICENCE_TEST_MESSAGE =
	"The server answered 503 (unavailable). An Evolution API 2.4 server answers so until it is activated (LICENSE_REQUIRED): open the server's /manager/login page (the Base URL followed by /manager/login) to activate it, or set a valid licensing key as AUTHENTICATION_API_KEY in the server's environment and restart it. Otherwise the server is down or overloaded: try again later.";
