/**
 * The address users paste is often the manager page (`…/manager`) or ends in `/`; requests
 * must go to the server's root either way. Any other path is kept, since a reverse proxy
 * may serve the API below one.
 */
export function normaliseBaseUrl(raw: string): string {
	return raw
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/manager$/i, '')
		.replace(/\/+$/, '');
}

/** The same rule as an n8n expression, for the credential's declarative test request. */
export const BASE_URL_EXPRESSION =
	"={{ String($credentials.baseUrl).trim().replace(/\\/+$/, '').replace(/\\/manager$/i, '').replace(/\\/+$/, '') }}";
