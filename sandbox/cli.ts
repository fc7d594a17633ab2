/**
 * Sandbox command line.
 *
 *   tsx sandbox/cli.ts [--port 8080] [--host 127.0.0.1] [--dialect documented|v2] [--api-key KEY]
 *                      [--server-version 2.3.6|2.3.7|2.4.0] [--unlicensed]
 *                      [--instance demo[:TOKEN]]... [--state-file FILE [--fresh]] [--quiet]
 *       starts a sandbox server and keeps it running until SIGINT/SIGTERM. With --state-file
 *       it keeps its instances, webhooks, groups, labels and recent chat log in FILE across
 *       restarts (--fresh removes it first; a file it cannot read is reported, kept as
 *       FILE.corrupt and ignored). Port 8080 and a
 *       random API key by default; `npm start` runs its own sandbox (8181, DEV_SANDBOX_PORT,
 *       key sandbox-dev-api-key), so point --url at http://127.0.0.1:8181 to talk to that one.
 *
 *   tsx sandbox/cli.ts send --url http://127.0.0.1:8080 --instance demo --from 5511999990000
 *                      [--text "hello"] [--push-name Ana] [--image [path]] [--wait 5]
 *                      [--file report.pdf [--kind image|audio|video|document|sticker]] [--from-me]
 *       injects an incoming message into a running sandbox (POST /_sandbox/messages; with
 *       --from-me the phone's owner writes it in the chat with --from, as on the phone), then
 *       prints what the sandbox was asked to send to that contact in reply (waits at most
 *       --wait seconds, 5 by default; a workflow with Collect Burst answers after Quiet
 *       Seconds + 2 s, so give it --wait 15). Other requests (another run's Find Messages, a
 *       send to someone else) are not replies and are not listed.
 *
 *   tsx sandbox/cli.ts scan --url http://127.0.0.1:8080 --instance shop
 *       the phone scans the QR code of an instance that Instance → Connect left connecting
 *       (POST /_sandbox/scan): the instance turns open and CONNECTION_UPDATE is delivered.
 *
 *   tsx sandbox/cli.ts event --url http://127.0.0.1:8080 --instance demo connection|qrcode [--state open]
 *       injects a CONNECTION_UPDATE or QRCODE_UPDATED event (POST /_sandbox/events). It
 *       reaches a workflow only if its trigger watches that event; otherwise "why:" says so.
 */
import { readFileSync } from 'fs';
import { basename, extname } from 'path';
import { HELD_DELAY_MS, startSandbox, Dialect } from './server';
import { TINY_PNG_BASE64 } from './messages';
import { DEFAULT_SERVER_VERSION, SERVER_VERSIONS, ServerVersion, isServerVersion } from './versions';

interface Parsed {
	positional: string[];
	flags: Map<string, string[]>;
}

function parse(argv: string[]): Parsed {
	const positional: string[] = [];
	const flags = new Map<string, string[]>();
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a.startsWith('--')) {
			const eq = a.indexOf('=');
			const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
			let value = eq > 0 ? a.slice(eq + 1) : '';
			if (eq < 0 && i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
			flags.set(name, [...(flags.get(name) ?? []), value]);
		} else {
			positional.push(a);
		}
	}
	return { positional, flags };
}

function one(p: Parsed, name: string, fallback?: string): string | undefined {
	const v = p.flags.get(name);
	return v && v.length > 0 ? v[v.length - 1] : fallback;
}

function need(p: Parsed, name: string): string {
	const v = one(p, name);
	if (!v) fail(`missing --${name}`);
	return v;
}

function fail(message: string): never {
	process.stderr.write(`sandbox: ${message}\n`);
	process.exit(2);
}

const MIME: Record<string, string> = {
	'.pdf': 'application/pdf',
	'.txt': 'text/plain',
	'.mp4': 'video/mp4',
	'.mp3': 'audio/mpeg',
	// a voice note as the phone records it (the sandbox marks Ogg audio as ptt, as the chat page sends it)
	'.ogg': 'audio/ogg; codecs=opus',
	'.opus': 'audio/ogg; codecs=opus',
	'.m4a': 'audio/mp4',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
};

interface ControlAnswer {
	status: number;
	ok: boolean;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
}

async function post(url: string, path: string, body: unknown): Promise<ControlAnswer> {
	const res = await fetch(url.replace(/\/+$/, '') + path, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	let parsed: unknown = text;
	let out: unknown = text;
	try {
		parsed = JSON.parse(text);
		const p = parsed as { delivered?: unknown; error?: unknown };
		out = p.delivered ?? p.error ?? parsed;
	} catch {
		// print as it came
	}
	process.stdout.write(`${res.status} ${typeof out === 'string' ? out : JSON.stringify(out)}\n`);
	const hint = (parsed as { hint?: unknown } | undefined)?.hint;
	if (typeof hint === 'string') process.stdout.write(`  why: ${hint}\n`);
	if (!res.ok) process.exitCode = 1;
	return { status: res.status, ok: res.ok, body: parsed };
}

interface SeenRequest {
	method: string;
	path: string;
	status: number;
	rawBody: string;
	at: number;
}

/** `5 s` for whole seconds, else `1500 ms`. */
function duration(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The phone number a request sends to (its body's `number`, digits only), if it sends to one. */
function recipientOf(rawBody: string): string | undefined {
	try {
		const number = (JSON.parse(rawBody) as { number?: unknown }).number;
		return typeof number === 'string' || typeof number === 'number' ? String(number).split('@')[0].replace(/\D/g, '') : undefined;
	} catch {
		return undefined;
	}
}

/**
 * What the webhook said when it took the delivery, in words, from the answer's body as the
 * sandbox recorded it: the Messaging Instance Trigger answers `{"received": true, "resumed": n}`
 * when the message was the reply a waiting execution (Send and Wait's Reply in the Chat) took,
 * and `{"received": true, "ignored": "<why>"}` when it dropped the event.
 */
function webhookSaid(responseBody: unknown): string | undefined {
	let answer: unknown;
	try {
		answer = typeof responseBody === 'string' ? JSON.parse(responseBody) : undefined;
	} catch {
		return undefined;
	}
	if (!answer || typeof answer !== 'object') return undefined;
	const { resumed, ignored } = answer as { resumed?: unknown; ignored?: unknown };
	if (typeof resumed === 'number' && resumed > 0) {
		return `the trigger passed it to ${resumed === 1 ? 'a waiting execution' : `${resumed} waiting executions`} as the reply (Send and Wait's Reply in the Chat): that run goes on in n8n; no new run started`;
	}
	if (typeof ignored === 'string') return `the trigger dropped it: ${ignored}`;
	return undefined;
}

/**
 * The line for a delivered message that drew no reply: how the webhook answered (its status,
 * and what the trigger said it did), then what may explain the silence.
 */
function noReplyLine(status: number | undefined, responseBody: unknown, waitMs: number): string {
	const delivered = `delivered (HTTP ${status ?? '?'}); no reply within ${duration(waitMs)}`;
	const said = webhookSaid(responseBody);
	if (said) return `${delivered}: ${said}`;
	return `${delivered} — a workflow with Collect Burst answers only after the contact has been quiet (Quiet Seconds + 2 s, 10 s by default: give --wait 15), a waiting execution may have taken it (Send and Wait's Reply in the Chat), or the workflow does not reply`;
}

/**
 * Prints the requests the sandbox received from `since` on that send to `contact` (the
 * workflow's replies), waiting at most `waitMs`; stops 800 ms after the last one. Without any,
 * `silence` is printed (what the delivery's answer says happened).
 */
async function printReplies(url: string, since: number, waitMs: number, contact: string, silence: string): Promise<void> {
	const base = url.replace(/\/+$/, '');
	const deadline = Date.now() + waitMs;
	let shown = 0;
	let lastNew = Date.now();
	while (Date.now() < deadline && (shown === 0 || Date.now() - lastNew < 800)) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		const res = await fetch(`${base}/_sandbox/requests?since=${since}`);
		if (!res.ok) return;
		const seen = ((await res.json()) as SeenRequest[]).filter((r) => r.method === 'POST' && recipientOf(r.rawBody) === contact);
		for (const r of seen.slice(shown)) {
			const body = r.rawBody.length > 300 ? `${r.rawBody.slice(0, 300)}… (${r.rawBody.length} chars)` : r.rawBody;
			process.stdout.write(`  reply: ${r.method} ${r.path} -> ${r.status} ${body}\n`);
			lastNew = Date.now();
		}
		shown = Math.max(shown, seen.length);
	}
	if (shown === 0) process.stdout.write(`  ${silence} (see the chat page: ${base}/chat)\n`);
}

async function send(p: Parsed): Promise<void> {
	const url = need(p, 'url');
	const body: Record<string, unknown> = { instance: one(p, 'instance', 'demo'), from: need(p, 'from') };
	const text = one(p, 'text');
	if (text !== undefined) body.text = text;
	const pushName = one(p, 'push-name');
	if (pushName) body.pushName = pushName;
	// The phone's owner writes in the contact's chat (a fromMe upsert with a phone's message id).
	if (p.flags.has('from-me')) body.fromMe = true;
	if (p.flags.has('image')) {
		const path = one(p, 'image');
		body.media = path
			? { kind: 'image', mimetype: MIME[extname(path).toLowerCase()] ?? 'image/jpeg', base64: readFileSync(path).toString('base64'), caption: text }
			: { kind: 'image', mimetype: 'image/png', base64: TINY_PNG_BASE64, caption: text };
	}
	if (p.flags.has('file')) {
		const path = need(p, 'file');
		const mimetype = MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
		const guessed = mimetype.startsWith('image/') ? 'image' : mimetype.startsWith('video/') ? 'video' : mimetype.startsWith('audio/') ? 'audio' : 'document';
		const kind = one(p, 'kind', guessed) as string;
		if (!['image', 'audio', 'video', 'document', 'sticker'].includes(kind)) fail('--kind must be image, audio, video, document or sticker');
		body.media = { kind, mimetype, base64: readFileSync(path).toString('base64'), fileName: basename(path), caption: text };
	}
	if (body.text === undefined && body.media === undefined) fail('give --text, --image or --file');
	const waitSeconds = Number(one(p, 'wait', '5'));
	if (!Number.isFinite(waitSeconds) || waitSeconds < 0 || waitSeconds > 600) fail('--wait must be 0..600 seconds');
	const waitMs = Math.round(waitSeconds * 1000);
	const answer = await post(url, '/_sandbox/messages', body);
	const at = answer.body?.entry?.at;
	if (answer.body?.delivered?.ok === true && typeof at === 'number' && waitMs > 0) {
		const last = answer.body.delivery?.attempts?.at?.(-1);
		const contact = String(body.from).split('@')[0].replace(/\D/g, '');
		await printReplies(url, at, waitMs, contact, noReplyLine(answer.body.delivered.status, last?.responseBody, waitMs));
	}
}

async function event(p: Parsed): Promise<void> {
	const url = need(p, 'url');
	const kind = p.positional[1];
	const instance = one(p, 'instance', 'demo');
	if (kind === 'connection') {
		await post(url, '/_sandbox/events', { instance, event: 'CONNECTION_UPDATE', data: { state: one(p, 'state', 'open') } });
	} else if (kind === 'qrcode') {
		await post(url, '/_sandbox/events', { instance, event: 'QRCODE_UPDATED' });
	} else {
		fail('event needs "connection" or "qrcode"');
	}
}

async function scan(p: Parsed): Promise<void> {
	await post(need(p, 'url'), '/_sandbox/scan', { instance: one(p, 'instance', 'demo') });
}

async function serve(p: Parsed): Promise<void> {
	const dialect = one(p, 'dialect', 'documented');
	if (dialect !== 'documented' && dialect !== 'v2') fail('--dialect must be documented or v2');
	const version = one(p, 'server-version', DEFAULT_SERVER_VERSION);
	if (!isServerVersion(version)) fail(`--server-version must be one of ${SERVER_VERSIONS.join(', ')}`);
	const port = Number(one(p, 'port', '8080'));
	if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number');
	const instances = (p.flags.get('instance') ?? ['demo']).map((spec) => {
		const [name, token] = spec.split(':');
		if (!name) fail('--instance needs a name');
		return { name, token: token || undefined };
	});
	const quiet = p.flags.has('quiet');
	const sb = await startSandbox({
		port,
		host: one(p, 'host', '127.0.0.1'),
		dialect: dialect as Dialect,
		version: version as ServerVersion,
		licensed: !p.flags.has('unlicensed'),
		apiKey: one(p, 'api-key'),
		instances,
		maxDelayMs: HELD_DELAY_MS,
		stateFile: one(p, 'state-file') || undefined,
		fresh: p.flags.has('fresh'),
		log: quiet ? undefined : (line) => process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`),
	});
	const lines = [
		`Sandbox messaging server (${sb.dialect} dialect, Evolution API ${sb.version}${sb.licensed ? '' : ', not activated'}) listening on ${sb.url}`,
		`  API key:   ${sb.apiKey}`,
		...sb.instanceNames().map((name) => `  instance:  ${name} (own token ${sb.instanceToken(name)})`),
		...(sb.stateNote ? [`  NOTE:      ${sb.stateNote}`] : []),
		...(one(p, 'state-file') ? [`  saved in:  ${one(p, 'state-file')}${p.flags.has('fresh') ? ' (started fresh)' : ''}`] : []),
		`  chat page: ${sb.url}/chat`,
		`  state:     ${sb.url}/_sandbox/state`,
		`This is the standalone sandbox${one(p, 'api-key') ? '' : ' (random key each start)'}; \`npm start\` runs its own on port 8181 with the key sandbox-dev-api-key.`,
		'Press Ctrl+C to stop.',
	];
	process.stdout.write(lines.join('\n') + '\n');
	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: stopping the sandbox\n`);
		sb.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

async function main(): Promise<void> {
	const p = parse(process.argv.slice(2));
	if (p.flags.has('help') || p.positional[0] === 'help') {
		const head = readFileSync(__filename, 'utf8').split('*/')[0];
		process.stdout.write(head.replace(/^\/\*\*?|^ \* ?/gm, '') + '\n');
		return;
	}
	switch (p.positional[0]) {
		case undefined:
		case 'serve':
			return serve(p);
		case 'send':
			return send(p);
		case 'event':
			return event(p);
		case 'scan':
			return scan(p);
		default:
			fail(`unknown command "${p.positional[0]}" (serve, send, event, scan; --help)`);
	}
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
