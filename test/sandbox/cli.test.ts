/**
 * What a developer sees of the sandbox's own tools: the state route shows no webhook secret,
 * an event nobody subscribed says why and what to do, and `cli.ts send` prints the reply the
 * injected message caused.
 */
import { createServer, Server } from 'http';
import type { AddressInfo } from 'net';
import { execFile, spawn } from 'child_process';
import { join } from 'path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import type { Sandbox } from '../../sandbox/server';
import { call, start } from './helpers';

const ROOT = join(__dirname, '..', '..');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'sandbox', 'cli.ts'), ...args], { timeout: 20000 }, (err, stdout, stderr) => {
			resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
		});
	});
}

async function control(sb: Sandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
	const res = await fetch(sb.url + path, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: await res.json() };
}

describe('sandbox tools for developers', () => {
	let sb: Sandbox;
	let bot: Server;
	let botUrl = '';
	beforeAll(async () => {
		sb = await start({ instances: [{ name: 'demo' }] });
		// a stand-in for the n8n workflow: answers every incoming text with "echo: <text>"
		bot = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				res.end('{}');
				const delivery = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				if (delivery.event !== 'messages.upsert') return;
				const text = String(delivery.data.message.conversation);
				// another run's work at the same moment: a send to someone else, not a reply to this contact
				void call(sb, '/message/sendText/demo', { number: '5511900000000', text: 'to someone else' });
				// "later …" is answered as Collect Burst answers: after the contact has been quiet a while
				setTimeout(() => void call(sb, '/message/sendText/demo', { number: delivery.data.key.remoteJid.split('@')[0], text: `echo: ${text}` }), text.startsWith('later') ? 2500 : 0);
			});
		});
		await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve));
		botUrl = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/webhook/abc?secret=S3CRET-VALUE`;
		await call(sb, '/webhook/set/demo', { enabled: true, url: botUrl, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] });
	});
	afterAll(async () => {
		await sb.close();
		await new Promise<void>((resolve) => {
			bot.close(() => resolve());
			bot.closeAllConnections();
		});
	});

	it('GET /_sandbox/state shows the webhook URL with its query values masked', async () => {
		const r = await control(sb, 'GET', '/_sandbox/state');
		expect(r.body.instances[0].webhook.url).toBe(botUrl.replace('S3CRET-VALUE', '***'));
		expect(JSON.stringify(r.body)).not.toContain('S3CRET-VALUE');
	});

	it('an event the webhook does not subscribe: not delivered, and the answer says why and what to do', async () => {
		const r = await control(sb, 'POST', '/_sandbox/events', { instance: 'demo', event: 'CONNECTION_UPDATE' });
		expect(r.body.delivered).toEqual({ ok: false, reason: 'no webhook enabled for this event', attempts: 0 });
		expect(r.body.hint).toBe(
			'the webhook of instance "demo" subscribes MESSAGES_UPSERT, not CONNECTION_UPDATE: add CONNECTION_UPDATE to the trigger\'s Events ' +
				"and publish the workflow again (npm start's example watches MESSAGES_UPSERT only)",
		);
	});

	it('GET /_sandbox/requests?since= lists only the requests from then on', async () => {
		await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'before' });
		const since = Date.now() + 1;
		await new Promise((resolve) => setTimeout(resolve, 5));
		await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'after' });
		const r = await control(sb, 'GET', `/_sandbox/requests?since=${since}`);
		expect(r.body.map((x: { body: { text: string } }) => x.body.text)).toEqual(['after']);
	});

	it('cli send prints the delivery and the reply the workflow sent; cli event prints why it was not delivered', async () => {
		const sent = await cli(['send', '--url', sb.url, '--instance', 'demo', '--from', '5511988887777', '--text', 'hi there', '--wait', '4']);
		expect(sent.code).toBe(0);
		const lines = sent.stdout.trim().split('\n');
		expect(lines[0]).toBe('200 {"ok":true,"reason":"delivered","status":200,"attempts":1}');
		expect(lines[1]).toBe('  reply: POST /message/sendText/demo -> 201 {"number":"5511988887777","text":"echo: hi there"}');
		expect(lines).toHaveLength(2);

		// a reply that comes after --wait: the silence line names Collect Burst's wait; a longer --wait sees it
		const early = await cli(['send', '--url', sb.url, '--instance', 'demo', '--from', '5511988887001', '--text', 'later one', '--wait', '1']);
		expect(early.stdout.trim().split('\n')[1]).toMatch(/^ {2}delivered \(HTTP 200\); no reply within 1 s — a workflow with Collect Burst answers only after the contact has been quiet \(Quiet Seconds \+ 2 s, 10 s by default: give --wait 15\)/);
		const waited = await cli(['send', '--url', sb.url, '--instance', 'demo', '--from', '5511988887002', '--text', 'later two', '--wait', '6']);
		expect(waited.stdout.trim().split('\n').slice(1)).toEqual(['  reply: POST /message/sendText/demo -> 201 {"number":"5511988887002","text":"echo: later two"}']);

		const pdf = join(ROOT, 'LICENSE.md');
		const withFile = await cli(['send', '--url', sb.url, '--instance', 'demo', '--from', '5511988887777', '--file', pdf, '--kind', 'document', '--wait', '0']);
		expect(withFile.stdout.split('\n')[0]).toBe('200 {"ok":true,"reason":"delivered","status":200,"attempts":1}');
		const injected = sb.chat.filter((e) => e.direction === 'in').at(-1)!;
		expect(injected).toMatchObject({ kind: 'document', media: { mimetype: 'application/octet-stream', fileName: 'LICENSE.md' } });
		expect(sb.mediaOf('demo', injected.messageId!)!.bytes!.equals(readFileSync(pdf))).toBe(true);

		// An .ogg goes as the phone records a voice note, as the chat page's Voice note sends it.
		const dir = mkdtempSync(join(tmpdir(), 'cli-voice-'));
		const ogg = join(dir, 'note.ogg');
		writeFileSync(ogg, Buffer.from('OggS voice'));
		try {
			const voice = await cli(['send', '--url', sb.url, '--instance', 'demo', '--from', '5511988887777', '--file', ogg, '--wait', '0']);
			expect(voice.stdout.split('\n')[0]).toBe('200 {"ok":true,"reason":"delivered","status":200,"attempts":1}');
			const note = sb.chat.filter((e) => e.direction === 'in').at(-1)!;
			expect(note).toMatchObject({ kind: 'audio', media: { mimetype: 'audio/ogg; codecs=opus' } });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}

		const event = await cli(['event', '--url', sb.url, '--instance', 'demo', 'connection']);
		expect(event.stdout).toContain('"reason":"no webhook enabled for this event"');
		expect(event.stdout).toContain('  why: the webhook of instance "demo" subscribes MESSAGES_UPSERT, not CONNECTION_UPDATE');
	}, 30000);
});

describe('cli serve --state-file / --fresh', () => {
	/** Starts `cli.ts serve` on a free port; resolves with its output once it listens, then stops it. */
	function serve(args: string[]): Promise<{ stdout: string; url: string; stop: () => Promise<void> }> {
		const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'sandbox', 'cli.ts'), '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`cli serve did not start:\n${stdout}`)), 20000);
			child.stdout!.on('data', (c: Buffer) => {
				stdout += c.toString();
				const url = /listening on (\S+)/.exec(stdout)?.[1];
				if (url && stdout.includes('Press Ctrl+C')) {
					clearTimeout(timer);
					resolve({
						stdout,
						url,
						stop: async () => {
							child.kill('SIGTERM');
							await exited;
						},
					});
				}
			});
		});
	}

	it('keeps an instance made over HTTP across a restart, --fresh empties it, a corrupt file is reported', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-state-'));
		const file = join(dir, 'state.json');
		try {
			const first = await serve(['--dialect', 'v2', '--api-key', 'k', '--state-file', file]);
			expect(first.stdout).toContain(`saved in:  ${file}`);
			const made = await fetch(`${first.url}/instance/create`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', apikey: 'k' },
				body: JSON.stringify({ instanceName: 'kept', integration: 'WHATSAPP-BAILEYS' }),
			});
			expect(made.status).toBe(201);
			await first.stop();

			const again = await serve(['--dialect', 'v2', '--api-key', 'k', '--state-file', file]);
			expect(again.stdout).toMatch(/instance: {2}kept \(own token /);
			await again.stop();

			const fresh = await serve(['--dialect', 'v2', '--api-key', 'k', '--state-file', file, '--fresh']);
			expect(fresh.stdout).toContain('(started fresh)');
			expect(fresh.stdout).not.toContain('kept');
			await fresh.stop();

			writeFileSync(file, 'not json at all');
			const corrupt = await serve(['--dialect', 'v2', '--api-key', 'k', '--state-file', file]);
			expect(corrupt.stdout).toMatch(/NOTE: {6}the sandbox's saved state .* could not be read \(not JSON/);
			await corrupt.stop();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 60000);
});
