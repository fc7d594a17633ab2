import type { Sandbox } from '../../sandbox/server';
import { V2_EVENTS } from '../../sandbox/server';
import { call, service, start, validation } from './helpers';

describe('v2 dialect', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ dialect: 'v2' });
	});
	afterAll(() => sb.close());

	const sections = [{ title: 'Food', rows: [{ title: 'Pizza', description: 'hot', rowId: 'p' }] }];
	const list = { number: '5511999990000', title: 'Menu', description: 'Pick one', buttonText: 'Open', footerText: '', sections };
	it('Send List: sections + footerText -> 201 pollCreationMessage', async () => {
		const r = await call(sb, '/message/sendList/demo', list);
		expect(r.status).toBe(201);
		expect(r.body.message.pollCreationMessage).toMatchObject({ name: 'Menu', options: [{ optionName: 'Pizza' }], selectableOptionsCount: 1 });
	});
	it('Send List: values and a missing footerText are rejected', async () => {
		const { sections: _s, footerText: _f, ...rest } = list;
		void _s;
		void _f;
		expect((await call(sb, '/message/sendList/demo', { ...rest, values: sections })).body).toEqual(
			validation('instance requires property "footerText"', 'instance requires property "sections"'),
		);
		expect((await call(sb, '/message/sendList/demo', { ...rest, footerText: '', values: sections })).body).toEqual(
			validation('instance requires property "sections"'),
		);
	});

	const reply = (i: number): Record<string, string> => ({ type: 'reply', displayText: `B${i}`, id: `b${i}` });
	const buttons = { number: '5511999990000', title: 'Question', description: 'Yes or no?', buttons: [reply(1), reply(2), reply(3)] };
	it('Send Buttons: {type, displayText, id} -> 201', async () => {
		const r = await call(sb, '/message/sendButtons/demo', buttons);
		expect(r.status).toBe(201);
		expect(r.body.message.pollCreationMessage.options).toEqual([{ optionName: 'B1' }, { optionName: 'B2' }, { optionName: 'B3' }]);
		const other = await call(sb, '/message/sendButtons/demo', {
			...buttons,
			buttons: [
				{ type: 'url', displayText: 'Site', url: 'https://example.com' },
				{ type: 'call', displayText: 'Call', phoneNumber: '5511999990000' },
			],
		});
		expect(other.status).toBe(201);
	});
	it('Send Buttons: documented items, bad types, 4 replies and mixing are rejected', async () => {
		const p = '/message/sendButtons/demo';
		expect((await call(sb, p, { ...buttons, buttons: [{ title: 'Yes', displayText: 'Yes', id: 'y' }] })).body).toEqual(
			validation('buttons[0] requires property "type"'),
		);
		expect((await call(sb, p, { ...buttons, buttons: [{ type: 'link', displayText: 'x', id: 'x' }] })).body).toEqual(
			validation('buttons[0].type is not one of enum values: reply,copy,url,call,pix'),
		);
		expect((await call(sb, p, { ...buttons, buttons: [{ type: 'reply', displayText: 'x' }] })).body).toEqual(validation('buttons[0] requires property "id"'));
		expect((await call(sb, p, { ...buttons, buttons: [{ type: 'url', displayText: 'x' }] })).body).toEqual(validation('buttons[0] requires property "url"'));
		expect((await call(sb, p, { ...buttons, buttons: [1, 2, 3, 4].map(reply) })).body).toEqual(service('Maximum of 3 reply buttons allowed'));
		expect((await call(sb, p, { ...buttons, buttons: [reply(1), { type: 'copy', displayText: 'c', copyCode: 'X' }] })).body).toEqual(
			service('Reply buttons cannot be mixed with other button types'),
		);
	});

	it('Send Status: video, statusJidList left out with allContacts; empty list rejected', async () => {
		const p = '/message/sendStatus/demo';
		const r = await call(sb, p, { type: 'video', content: 'https://example.com/v.mp4', caption: 'c', backgroundColor: '#000000', font: 1, allContacts: true });
		expect(r.status).toBe(201);
		expect(r.body.key.remoteJid).toBe('status@broadcast');
		expect(r.body.participant).toBe('5500000000000@s.whatsapp.net');
		const text = { type: 'text', content: 'hi', caption: '', backgroundColor: '#FF0000', font: 2, allContacts: true };
		expect((await call(sb, p, text)).body.message).toEqual({ extendedTextMessage: { text: 'hi', backgroundArgb: 0xffff0000, font: 'NORICAN_REGULAR' } });
		expect((await call(sb, p, { ...text, statusJidList: [] })).body).toEqual(validation('statusJidList does not meet minimum length of 1'));
		expect((await call(sb, p, { ...text, type: 'gif' })).body).toEqual(validation('type is not one of enum values: text,image,audio,video'));
	});

	const webhook = { webhook: { enabled: true, url: 'http://127.0.0.1:9/hook', byEvents: true, base64: true, events: ['MESSAGES_UPSERT'], headers: { 'x-token': 's3cret' } } };
	it('Set Webhook: nested body -> 201 with the stored record; GET /webhook/find returns it', async () => {
		const before = await call(sb, '/webhook/find/demo', undefined, { method: 'GET' });
		expect(before.status).toBe(200);
		expect(before.text).toBe('null');
		const r = await call(sb, '/webhook/set/demo', webhook);
		expect(r.status).toBe(201);
		const record = {
			id: expect.any(String),
			url: 'http://127.0.0.1:9/hook',
			headers: { 'x-token': 's3cret' },
			enabled: true,
			events: ['MESSAGES_UPSERT'],
			webhookByEvents: true,
			webhookBase64: true,
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
			instanceId: expect.any(String),
		};
		expect(r.body).toEqual(record);
		expect(Object.keys(r.body).sort()).toEqual(Object.keys(record).sort());
		const found = await call(sb, '/webhook/find/demo', undefined, { method: 'GET' });
		expect(found.body).toEqual(r.body);
		expect(sb.webhookOf('demo')).toEqual({ enabled: true, url: 'http://127.0.0.1:9/hook', byEvents: true, base64: true, events: ['MESSAGES_UPSERT'], headers: { 'x-token': 's3cret' } });
		// switching off: same url, enabled false, events may be left out
		const off = await call(sb, '/webhook/set/demo', { webhook: { enabled: false, url: 'http://127.0.0.1:9/hook' } });
		expect(off.status).toBe(201);
		expect(off.body.id).toBe(r.body.id);
		expect(sb.webhookOf('demo')?.enabled).toBe(false);
	});
	it('Set Webhook: rejects the flat body, dropped events, missing events and bad headers', async () => {
		const p = '/webhook/set/demo';
		expect((await call(sb, p, { enabled: true, url: 'http://x', webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] })).body).toEqual(
			validation('instance requires property "webhook"'),
		);
		expect((await call(sb, p, { webhook: { ...webhook.webhook, events: ['NEW_JWT_TOKEN'] } })).body).toEqual(
			validation(`webhook.events[0] is not one of enum values: ${V2_EVENTS.join(',')}`),
		);
		expect((await call(sb, p, { webhook: { enabled: true, url: 'http://x' } })).body).toEqual(validation('webhook requires property "events"'));
		expect((await call(sb, p, { webhook: { enabled: true } })).body).toEqual(validation('webhook requires property "url"', 'webhook requires property "events"'));
		expect((await call(sb, p, { webhook: { ...webhook.webhook, headers: { 'x-token': 5 } } })).body).toEqual(
			validation('webhook.headers["x-token"] is not of a type(s) string'),
		);
		expect((await call(sb, p, { webhook: { ...webhook.webhook, events: ['TYPEBOT_START', 'STATUS_INSTANCE'] } })).status).toBe(201);
	});
});
