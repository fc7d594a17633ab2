/**
 * Where the webhook secret travels: a query parameter of the registered URL (the one place
 * both dialects send back with every delivery) and, for a dialect that can add headers, a
 * header. The only module that puts the secret into a URL or takes it out again.
 */

/** Query parameter of the webhook URL that carries the secret. */
export const SECRET_PARAM = 'secret';
/** Header a dialect with webhook headers adds to every delivery. */
export const SECRET_HEADER = 'x-messaging-instance-secret';

/** The URL with the secret in its query. */
export function withSecret(url: string, secret: string): string {
	const parsed = new URL(url);
	parsed.searchParams.set(SECRET_PARAM, secret);
	return parsed.toString();
}

/** The URL without its secret, or undefined when the text is not a URL. */
export function withoutSecret(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		parsed.searchParams.delete(SECRET_PARAM);
		return parsed.toString();
	} catch {
		return undefined;
	}
}

/** The secret a URL carries, if it is a URL and carries one. */
export function secretInUrl(url: string): string | undefined {
	try {
		return new URL(url).searchParams.get(SECRET_PARAM) || undefined;
	} catch {
		return undefined;
	}
}
