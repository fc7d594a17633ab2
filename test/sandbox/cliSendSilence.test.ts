/**
 * `cli.ts send` when the workflow sends nothing back: the line says the message was delivered
 * (the webhook's status) and, from the webhook's own answer, what happened to it — the reply a
 * waiting execution took (the trigger answers `{"received": true, "resumed": 1}`), an event
 * the trigger dropped (`"ignored"`), or, when the answer says neither, what may explain it.
 */
import { createServer, Server } from 'http';
import type { AddressInfo } from 'net';
import { execFile } from 'child_process';
import { join } from 'path';
import type { Sandbox } from '../../sandbox/server';
import { ACCEPTED } from '../../nodes/MessagingInstanceTrigger/webhook';
import { call, start } from './helpers';

const ROOT = join(__dirname, '..', '..');

function cliSend(sb: Sandbox, text: string): Promise<{ code: number; stdout: string }> {
	const args = [join(ROOT, 'sandbox', 'cli.ts'), 'send', '--url', sb.url, '--instance', 'demo', '--from', '5511977776666', '--text', text, '--wait', '1'];
	return new Promise((resolve) => {
		execFile(join(ROOT, 'node_modules', '.bin', 'tsx'), args, { timeout: 20000 }, (err, stdout) => {
			resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout });
		});
	});
}

describe('cli send: a delivered message that draws no reply says what happened to it', () => {
	let sb: Sandbox;
	let hook: Server;
	/** What the stand-in for the trigger answers the next delivery (as the trigger's webhook does). */
	let answer: unknown = ACCEPTED;
	const received: string[] = [];

	beforeAll(async () => {
		sb = await start({ instances: [{ name: 'demo' }] });
		hook = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.message?.conversation);
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(answer));
			});
		});
		await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/webhook/abc`;
		const set = await call(sb, '/webhook/set/demo', { enabled: true, url, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] });
		expect(set.status).toBe(201);
	});

	afterAll(async () => {
		await sb.close();
		await new Promise<void>((resolve) => {
			hook.close(() => resolve());
			hook.closeAllConnections();
		});
	});

	it('the reply a waiting execution took (Send and Wait, Reply in the Chat): says so, not "no reply"', async () => {
		answer = { ...ACCEPTED, resumed: 1 };
		const sent = await cliSend(sb, 'Yes');
		expect(sent.code).toBe(0);
		expect(received.at(-1)).toBe('Yes');
		expect(sent.stdout.split('\n')).toEqual([
			'200 {"ok":true,"reason":"delivered","status":200,"attempts":1}',
			"  delivered (HTTP 200); no reply within 1 s: the trigger passed it to a waiting execution as the reply (Send and Wait's Reply in the Chat): " +
				`that run goes on in n8n; no new run started (see the chat page: ${sb.url}/chat)`,
			'',
		]);
	}, 30000);

	it('an event the trigger dropped: says why', async () => {
		answer = { ...ACCEPTED, ignored: 'own message' };
		const sent = await cliSend(sb, 'mine');
		expect(sent.stdout).toContain(`  delivered (HTTP 200); no reply within 1 s: the trigger dropped it: own message (see the chat page: ${sb.url}/chat)\n`);
	}, 30000);

	it('a workflow that started and sent nothing back: delivered, and what may explain the silence', async () => {
		answer = ACCEPTED;
		const sent = await cliSend(sb, 'hello?');
		expect(sent.stdout).toContain(
			"  delivered (HTTP 200); no reply within 1 s — a workflow with Collect Burst answers only after the contact has been quiet (Quiet Seconds + 2 s, 10 s by default: give --wait 15), a waiting execution may have taken it (Send and Wait's Reply in the Chat), or the workflow does not reply " +
				`(see the chat page: ${sb.url}/chat)\n`,
		);
		expect(sent.stdout).not.toContain('no reply within 1000 ms');
	}, 30000);
});
