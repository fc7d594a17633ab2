import type { Sandbox } from '../../sandbox/server';
import { DOCUMENTED_EVENTS } from '../../sandbox/server';
import { call, service, start, validation, ID, SECONDS } from './helpers';

describe('documented dialect', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ dialect: 'documented' });
	});
	afterAll(() => sb.close());

	const list = {
		number: '5511999990000',
		title: 'Menu',
		description: 'Pick one',
		buttonText: 'Open',
		values: [{ title: 'Food', rows: [{ title: 'Pizza', description: 'hot', rowId: 'p' }, { title: 'Salad', description: '', rowId: 's' }] }],
	};

	it('Send List: values -> 201 pollCreationMessage', async () => {
		const r = await call(sb, '/message/sendList/demo', list);
		expect(r.status).toBe(201);
		expect(r.body).toEqual({
			key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: expect.stringMatching(ID) },
			message: {
				pollCreationMessage: {
					messageContextInfo: { messageSecret: expect.any(String) },
					name: 'Menu',
					options: [{ optionName: 'Pizza' }, { optionName: 'Salad' }],
					selectableOptionsCount: 1,
				},
			},
			messageTimestamp: expect.stringMatching(SECONDS),
			status: 'PENDING',
		});
	});
	it('Send List: v2 sections are rejected, rows are checked', async () => {
		const { values, ...rest } = list;
		expect((await call(sb, '/message/sendList/demo', { ...rest, footerText: '', sections: values })).body).toEqual(
			validation('instance requires property "values"'),
		);
		expect((await call(sb, '/message/sendList/demo', { ...rest, values: [{ title: 'A', rows: [{ title: 'x', description: 'y' }] }] })).body).toEqual(
			validation('values[0].rows[0] requires property "rowId"'),
		);
		expect((await call(sb, '/message/sendList/demo', { ...rest, values: [] })).body).toEqual(validation('values does not meet minimum length of 1'));
	});

	const buttons = {
		number: '5511999990000',
		title: 'Question',
		description: 'Yes or no?',
		footer: 'f',
		buttons: [
			{ title: 'Yes', displayText: 'Yes', id: 'y' },
			{ title: 'No', displayText: 'No', id: 'n' },
		],
	};
	it('Send Buttons: {title, displayText, id} -> 201 pollCreationMessage', async () => {
		const r = await call(sb, '/message/sendButtons/demo', buttons);
		expect(r.status).toBe(201);
		expect(r.body.message.pollCreationMessage).toEqual({
			messageContextInfo: { messageSecret: expect.any(String) },
			name: 'Question',
			options: [{ optionName: 'Yes' }, { optionName: 'No' }],
			selectableOptionsCount: 1,
		});
	});
	it('Send Buttons: v2 items and more than 3 are rejected', async () => {
		expect((await call(sb, '/message/sendButtons/demo', { ...buttons, buttons: [{ type: 'reply', displayText: 'Yes', id: 'y' }] })).body).toEqual(
			validation('buttons[0] requires property "title"'),
		);
		const four = [1, 2, 3, 4].map((i) => ({ title: `B${i}`, displayText: `B${i}`, id: `b${i}` }));
		expect((await call(sb, '/message/sendButtons/demo', { ...buttons, buttons: four })).body).toEqual(validation('buttons does not meet maximum length of 3'));
	});

	const status = { type: 'text', content: 'Hello', caption: '', backgroundColor: '#008000', font: 1, allContacts: true, statusJidList: [] };
	it('Send Status: text post -> 201 with status@broadcast and participant', async () => {
		const r = await call(sb, '/message/sendStatus/demo', status);
		expect(r.status).toBe(201);
		expect(r.body).toEqual({
			key: { remoteJid: 'status@broadcast', fromMe: true, id: expect.stringMatching(ID) },
			message: { extendedTextMessage: { text: 'Hello', backgroundArgb: parseInt('FF008000', 16), font: 'SERIF' } },
			messageTimestamp: expect.stringMatching(SECONDS),
			status: 'PENDING',
			participant: '5500000000000@s.whatsapp.net',
		});
		const r2 = await call(sb, '/message/sendStatus/demo', { ...status, font: 5, allContacts: false, statusJidList: ['5511999990000@s.whatsapp.net'] });
		expect(r2.body.message.extendedTextMessage.font).toBe('OSWALD_HEAVY');
	});
	it('Send Status: rejects what documented servers reject', async () => {
		const { statusJidList: _s, ...noList } = status;
		void _s;
		const p = '/message/sendStatus/demo';
		expect((await call(sb, p, noList)).body).toEqual(validation('instance requires property "statusJidList"'));
		expect((await call(sb, p, { ...status, type: 'video', content: 'https://x/v.mp4' })).body).toEqual(
			validation('type is not one of enum values: text,image,audio'),
		);
		expect((await call(sb, p, { ...status, font: '1' })).body).toEqual(validation('font is not of a type(s) number'));
		expect((await call(sb, p, { ...status, font: 7 })).body).toEqual(service('font must be one of 1, 2, 3, 4, 5'));
		expect((await call(sb, p, { ...status, backgroundColor: 'green' })).body).toEqual(service('backgroundColor must be a hex colour like #RRGGBB'));
		expect((await call(sb, p, { ...status, allContacts: false })).body).toEqual(service('statusJidList is required when allContacts is false'));
		expect((await call(sb, p, { ...status, type: 'image', content: 'not a url' })).body).toEqual(service('content must be the URL of the image'));
	});

	const webhook = { enabled: true, url: 'http://127.0.0.1:9/hook', webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] };
	it('Set Webhook: flat body -> 201 {webhook: {instanceName, webhook}}', async () => {
		const r = await call(sb, '/webhook/set/demo', webhook);
		expect(r.status).toBe(201);
		expect(r.body).toEqual({ webhook: { instanceName: 'demo', webhook: { url: 'http://127.0.0.1:9/hook', events: ['MESSAGES_UPSERT'], enabled: true } } });
		expect(sb.webhookOf('demo')).toEqual({ enabled: true, url: 'http://127.0.0.1:9/hook', byEvents: false, base64: false, events: ['MESSAGES_UPSERT'], headers: {} });
	});
	it('Set Webhook: rejects the v2 shape, bad events and bad urls', async () => {
		const p = '/webhook/set/demo';
		expect((await call(sb, p, { webhook: { enabled: true, url: 'http://x', events: ['MESSAGES_UPSERT'] } })).body).toEqual(
			validation(
				'instance requires property "enabled"',
				'instance requires property "url"',
				'instance requires property "webhookByEvents"',
				'instance requires property "webhookBase64"',
				'instance requires property "events"',
			),
		);
		expect((await call(sb, p, { ...webhook, events: [] })).body).toEqual(validation('events does not meet minimum length of 1'));
		expect((await call(sb, p, { ...webhook, events: ['TYPEBOT_START'] })).body).toEqual(
			validation(`events[0] is not one of enum values: ${DOCUMENTED_EVENTS.join(',')}`),
		);
		expect((await call(sb, p, { ...webhook, webhookBase64: 'no' })).body).toEqual(validation('webhookBase64 is not of a type(s) boolean'));
		expect((await call(sb, p, { ...webhook, url: 'not a url' })).body).toEqual(service('Invalid "url" property'));
		expect((await call(sb, p, { ...webhook, events: [...DOCUMENTED_EVENTS] })).status).toBe(201);
	});
	it('does not serve GET /webhook/find', async () => {
		const r = await call(sb, '/webhook/find/demo', undefined, { method: 'GET' });
		expect(r.body).toEqual({ status: 404, error: 'Not Found', response: { message: ['Cannot GET /webhook/find/demo'] } });
	});
});
