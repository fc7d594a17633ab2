import type { IDataObject } from 'n8n-workflow';

import type { FoundWebhook } from '../shared/routes';
import { secretInUrl, SECRET_HEADER, withoutSecret, withSecret } from '../shared/secretUrl';

/**
 * The trigger's state between its hooks and its deliveries: the node's slice of the workflow's
 * static data, and how a registration is kept there (without the secret) and used again (with
 * the secret derived anew). Registration and delivery handling both read it from here.
 */

/**
 * What one Set Webhook call registered (or would register); its URL is the full one, with the
 * secret, except where the static data keeps it (`kept`).
 */
export type Registration = FoundWebhook;

/**
 * The node's own slice of the workflow's static data. It never holds this node's secret: the
 * registrations are kept without it (`kept`) and it is derived again when they are used
 * (`withDerivedSecret`).
 */
export interface TriggerStaticData extends IDataObject {
	/** A random secret stored by an earlier version; accepted until the derived one is registered. */
	secret?: string;
	/** What the production URL registered while the workflow is active. */
	production?: Registration;
	/** The webhook publishing replaced (Replace Existing Webhook), put back when the workflow is unpublished. */
	replaced?: Registration;
	/** A running "Listen for test event": its URL and what the instance had before. */
	test?: { url: string; registration: Registration; previous: Registration | null };
	/** Executions waiting for a chat's next message (waits.ts). */
	waits?: IDataObject[];
}

/** A registration as the static data keeps it: without this node's secret in the URL or the headers. */
export function kept(registration: Registration, secret: string): Registration {
	const ours = secretInUrl(registration.url) === secret;
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(registration.headers ?? {})) {
		if (name.toLowerCase() !== SECRET_HEADER && value !== secret) headers[name] = value;
	}
	return {
		...registration,
		url: ours ? (withoutSecret(registration.url) ?? registration.url) : registration.url,
		headers,
		...(ours ? { derivedSecret: true } : {}),
	};
}

/** A registration the static data kept, with this node's secret derived again where it had it. */
export function withDerivedSecret(registration: Registration, secret: string): Registration {
	// Kept by an earlier version with the secret in it, or marked as ours when it was kept.
	if (registration.derivedSecret !== true && !secretInUrl(registration.url)) return registration;
	const { derivedSecret: _ours, ...rest } = registration;
	return { ...rest, url: withSecret(registration.url, secret), headers: { ...registration.headers, [SECRET_HEADER]: secret } };
}

export function staticDataOf(ctx: { getWorkflowStaticData(type: string): IDataObject }): TriggerStaticData {
	return ctx.getWorkflowStaticData('node') as TriggerStaticData;
}
