/**
 * The sandbox keeps its data across restarts when given a state file, as a real server keeps
 * its database: instances (with their own token), webhooks, groups, labels on chats and the
 * chat log come back; `fresh` starts empty; a file that is not a state is reported, kept
 * aside, and the server starts without it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Sandbox } from '../../sandbox/server';
import { MAX_STATE_BYTES } from '../../sandbox/store';
import { call, start } from './helpers';

describe('sandbox state file', () => {
	let dir = '';
	let file = '';
	const open: Sandbox[] = [];
	const startWith = async (extra: { fresh?: boolean } = {}) => {
		const sb = await start({ dialect: 'v2', apiKey: 'state-test-key', instances: [{ name: 'demo' }], stateFile: file, ...extra });
		open.push(sb);
		return sb;
	};
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
		file = path.join(dir, 'sandbox-state.json');
	});
	afterEach(async () => {
		for (const sb of open.splice(0)) await sb.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	async function makeThings(sb: Sandbox): Promise<{ token: string; groupId: string; hook: string }> {
		const created = await call(sb, '/instance/create', { instanceName: 'shop', qrcode: false, integration: 'WHATSAPP-BAILEYS' });
		expect(created.status).toBe(201);
		const group = await call(sb, '/group/create/shop', { subject: 'Team', participants: ['5511912345678'] });
		expect(group.status).toBe(201);
		const label = await call(sb, '/label/handleLabel/shop', { number: '5511912345678', labelId: '2', action: 'add' });
		expect(label.status).toBe(200);
		const hook = 'http://127.0.0.1:5678/webhook/abc/webhook';
		const set = await call(sb, '/webhook/set/shop', { webhook: { enabled: true, url: hook, events: ['MESSAGES_UPSERT'], byEvents: false, base64: false } });
		expect(set.status).toBe(201);
		const sent = await call(sb, '/message/sendText/shop', { number: '5511912345678', text: 'kept across restarts' });
		expect(sent.status).toBe(201);
		return { token: created.body.hash, groupId: group.body.id, hook };
	}

	it('a restart finds the instance (same token), its group, its chat label, its webhook and its chat log', async () => {
		const first = await startWith();
		const made = await makeThings(first);
		await first.close();
		const written = JSON.parse(fs.readFileSync(file, 'utf8'));
		expect(written.instances.map((i: { name: string }) => i.name).sort()).toEqual(['demo', 'shop']);

		const again = await startWith();
		expect(again.stateNote).toBeUndefined();
		expect(again.instanceNames().sort()).toEqual(['demo', 'shop']);
		expect(again.instanceToken('shop')).toBe(made.token);
		// the instance's own token still works, as on a real server after a restart
		const groups = await call(again, '/group/fetchAllGroups/shop?getParticipants=false', undefined, { method: 'GET', key: made.token });
		expect(groups.status).toBe(200);
		expect(groups.body.map((g: { id: string; subject: string }) => [g.id, g.subject])).toEqual([[made.groupId, 'Team']]);
		const chats = await call(again, '/chat/findChats/shop', {});
		expect(chats.status).toBe(200);
		const chat = chats.body.find((c: { remoteJid: string }) => c.remoteJid === '5511912345678@s.whatsapp.net');
		expect(chat.labels).toEqual(['2']);
		expect(chat.lastMessage.message.conversation).toBe('kept across restarts');
		expect(again.webhookOf('shop')).toMatchObject({ enabled: true, url: made.hook, events: ['MESSAGES_UPSERT'] });
		// a name taken before the restart is still taken
		const twice = await call(again, '/instance/create', { instanceName: 'shop', integration: 'WHATSAPP-BAILEYS' });
		expect(twice.status).toBe(403);
	});

	it('changes are written shortly after they happen, not only on close (a killed process keeps them)', async () => {
		const sb = await startWith();
		await call(sb, '/instance/create', { instanceName: 'early', integration: 'WHATSAPP-BAILEYS' });
		const deadline = Date.now() + 5000;
		let names: string[] = [];
		while (Date.now() < deadline) {
			try {
				names = JSON.parse(fs.readFileSync(file, 'utf8')).instances.map((i: { name: string }) => i.name);
			} catch {
				/* not written yet */
			}
			if (names.includes('early')) break;
			await new Promise((r) => setTimeout(r, 50));
		}
		expect(names).toContain('early');
		// written atomically: no temporary file is left beside it
		expect(fs.readdirSync(dir)).toEqual(['sandbox-state.json']);
	});

	it('fresh: starts empty and removes the saved state', async () => {
		const first = await startWith();
		await makeThings(first);
		await first.close();
		const fresh = await startWith({ fresh: true });
		expect(fresh.instanceNames()).toEqual(['demo']);
		expect(fresh.webhookOf('shop')).toBeUndefined();
		expect(fresh.chat).toEqual([]);
		await fresh.close();
		const after = await startWith();
		expect(after.instanceNames()).toEqual(['demo']);
	});

	it.each([
		['not JSON', '{"version": 1, "instances": [', /not JSON/],
		['another version', JSON.stringify({ version: 99, instances: [], chat: [] }), /version 99, expected 1/],
		['an instance without a token', JSON.stringify({ version: 1, instances: [{ name: 'x', instanceId: 'i', jid: 'j' }], chat: [] }), /instances\[0\]\.token is not a text/],
	])('a file that is %s is reported, kept as .corrupt, and ignored', async (_what, content, reason) => {
		fs.writeFileSync(file, content);
		const sb = await startWith();
		expect(sb.stateNote).toMatch(reason);
		expect(sb.stateNote).toContain('starting without it');
		expect(sb.instanceNames()).toEqual(['demo']);
		expect(fs.readFileSync(`${file}.corrupt`, 'utf8')).toBe(content);
		// the server works and writes a good state again
		const created = await call(sb, '/instance/create', { instanceName: 'after', integration: 'WHATSAPP-BAILEYS' });
		expect(created.status).toBe(201);
		await sb.close();
		expect(JSON.parse(fs.readFileSync(file, 'utf8')).instances.map((i: { name: string }) => i.name)).toEqual(['demo', 'after']);
	});

	it('the file stays within its size bound: the oldest chat entries go first', async () => {
		const sb = await startWith();
		const text = 'x'.repeat(15 * 1024);
		for (let i = 0; i < 400; i++) await sb.injectMessage('demo', { from: '5511900000000', text: `n${i} ${text}` });
		await sb.close();
		const size = fs.statSync(file).size;
		expect(size).toBeLessThanOrEqual(MAX_STATE_BYTES);
		const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
		expect(saved.chat.length).toBeGreaterThan(0);
		expect(saved.chat.length).toBeLessThan(400);
		expect(saved.chat[saved.chat.length - 1].text.startsWith('n399 ')).toBe(true);
	});
});
