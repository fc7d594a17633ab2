import { createServer, IncomingMessage, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, Sandbox, SandboxOptions } from '../../sandbox/server';
import type { ServerVersion } from '../../sandbox/versions';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium';

export interface CallResult {
	status: number;
	text: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	headers: Headers;
}

export interface CallOptions {
	key?: string | null;
	method?: string;
	raw?: string;
	headers?: Record<string, string>;
}

/** Calls the sandbox like a client would: POST JSON with the global key unless told otherwise. */
export async function call(sb: Sandbox, path: string, body?: unknown, opts: CallOptions = {}): Promise<CallResult> {
	const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(opts.headers ?? {}) };
	const key = opts.key === undefined ? sb.apiKey : opts.key;
	if (key !== null) headers.apikey = key;
	const method = opts.method ?? 'POST';
	const res = await fetch(sb.url + path, {
		method,
		headers,
		body: method === 'GET' ? undefined : (opts.raw ?? (body === undefined ? undefined : JSON.stringify(body))),
	});
	const text = await res.text();
	let parsed: unknown;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		parsed = text;
	}
	return { status: res.status, text, body: parsed, headers: res.headers };
}

export function validation(...messages: string[]): unknown {
	return { status: 400, error: 'Bad Request', response: { message: [messages] } };
}

export function service(message: unknown): unknown {
	return { status: 400, error: 'Bad Request', response: { message: [message] } };
}

export interface Received {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
}

export interface Receiver {
	url: string;
	received: Received[];
	/** status codes to answer, one per request, then 200 */
	statuses: number[];
	close(): Promise<void>;
}

/** A tiny HTTP server that receives webhook deliveries. */
export async function startReceiver(): Promise<Receiver> {
	const received: Received[] = [];
	const statuses: number[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body: unknown = raw;
			try {
				body = JSON.parse(raw);
			} catch {
				// keep raw
			}
			received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
			const status = statuses.shift() ?? 200;
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ ok: status < 300 }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		statuses,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

export function start(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({ delivery: { attempts: 3, backoffMs: 5, timeoutMs: 2000 }, ...options });
}

export const ID = /^3EB0[0-9A-F]{18}$/;
export const SECONDS = /^\d{10}$/;

/**
 * Chromium (scripts/chromium.ts: $CHROMIUM_PATH, Debian's, or Playwright's own) driven by
 * playwright-core, for the chat-page tests. `chromiumSuite` is describe, or without a browser
 * outside CI a describe.skip whose title says why (the run's end lists every skipped test,
 * test/reporters/skipped.js); in CI a missing browser fails the suite.
 */
const browserSearch = findChromium();
export const haveChromium = browserSearch.path !== undefined;
export function chromiumSuite(name: string, fn: () => void): void {
	if (haveChromium || process.env.CI === 'true') describe(name, fn);
	else describe.skip(`${name} [SKIPPED: ${browserSearch.missing}]`, fn);
}

export interface ChatBrowser {
	browser: Browser;
	page: Page;
	/** errors the page threw */
	pageErrors: string[];
	/** opens the chat page of an instance and waits until it is live */
	open(sb: Sandbox, instance: string): Promise<void>;
}

export async function launchChatBrowser(viewport = { width: 1000, height: 800 }): Promise<ChatBrowser> {
	if (!browserSearch.path) throw new Error(`CI=true and ${browserSearch.missing}`);
	const { chromium } = await import('playwright-core');
	// Playwright gives every launch a fresh temporary profile (user data dir) and removes it on close.
	const browser = await chromium.launch({ executablePath: browserSearch.path, args: CHROMIUM_ARGS, timeout: 30000 });
	const page = await browser.newPage({ viewport });
	const pageErrors: string[] = [];
	page.on('pageerror', (e) => pageErrors.push(e.message));
	return {
		browser,
		page,
		pageErrors,
		async open(sb, instance) {
			await page.goto(`${sb.url}/chat?instance=${encodeURIComponent(instance)}`);
			await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10000 });
		},
	};
}

/** Runs `run` against a fresh v2 sandbox playing `version`, closed afterwards. */
export async function withVersion(version: ServerVersion, run: (sb: Sandbox) => Promise<void>, opts: SandboxOptions = {}): Promise<void> {
	const sb = await startSandbox({ dialect: 'v2', version, ...opts });
	try {
		await run(sb);
	} finally {
		await sb.close();
	}
}
