import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IHookFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { webhookBody, type Dialect } from '../shared/dialect';
import { redactError, secretsIn, secretsOfUrl } from '../shared/redact';
import { ROUTES } from '../shared/routes';
import { apiRequest, openConnection, type Connection } from '../shared/transport';
import { readOptions } from './description';
import { instanceNameOf } from './instance';
import { forgetSettings } from './deliverySettings';
import { deriveSecret, secretScopeOf } from '../shared/secret';
import { secretInUrl, SECRET_HEADER, withoutSecret, withScope, withSecret } from '../shared/secretUrl';
import { kept, staticDataOf, withDerivedSecret, type Registration, type TriggerStaticData } from './state';
import { findWebhook, goneWhileRemoving } from './webhookRead';
import { forgetRegistered, heldByTriggerError, heldElsewhereError, holderOf, noteRegistered, registeredHere } from './holder';

/**
 * How the trigger keeps the instance's webhook pointing at itself.
 *
 * The secret is derived from the credential's API key and the node's ids (secret.ts), so
 * restarts and re-activations register the same URL and every process can check a delivery
 * before any static data is stored. It travels in the webhook URL as a query parameter, the
 * one place both dialects send back with every delivery; a dialect that supports webhook
 * headers also gets it as a header.
 */

interface Settings {
	connection: Connection;
	/** The webhook secret derived for this node (secret.ts). */
	secret: string;
	instance: string;
	events: string[];
	base64: boolean;
	/** Publishing may take over a webhook that points elsewhere (holder.ts). */
	replaceExisting: boolean;
}

/** Reads and checks the parameters; an event the credential's dialect does not know is an input error. */
async function readSettings(ctx: IHookFunctions): Promise<Settings> {
	const node = ctx.getNode();
	const instance = instanceNameOf(ctx);
	if (instance === '') {
		throw new NodeOperationError(node, 'The "Instance" parameter is empty', {
			description: 'Pick the instance whose events should start this workflow from the list, or enter its name.',
		});
	}
	const events = (ctx.getNodeParameter('events', []) as string[]).filter(Boolean);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Choose at least one event', {
			description: 'The server needs at least one event to deliver; Messages Upsert is an incoming message.',
		});
	}
	const connection = await openConnection(ctx);
	const unknown = events.filter((event) => !connection.dialect.events.has(event));
	if (unknown.length > 0) {
		throw new NodeOperationError(
			node,
			`The ${connection.dialect.label} dialect has no event ${unknown.join(', ')}`,
			{
				description: `Remove ${unknown.length === 1 ? 'this event' : 'these events'} from "Events", or pick the other dialect in the credential if your server speaks it.`,
			},
		);
	}
	const secret = secretFor(ctx, connection);
	if (!secret) {
		throw new NodeOperationError(node, 'The credential has no API key', {
			description: 'Enter the API key in the credential: the server needs it, and the trigger derives its webhook secret from it.',
		});
	}
	const options = readOptions(ctx.getNodeParameter('options', {}));
	return { connection, secret, instance, events, base64: options.mediaAsBinary, replaceExisting: options.replaceExistingWebhook };
}

function registrationFor(settings: Settings, baseUrl: string, secret: string): Registration {
	return {
		enabled: true,
		url: withSecret(baseUrl, secret),
		events: settings.events,
		base64: settings.base64,
		// Never per-event URLs: the server would append `/messages-upsert` to the URL, which
		// lands after our `?secret=…` query and so breaks both the path and the secret.
		byEvents: false,
		headers: { [SECRET_HEADER]: secret },
	};
}

function apiKeyOf(connection: Connection): string {
	return connection.apiKey;
}

function secretFor(ctx: IHookFunctions, connection: Connection): string | undefined {
	return deriveSecret(apiKeyOf(connection), secretScopeOf(ctx.getWorkflow(), ctx.getNode()));
}

function bodyOf(dialect: Dialect, registration: Registration, enabled: boolean): IDataObject {
	return webhookBody(dialect, {
		enabled,
		url: registration.url,
		webhookByEvents: registration.byEvents,
		webhookBase64: registration.base64,
		events: registration.events,
		// Always sent, even empty: a v2 server keeps the stored headers when the body has none,
		// and a webhook put back must not keep our secret header.
		headers: dialect.supportsWebhookHeaders ? (registration.headers ?? {}) : undefined,
	});
}

/** Every secret an error of these calls could echo, to hide from it: the key, the secrets, any header value. */
function secretsToHide(
	ctx: IHookFunctions,
	connection: Connection,
	data: TriggerStaticData,
	...registrations: Array<Registration | null | undefined>
): string[] {
	const secrets = new Set<string>([apiKeyOf(connection), ...secretsOfUrl(connection.baseUrl)]);
	for (const secret of [secretFor(ctx, connection), data.secret]) if (secret) secrets.add(secret);
	for (const registration of registrations) {
		if (!registration) continue;
		for (const value of secretsIn({ headers: registration.headers ?? {} })) secrets.add(value);
		const secret = secretInUrl(registration.url);
		if (secret) secrets.add(secret);
	}
	secrets.delete('');
	return [...secrets];
}

async function call(
	ctx: IHookFunctions,
	connection: Connection,
	instance: string,
	request: { method: IHttpRequestMethods; route: string; body?: IDataObject },
	secrets: string[],
	whileRemoving = false,
): Promise<unknown> {
	try {
		return await apiRequest(ctx, connection, { ...request, instance });
	} catch (error) {
		goneWhileRemoving(ctx, error, instance, secrets, whileRemoving);
		return GONE;
	}
}

const GONE = Symbol('instance gone');

async function setWebhook(
	ctx: IHookFunctions,
	settings: Pick<Settings, 'connection' | 'instance'>,
	registration: Registration,
	enabled: boolean,
	secrets: string[],
	whileRemoving = false,
): Promise<void> {
	await call(
		ctx,
		settings.connection,
		settings.instance,
		{ method: ROUTES.setWebhook.method, route: ROUTES.setWebhook.path, body: bodyOf(settings.connection.dialect, registration, enabled) },
		secrets,
		whileRemoving,
	);
}

function sameRegistration(a: Registration, b: Registration): boolean {
	const events = new Set(a.events);
	return (
		a.enabled === b.enabled &&
		a.url === b.url &&
		a.base64 === b.base64 &&
		a.byEvents === b.byEvents &&
		a.events.length === b.events.length &&
		b.events.every((event) => events.has(event)) &&
		Object.entries(a.headers).every(([key, value]) => b.headers[key] === value)
	);
}

/** "Listen for test event" runs the hooks in manual mode with the test URL. */
function isTestRun(ctx: IHookFunctions): boolean {
	return ctx.getMode() === 'manual' || ctx.getActivationMode() === 'manual';
}

function webhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave this trigger no webhook URL');
	return url;
}

function currentUrl(ctx: IHookFunctions): string {
	// The ids the secret is derived over go with it: the action node verifies a trigger by them.
	return withScope(webhookUrl(ctx), secretScopeOf(ctx.getWorkflow(), ctx.getNode()));
}

/**
 * Publishing: whether this trigger may take the instance's webhook (holder.ts), remembering
 * in `data.replaced` what it takes over so unpublishing puts it back; an error when it may not.
 * A v2 server is asked (Find Webhook); the documented dialect has no such route, so only the
 * triggers this process registered are known.
 */
async function claimInstance(ctx: IHookFunctions, settings: Settings, data: TriggerStaticData, secrets: string[]): Promise<void> {
	const { connection, instance } = settings;
	const found = connection.dialect.hasWebhookFind
		? await findWebhook(ctx, connection, instance, secrets)
		: registeredHere(connection.baseUrl, instance);
	const holder = holderOf(found, webhookUrl(ctx), secretScopeOf(ctx.getWorkflow(), ctx.getNode()));
	const hide = [...secrets, ...secretsToHide(ctx, connection, data, found)];
	if (holder.kind === 'ours') return;
	if (holder.kind === 'trigger' && holder.enabled) {
		throw redactError(heldByTriggerError(ctx.getNode(), instance, holder, String(ctx.getWorkflow().id ?? ''), ctx.getInstanceBaseUrl()), hide);
	}
	if (holder.kind !== 'foreign' || !found) {
		// None, or a trigger's switched off: taken, nothing to put back.
		delete data.replaced;
		return;
	}
	if (holder.enabled && !settings.replaceExisting) throw redactError(heldElsewhereError(ctx.getNode(), instance, holder.address), hide);
	// Another system's webhook (on, or off): put back as it was when this workflow is unpublished.
	data.replaced = kept(found, settings.secret);
}

export async function webhookExists(ctx: IHookFunctions): Promise<boolean> {
	// A test run always registers (and remembers what it replaces, to put it back).
	if (isTestRun(ctx)) return false;
	const data = staticDataOf(ctx);
	if (!data.production) return false;
	const settings = await readSettings(ctx);
	// A dialect without a find route cannot be asked what is registered; Set Webhook replaces
	// the instance's webhook, so registering again is harmless and keeps activation idempotent.
	if (!settings.connection.dialect.hasWebhookFind) return false;
	const wanted = registrationFor(settings, currentUrl(ctx), settings.secret);
	const found = await findWebhook(
		ctx,
		settings.connection,
		settings.instance,
		secretsToHide(ctx, settings.connection, data, wanted),
	);
	if (!found || !sameRegistration(wanted, found)) return false;
	data.production = kept(wanted, settings.secret);
	return true;
}

/** What deliveries kept of this node's settings is read again after (de)activation. */
function forgetDeliverySettings(ctx: IHookFunctions): void {
	forgetSettings(String(ctx.getWorkflow().id ?? ''), ctx.getNode().id);
}

export async function createWebhook(ctx: IHookFunctions): Promise<boolean> {
	forgetDeliverySettings(ctx);
	const settings = await readSettings(ctx);
	const data = staticDataOf(ctx);
	const url = currentUrl(ctx);
	const registration = registrationFor(settings, url, settings.secret);
	const secrets = secretsToHide(ctx, settings.connection, data, registration, data.production);

	if (isTestRun(ctx)) {
		// One webhook per instance: remember what the test URL replaces, to restore it after.
		const found = await findWebhook(ctx, settings.connection, settings.instance, secrets);
		const previous =
			settings.connection.dialect.hasWebhookFind
				? found && withoutSecret(found.url) !== url
					? found
					: null
				: (data.production ?? null);
		data.test = {
			url,
			registration: kept(registration, settings.secret),
			previous: previous ? kept(previous, settings.secret) : null,
		};
	} else {
		await claimInstance(ctx, settings, data, secrets);
		data.production = kept(registration, settings.secret);
	}
	await setWebhook(ctx, settings, registration, true, secrets);
	if (!isTestRun(ctx)) noteRegistered(settings.connection.baseUrl, settings.instance, url, secretScopeOf(ctx.getWorkflow(), ctx.getNode()));
	// The derived secret is registered now: a random one an earlier version stored is not needed.
	delete data.secret;
	return true;
}

/** Whether two webhook URLs are the same address, whatever secret each carries. */
function sameAddress(a: string, b: string): boolean {
	return (withoutSecret(a) ?? a) === (withoutSecret(b) ?? b);
}

async function deleteTest(
	ctx: IHookFunctions,
	data: TriggerStaticData,
	test: NonNullable<TriggerStaticData['test']>,
): Promise<void> {
	const connection = await openConnection(ctx);
	const instance = instanceNameOf(ctx);
	const settings = { connection, instance };
	const secret = secretFor(ctx, connection) ?? '';
	const registration = withDerivedSecret(test.registration, secret);
	const previous = test.previous ? withDerivedSecret(test.previous, secret) : null;
	const secrets = secretsToHide(ctx, connection, data, registration, previous, data.production);
	const found = await findWebhook(ctx, connection, instance, secrets, true);
	if (connection.dialect.hasWebhookFind && found && !sameAddress(found.url, registration.url)) {
		// Someone registered another URL during the test: theirs stays.
		return;
	}
	await putBack(ctx, settings, registration, previous, secrets);
}

/**
 * Gives the instance back: the webhook ours replaced, exactly as it was (URL, events, headers,
 * on or off, by-events, base64), or else ours switched off (same URL and the same non-empty
 * event list, so the body stays valid).
 */
async function putBack(
	ctx: IHookFunctions,
	settings: Pick<Settings, 'connection' | 'instance'>,
	registration: Registration,
	previous: Registration | null,
	secrets: string[],
): Promise<void> {
	if (previous && previous.events.length > 0) {
		await setWebhook(ctx, settings, previous, previous.enabled, secrets, true);
	} else {
		await setWebhook(ctx, settings, registration, false, secrets, true);
	}
}

async function deleteProduction(ctx: IHookFunctions, data: TriggerStaticData): Promise<void> {
	if (!data.production) return;
	const connection = await openConnection(ctx);
	const registration = withDerivedSecret(data.production, secretFor(ctx, connection) ?? '');
	const instance = instanceNameOf(ctx);
	const scope = secretScopeOf(ctx.getWorkflow(), ctx.getNode());
	const replaced = data.replaced ?? null;
	const secrets = secretsToHide(ctx, connection, data, registration, replaced);
	if (connection.dialect.hasWebhookFind) {
		const found = await findWebhook(ctx, connection, instance, secrets, true);
		// The instance's webhook is no longer ours (or there is none): nothing to switch off.
		if (!found || !sameAddress(found.url, registration.url)) return;
	} else if (holderOf(registeredHere(connection.baseUrl, instance), webhookUrl(ctx), scope).kind === 'trigger') {
		// Another trigger of this n8n registered the instance after ours: it relies on it now.
		return;
	}
	forgetRegistered(connection.baseUrl, instance, scope);
	await putBack(ctx, { connection, instance }, registration, replaced, secrets);
}

export async function deleteWebhook(ctx: IHookFunctions): Promise<boolean> {
	forgetDeliverySettings(ctx);
	const data = staticDataOf(ctx);
	const url = currentUrl(ctx);
	if (data.test && data.test.url === url) {
		const test = data.test;
		await deleteTest(ctx, data, test);
		delete data.test;
		return true;
	}
	await deleteProduction(ctx, data);
	delete data.production;
	delete data.replaced;
	return true;
}
