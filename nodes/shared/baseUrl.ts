/**
 * The address users paste is often the manager page (`…/manager`) or ends in `/`; requests
 * must go to the server's root either way. Any other path is kept, since a reverse proxy
 * may serve the API below one. Linear in the length of the address, whatever it holds.
 */
export function normaliseBaseUrl(raw: string): string {
	let url = withoutTrailingSlashes(raw.trim());
	if (url.toLowerCase().endsWith('/manager')) url = withoutTrailingSlashes(url.slice(0, -'/manager'.length));
	return url;
}

function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 47) end--;
	return text.slice(0, end);
}

/**
 * The same rule as an n8n expression, for the credential's declarative test request: the
 * trailing-slash runs are cut by an anchored pattern that cannot backtrack (`[^/]` before).
 */
export const BASE_URL_EXPRESSION =
	"={{ String($credentials.baseUrl).trim().replace(/^(.*[^/])?\\/*$/, '$1').replace(/\\/manager$/i, '').replace(/^(.*[^/])?\\/*$/, '$1') }}";

/**
 * What is wrong with a (normalised) Base URL before any request, or undefined: an empty or
 * scheme-less address would otherwise read as an unreachable server.
 */
export function baseUrlProblem(url: string): { message: string; hint: string } | undefined {
	if (url === '') {
		return { message: 'The Base URL in the credential is empty', hint: 'Enter the server\'s root address, e.g. https://evolution.example.com.' };
	}
	if (!/^https?:\/\//i.test(url)) {
		return {
			message: 'The Base URL in the credential does not start with http:// or https://',
			hint: 'Write the address with its scheme, e.g. https://evolution.example.com instead of evolution.example.com.',
		};
	}
	try {
		new URL(url);
	} catch {
		return { message: 'The Base URL in the credential is not a valid address', hint: 'Check it for spaces or stray characters, e.g. https://evolution.example.com.' };
	}
	return undefined;
}
