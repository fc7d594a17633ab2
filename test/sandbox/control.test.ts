import type { Sandbox, ChatEntry } from '../../sandbox/server';
import { call, start, startReceiver, Receiver } from './helpers';

async function control(sb: Sandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
	const res = await fetch(sb.url + path, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Reads SSE frames from the chat stream until `count` entries arrived. */
async function readEntries(url: string, count: number, during?: () => Promise<unknown>): Promise<ChatEntry[]> {
	const ac = new AbortController();
	const res = await fetch(url, { signal: ac.signal });
	expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
	const reader = res.body!.getReader();
	const decoder = new TextDecoder();
	const entries: ChatEntry[] = [];
	let buffer = '';
	const pump = (async (): Promise<void> => {
		while (entries.length < count) {
			const { value, done } = await reader.read();
			if (done) break;
			buffer += decoder.decode(value, { stream: true });
			let i: number;
			while ((i = buffer.indexOf('\n\n')) >= 0) {
				const frame = buffer.slice(0, i);
				buffer = buffer.slice(i + 2);
				const data = frame.split('\n').find((l) => l.startsWith('data: '));
				if (frame.includes('event: entry') && data) entries.push(JSON.parse(data.slice(6)));
			}
		}
	})();
	if (during) await during();
	await pump;
	ac.abort();
	return entries;
}

describe('control routes, chat log and SSE', () => {
	let sb: Sandbox;
	let rx: Receiver;
	beforeAll(async () => {
		rx = await startReceiver();
		sb = await start({ instances: [{ name: 'demo', token: 'TOK-SECRET-1' }, { name: 'shop' }] });
		await call(sb, '/webhook/set/demo', { enabled: true, url: `${rx.url}/hook`, webhookByEvents: false, webhookBase64: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE', 'QRCODE_UPDATED'] });
	});
	afterAll(async () => {
		await sb.close();
		await rx.close();
	});
	beforeEach(async () => {
		await control(sb, 'POST', '/_sandbox/reset');
		rx.received.length = 0;
	});

	it('GET /_sandbox/state lists instances and webhooks without secrets', async () => {
		const r = await control(sb, 'GET', '/_sandbox/state');
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ url: sb.url, dialect: 'documented', counts: { requests: 0, deliveries: 0, chat: 0 } });
		expect(r.body.instances.map((i: { name: string }) => i.name)).toEqual(['demo', 'shop']);
		expect(r.body.instances[0].webhook).toMatchObject({ url: `${rx.url}/hook`, enabled: true });
		expect(JSON.stringify(r.body)).not.toContain('TOK-SECRET-1');
		expect(JSON.stringify(r.body)).not.toContain(sb.apiKey);
	});

	it('GET /_sandbox/requests returns the recorded requests with the key masked', async () => {
		await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'x' });
		const r = await control(sb, 'GET', '/_sandbox/requests');
		expect(r.body).toHaveLength(1);
		expect(r.body[0]).toMatchObject({ method: 'POST', path: '/message/sendText/demo', status: 201 });
		expect(r.body[0].headers.apikey).toBe('***');
		expect(sb.requests[0].headers.apikey).toBe(sb.apiKey);
	});

	it('POST /_sandbox/messages injects a message and answers the delivery result', async () => {
		const r = await control(sb, 'POST', '/_sandbox/messages', { instance: 'demo', from: '5511999990000', text: 'hello', pushName: 'Ana' });
		expect(r.status).toBe(200);
		expect(r.body.delivered).toEqual({ ok: true, reason: 'delivered', status: 200, attempts: 1 });
		expect(r.body.entry).toMatchObject({ direction: 'in', instance: 'demo', chat: '5511999990000@s.whatsapp.net', kind: 'text', text: 'hello', pushName: 'Ana' });
		expect(r.body.delivery.body.apikey).toBe('***');
		expect(rx.received[0].body.apikey).toBe('TOK-SECRET-1');
		expect(rx.received[0].body.data.message).toEqual({ conversation: 'hello' });

		const none = await control(sb, 'POST', '/_sandbox/messages', { instance: 'shop', from: '5511999990000', text: 'x' });
		expect(none.body.delivered).toEqual({ ok: false, reason: 'no webhook enabled for this event', attempts: 0 });
		expect((await control(sb, 'POST', '/_sandbox/messages', { instance: 'ghost', from: '1', text: 'x' })).status).toBe(404);
		expect((await control(sb, 'POST', '/_sandbox/messages', { instance: 'demo', text: 'x' })).status).toBe(400);
		expect((await control(sb, 'POST', '/_sandbox/messages', { instance: 'demo', from: '1', media: { kind: 'gif' } })).status).toBe(400);
	});

	it('POST /_sandbox/events sends connection and QR code events', async () => {
		let r = await control(sb, 'POST', '/_sandbox/events', { instance: 'demo', event: 'CONNECTION_UPDATE' });
		expect(r.body.delivered.ok).toBe(true);
		r = await control(sb, 'POST', '/_sandbox/events', { instance: 'demo', event: 'connection.update', data: { state: 'close' } });
		r = await control(sb, 'POST', '/_sandbox/events', { instance: 'demo', event: 'QRCODE_UPDATED' });
		expect(rx.received.map((x) => [x.body.event, x.body.data.state ?? Object.keys(x.body.data)[0]])).toEqual([
			['connection.update', 'open'],
			['connection.update', 'close'],
			['qrcode.updated', 'qrcode'],
		]);
		expect(rx.received[1].body.data).toEqual({ instance: 'demo', state: 'close', statusReason: 428 });
	});

	it('POST /_sandbox/fail arms failNext', async () => {
		expect((await control(sb, 'POST', '/_sandbox/fail', { status: 500, message: 'down' })).status).toBe(200);
		const r = await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'x' });
		expect(r.body).toEqual({ status: 500, error: 'Internal Server Error', response: { message: 'down' } });
		expect((await control(sb, 'POST', '/_sandbox/fail', { status: 'x' })).status).toBe(400);
	});

	it('POST /_sandbox/late arms answerLate: the send goes out at once, its answer comes late, once', async () => {
		expect((await control(sb, 'POST', '/_sandbox/late', { ms: 600, path: '/message/sendText/' })).status).toBe(200);
		// A client that gives up after 150 ms sees a timeout…
		const lost = await fetch(`${sb.url}/message/sendText/demo`, {
			method: 'POST',
			headers: { apikey: sb.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({ number: '5511999990000', text: 'slow one' }),
			signal: AbortSignal.timeout(150),
		}).then(
			() => 'answered',
			(e: Error) => e.name,
		);
		expect(lost).toBe('TimeoutError');
		// …while the message already went out and is stored.
		expect(sb.chat.filter((c) => c.direction === 'out').map((c) => c.text)).toEqual(['slow one']);
		expect(sb.requests.map((r) => [r.path, r.status])).toEqual([['/message/sendText/demo', 201]]);
		// Only the next request was armed: the one after it answers at once.
		const quick = Date.now();
		expect((await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'quick one' })).status).toBe(201);
		expect(Date.now() - quick).toBeLessThan(450);
		expect((await control(sb, 'POST', '/_sandbox/late', { ms: 'x' })).status).toBe(400);
		expect((await control(sb, 'POST', '/_sandbox/late', { ms: -1 })).status).toBe(400);
	});

	it('POST /_sandbox/refuseSends arms WhatsApp\'s refusals: rate-overlimit after a burst, then a logged-out instance for good', async () => {
		expect((await control(sb, 'POST', '/_sandbox/refuseSends', { kind: 'rateOverlimit', after: 1, times: 1 })).status).toBe(200);
		const send = async () => await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'x' });
		expect((await send()).status).toBe(201);
		expect((await send()).body).toEqual({ status: 400, error: 'Bad Request', response: { message: ['Error: rate-overlimit'] } });
		expect((await send()).status).toBe(201);
		// A number without an account is refused by the server's own check first; it is not a send WhatsApp saw.
		expect((await control(sb, 'POST', '/_sandbox/refuseSends', { kind: 'loggedOut' })).status).toBe(200);
		expect((await call(sb, '/message/sendText/demo', { number: '0511999990000', text: 'x' })).status).toBe(400);
		for (let i = 0; i < 3; i++) expect((await send()).body).toEqual({ status: 500, error: 'Internal Server Error', response: { message: 'Connection Closed' } });
		expect((await control(sb, 'POST', '/_sandbox/refuseSends', { kind: 'banned' })).status).toBe(400);
		expect((await control(sb, 'POST', '/_sandbox/refuseSends', { kind: 'loggedOut', after: -1 })).status).toBe(400);
		await control(sb, 'POST', '/_sandbox/reset', {});
		expect((await send()).status).toBe(201);
	});

	it('keeps a chat log of incoming and outgoing traffic (history)', async () => {
		const key = { remoteJid: '5511999990000@s.whatsapp.net', fromMe: false, id: 'IN1' };
		await control(sb, 'POST', '/_sandbox/messages', { instance: 'demo', from: '5511999990000', text: 'hi', id: 'IN1' });
		await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'welcome' });
		await call(sb, '/message/sendList/demo', {
			number: '5511999990000',
			title: 'Menu',
			description: 'd',
			buttonText: 'Open',
			values: [{ title: 'S', rows: [{ title: 'A', description: '', rowId: 'a' }] }],
		});
		await call(sb, '/message/sendButtons/demo', { number: '5511999990000', title: 'Q', description: 'd', buttons: [{ title: 'Y', displayText: 'Yes', id: 'y' }] });
		await call(sb, '/message/sendLocation/demo', { number: '5511999990000', name: 'Home', address: 'Street 1', latitude: 1, longitude: 2 });
		await call(sb, '/message/sendReaction/demo', { key, reaction: '👍' });
		await call(sb, '/chat/sendPresence/demo', { number: '5511999990000', options: { delay: 10, presence: 'composing', number: '5511999990000' } });
		await call(sb, '/chat/updateMessage/demo', { number: 5511999990000, text: 'edited', key: { ...key, fromMe: true } });
		await call(sb, '/chat/archiveChat/demo', { lastMessage: { key }, archive: true, chat: '5511999990000@s.whatsapp.net' });
		await call(sb, '/message/sendStatus/demo', { type: 'text', content: 'news', caption: '', backgroundColor: '#000000', font: 1, allContacts: true, statusJidList: [] });
		await call(sb, '/message/sendText/shop', { number: '5511999990000', text: 'other instance' });
		await call(sb, '/message/sendText/demo', { number: '5511999990000' }); // rejected: not logged

		const r = await control(sb, 'GET', '/_sandbox/chat/history?instance=demo');
		expect(r.body.map((e: ChatEntry) => `${e.direction}:${e.kind}`)).toEqual([
			'in:text',
			'out:text',
			'out:list',
			'out:buttons',
			'out:location',
			'out:reaction',
			'out:presence',
			'out:edit',
			'out:archive',
			'out:status',
		]);
		const [, text, list, buttons, location, reaction] = r.body as ChatEntry[];
		expect(text).toMatchObject({ chat: '5511999990000@s.whatsapp.net', text: 'welcome', body: { number: '5511999990000', text: 'welcome' }, messageId: expect.any(String) });
		expect(list.text).toContain('Menu');
		expect(buttons.text).toContain('[Yes]');
		expect(location.text).toContain('Home');
		expect(reaction.text).toBe('👍 on IN1');
		expect((await control(sb, 'GET', '/_sandbox/chat/history')).body).toHaveLength(11);
		expect(sb.chat).toHaveLength(11);
	});

	it('streams the chat log as Server-Sent Events (replay + live)', async () => {
		await control(sb, 'POST', '/_sandbox/messages', { instance: 'demo', from: '5511999990000', text: 'before' });
		const entries = await readEntries(`${sb.url}/_sandbox/chat/stream?instance=demo`, 3, async () => {
			await new Promise((r) => setTimeout(r, 50));
			await call(sb, '/message/sendText/shop', { number: '5511999990000', text: 'filtered out' });
			await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'live reply' });
			await control(sb, 'POST', '/_sandbox/messages', { instance: 'demo', from: '5511999990000', text: 'again' });
		});
		expect(entries.map((e) => [e.direction, e.text])).toEqual([
			['in', 'before'],
			['out', 'live reply'],
			['in', 'again'],
		]);
		expect(entries[1]).toMatchObject({ instance: 'demo', kind: 'text', seq: expect.any(Number), time: expect.any(String), body: { text: 'live reply' } });
		const since = entries[1].seq;
		const resumed = await readEntries(`${sb.url}/_sandbox/chat/stream?instance=demo&since=${since}`, 1);
		expect(resumed[0].text).toBe('again');
	});

	it('serves the chat page with stable hooks', async () => {
		const res = await fetch(`${sb.url}/chat`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		const html = await res.text();
		for (const hook of ['id="from"', 'id="message"', 'id="send"', 'id="instance"', "'bubble ' + entry.direction", '/_sandbox/chat/stream', '/_sandbox/messages']) {
			expect(html).toContain(hook);
		}
		expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/);
		expect(sb.requests).toHaveLength(0);
	});

	it('unknown control routes answer 404', async () => {
		expect((await control(sb, 'GET', '/_sandbox/nope')).status).toBe(404);
	});
});
