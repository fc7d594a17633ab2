import type { IExecuteFunctions, IHookFunctions, ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';

import { V2_EVENTS_SINCE, compareVersions } from './dialect';

/**
 * How the node knows the server's version.
 *
 * Most operations do not care: their routes and bodies are the same on 2.3.6, 2.3.7 and 2.4.
 * Only an operation that needs a version fact (a route 2.4 added) asks for it, and then the
 * cheapest predictable answer wins:
 *
 * - the credential's "Server Version" when the user fixed it: no request at all, and the
 *   same answer on every run (useful behind a proxy that hides `GET /`, or to test a
 *   workflow against the version it will meet in production);
 * - otherwise ("Detect Automatically", the default) `GET /`, the server's root, which every
 *   2.x server answers without a key and before its licence gate with `{ version }`. It is
 *   asked at most once per node run and only when an operation needs the version; the
 *   answer is kept on the run's connection.
 *
 * A root that cannot be read (a proxy, an older server, no `version`) leaves the version
 * unknown: the node then sends as usual and explains a 404 from a newer route instead.
 */
export const SERVER_VERSION_AUTO = 'auto';

/** The versions a user can fix in the credential, newest last. */
export const SERVER_VERSIONS = ['2.3.6', '2.3.7', '2.4.0'] as const;

export const serverVersionProperty: INodeProperties = {
	displayName: 'Server Version',
	name: 'serverVersion',
	type: 'options',
	displayOptions: { show: { dialect: ['v2'] } },
	default: SERVER_VERSION_AUTO,
	options: [
		{
			name: 'Detect Automatically',
			value: SERVER_VERSION_AUTO,
			description: "Ask the server's root address (GET /) once per run, only when an operation needs the version",
		},
		{ name: 'Evolution API 2.3.6', value: '2.3.6' },
		{ name: 'Evolution API 2.3.7', value: '2.3.7' },
		{ name: 'Evolution API 2.4.x', value: '2.4.0', description: 'Also every 2.4 release candidate' },
	],
	description:
		'Which version the server runs. Operations that need a newer server fail before sending on an older one, naming the version they need.',
};

/** How long the root address may take to answer before the version counts as unknown. */
const ROOT_TIMEOUT_MS = 10_000;

/** The longest version string taken from a server's answer. */
const MAX_VERSION_LENGTH = 40;

const VERSION_PATTERN = /^\d+\.\d+(\.\d+)?(-[0-9A-Za-z.]+)?$/;

/** A version string as a server or the credential gives it, or undefined when it is not one. */
export function parseVersion(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const version = value.trim();
	return version.length <= MAX_VERSION_LENGTH && VERSION_PATTERN.test(version) ? version : undefined;
}

/** What the version lookup needs of the run's connection. */
export interface VersionSource {
	readonly baseUrl: string;
	/** The credential's Server Version setting: `auto` or a version. */
	readonly serverVersion?: string;
}

type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions;

/** One lookup per connection (one per node run); the same promise answers every item. */
const lookups = new WeakMap<VersionSource, Promise<string | undefined>>();

async function askRoot(ctx: RequestContext, baseUrl: string): Promise<string | undefined> {
	try {
		// No API key: the root is public on these servers, and the key stays on the routes that need it.
		const answer = (await ctx.helpers.httpRequest({
			method: 'GET',
			url: `${baseUrl}/`,
			json: true,
			disableFollowRedirect: true,
			timeout: ROOT_TIMEOUT_MS,
			abortSignal: AbortSignal.timeout(ROOT_TIMEOUT_MS),
		})) as unknown;
		return answer && typeof answer === 'object' ? parseVersion((answer as { version?: unknown }).version) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The server's version: the credential's fixed one, or what `GET /` answers (asked once per
 * connection), or undefined when neither says.
 */
export function serverVersionOf(ctx: RequestContext, connection: VersionSource): Promise<string | undefined> {
	const fixed = parseVersion(connection.serverVersion);
	if (fixed !== undefined) return Promise.resolve(fixed);
	let lookup = lookups.get(connection);
	if (!lookup) {
		lookup = askRoot(ctx, connection.baseUrl);
		lookups.set(connection, lookup);
	}
	return lookup;
}

/** How a sentence names the servers from a version on: "Evolution API 2.4 or newer", "Evolution API 2.3.7 or newer". */
export function versionOrNewer(minimum: string): string {
	const [major, minor, patch] = minimum.split('-')[0].split('.');
	return `Evolution API ${major}.${minor ?? '0'}${patch !== undefined && patch !== '0' ? `.${patch}` : ''} or newer`;
}

/** Whether a known version is older than the minimum (unknown versions are never refused). */
export function isOlder(version: string | undefined, minimum: string): boolean {
	return version !== undefined && compareVersions(version, minimum) < 0 && !sameRelease(version, minimum);
}

/** `2.4.0-rc2` is the 2.4.0 release for this purpose: release candidates serve its routes. */
function sameRelease(version: string, minimum: string): boolean {
	return version.split('-')[0] === minimum.split('-')[0];
}

/**
 * A 404 from a route a newer server added, said as what it most likely is. An unknown
 * instance answers 404 too, and keeps its own message.
 */
export function explainMissingRoute<E extends Error & { description?: string | null; httpCode?: string | null }>(
	error: E,
	operationName: string,
	minimum: string,
	forAgent: boolean,
): E {
	if (error.httpCode !== '404' || /instance does not exist/i.test(error.message)) return error;
	const message = `${operationName} needs ${versionOrNewer(minimum)}: the server does not know its route (HTTP 404)`;
	const hint = `Upgrade the server to ${versionOrNewer(minimum).replace(' or newer', '')} or newer, or check the Base URL in the credential.`;
	error.message = forAgent ? `${message}. ${hint}` : message;
	error.description = forAgent ? undefined : hint;
	return error;
}

/** The release that added the carousel, played receipts, poll tallies, channels and member add mode. */
export const EVOLUTION_2_4 = '2.4.0';

/** Whether a list of event names holds one that only some v2 versions know. */
export function hasVersionedEvent(events: unknown): boolean {
	return Array.isArray(events) && events.some((event) => typeof event === 'string' && V2_EVENTS_SINCE[event] !== undefined);
}
