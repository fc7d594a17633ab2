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

/**
 * Query parameter of the webhook URL that names what its secret is derived over (workflow,
 * node and webhook ids, see ./secret.ts): the action node's Reply in the Chat derives the
 * secret from its own API key over these ids and compares, so only a trigger of this API key
 * receives a resume link. The ids are no secret; without the API key they give nothing.
 */
export const SCOPE_PARAM = 'secret_scope';

export interface UrlScope {
	workflowId: string;
	nodeId: string;
	webhookId: string;
}

/** The URL with the ids its secret is derived over. */
export function withScope(url: string, scope: UrlScope): string {
	const parsed = new URL(url);
	parsed.searchParams.set(SCOPE_PARAM, Buffer.from(JSON.stringify([scope.workflowId, scope.nodeId, scope.webhookId])).toString('base64url'));
	return parsed.toString();
}

/** The ids a URL says its secret is derived over, if it says them well-formed. */
export function scopeInUrl(url: string): UrlScope | undefined {
	try {
		const text = new URL(url).searchParams.get(SCOPE_PARAM);
		if (!text || text.length > 600) return undefined;
		const ids = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
		if (!Array.isArray(ids) || ids.length !== 3 || !ids.every((id) => typeof id === 'string' && id.length <= 150)) return undefined;
		return { workflowId: ids[0], nodeId: ids[1], webhookId: ids[2] };
	} catch {
		return undefined;
	}
}
