import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IHookFunctions } from 'n8n-workflow';

import { askDeclared, declareHelperReads, FIND_WEBHOOK_READ, HelperAnswerError, type HelperRequest } from '../shared/helperRequests';
import { redactError } from '../shared/redact';
import { readWebhook, ROUTES } from '../shared/routes';
import type { Connection } from '../shared/transport';
import type { Registration } from './state';

/**
 * The registration's read of the instance's webhook (Find Webhook, v2 dialect), declared
 * (shared/helperRequests.ts): sent only through the one door and taken by the hostile tiers.
 * `null` is the real server's "no webhook stored"; anything else that is not a webhook record
 * (`{}`, a list, a text, `{ error }`, a wrapped record) stops publishing or unpublishing before
 * anything is set — it is never read as "nobody holds the instance", which would overwrite
 * another system's webhook without keeping it to put back.
 */
export const REGISTRATION_READS = declareHelperReads('messagingInstanceTrigger', {
	findWebhook: {
		...FIND_WEBHOOK_READ,
		name: "The read of the instance's webhook (Find Webhook)",
		unlessAnswered: 'the instance\'s webhook was left as it was',
	} satisfies HelperRequest,
});

/** The v2 dialect's stored webhook of the instance, or null (the documented dialect has no find route). */
export async function findWebhook(
	ctx: IHookFunctions,
	connection: Connection,
	instance: string,
	secrets: string[],
	whileRemoving = false,
): Promise<Registration | null> {
	if (!connection.dialect.hasWebhookFind) return null;
	let found: unknown;
	try {
		found = await askDeclared(ctx, connection, REGISTRATION_READS.findWebhook, { route: ROUTES.findWebhook.path, instance });
	} catch (error) {
		const odd = error instanceof HelperAnswerError ? new NodeOperationError(ctx.getNode(), error.message) : error;
		if (goneWhileRemoving(ctx, odd, instance, secrets, whileRemoving)) return null;
	}
	return readWebhook(found);
}

/**
 * A registration request that failed: true when it failed because the instance is gone while
 * the workflow is being unpublished (nothing is left to switch off, and the workflow must still
 * deactivate); otherwise the error is thrown, without the request's secrets.
 */
export function goneWhileRemoving(ctx: IHookFunctions, error: unknown, instance: string, secrets: string[], whileRemoving: boolean): true {
	const clean = redactError(error, secrets);
	if (!whileRemoving || !isGone(clean)) throw clean;
	ctx.logger.warn(`Messaging Instance Trigger: the instance "${instance}" no longer exists; nothing to switch off`);
	return true;
}

/** A 404 saying the instance does not exist. */
function isGone(error: unknown): boolean {
	return (
		error instanceof NodeApiError &&
		error.httpCode === '404' &&
		/instance does not exist/i.test(`${error.message} ${error.description ?? ''}`)
	);
}
