import type { Sandbox, Dialect } from '../../sandbox/server';
import { DOCUMENTED_EVENTS, V2_EVENTS } from '../../sandbox/server';
import { call, service, start, validation, ID, SECONDS } from './helpers';

const PRESENCE_ENUM = 'unavailable,available,composing,recording,paused';
const key = { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: '3EB0AAAAAAAAAAAAAAAA' };

describe.each<Dialect>(['documented', 'v2'])('endpoints shared by both dialects (%s)', (dialect) => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ dialect });
	});
	afterAll(() => sb.close());

	describe('Send Text', () => {
		const path = '/message/sendText/demo';
		it('answers 201 with a message result', async () => {
			const r = await call(sb, path, { number: '5511999990000', text: 'hello' });
			expect(r.status).toBe(201);
			expect(r.body).toEqual({
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: expect.stringMatching(ID) },
				message: { extendedTextMessage: { text: 'hello' } },
				messageTimestamp: expect.stringMatching(SECONDS),
				status: 'PENDING',
			});
		});
		it('accepts +, spaces and dashes, JIDs, groups and every option', async () => {
			let r = await call(sb, path, { number: '+55 11 99999-0000', text: 'x' });
			expect(r.body.key.remoteJid).toBe('5511999990000@s.whatsapp.net');
			r = await call(sb, path, { number: '120363025246125486@g.us', text: 'x' });
			expect(r.body.key.remoteJid).toBe('120363025246125486@g.us');
			r = await call(sb, path, {
				number: '5511999990000@s.whatsapp.net',
				text: 'x',
				delay: 1200,
				linkPreview: true,
				mentionsEveryOne: false,
				mentioned: ['5511999990001', '5511999990002@s.whatsapp.net'],
				quoted: { key: { id: 'ABC' }, message: { conversation: 'earlier' } },
				somethingExtra: 1,
			});
			expect(r.status).toBe(201);
			expect(r.body.key.remoteJid).toBe('5511999990000@s.whatsapp.net');
		});
		it.each<[string, unknown, string[]]>([
			['missing text', { number: '5511999990000' }, ['instance requires property "text"']],
			['empty body', {}, ['instance requires property "number"', 'instance requires property "text"']],
			['text not a string', { number: '5511999990000', text: 5 }, ['text is not of a type(s) string']],
			['number letters', { number: 'abc', text: 'x' }, ['Invalid format']],
			['number parentheses', { number: '(11) 99999-0000', text: 'x' }, ['Invalid format']],
			['number not a string', { number: 5511999990000, text: 'x' }, ['Invalid format']],
			['number with other JID domain', { number: '5511@example.com', text: 'x' }, ['Invalid format']],
			['delay a string', { number: '5511999990000', text: 'x', delay: '100' }, ['Enter a value in milliseconds']],
			['delay fractional', { number: '5511999990000', text: 'x', delay: 1.5 }, ['Enter a value in milliseconds']],
			['linkPreview a string', { number: '5511999990000', text: 'x', linkPreview: 'yes' }, ['linkPreview is not of a type(s) boolean']],
			['mentioned not numeric', { number: '5511999990000', text: 'x', mentioned: ['bob'] }, ['"mentioned" must be an array of numeric strings']],
			['mentioned duplicated', { number: '5511999990000', text: 'x', mentioned: ['551', '551'] }, ['mentioned contains duplicate item']],
			['quoted without key', { number: '5511999990000', text: 'x', quoted: { message: { conversation: 'y' } } }, ['quoted requires property "key"']],
			['quoted key without id', { number: '5511999990000', text: 'x', quoted: { key: {} } }, ['quoted.key requires property "id"']],
			['body an array', [], ['instance is not of a type(s) object']],
		])('rejects %s', async (_name, body, messages) => {
			const r = await call(sb, path, body);
			expect(r.status).toBe(400);
			expect(r.body).toEqual(validation(...messages));
		});
		it('rejects an empty text in the service layer', async () => {
			const r = await call(sb, path, { number: '5511999990000', text: '  ' });
			expect(r.body).toEqual(service('Text is required'));
		});
		it('rejects a number without an account', async () => {
			const r = await call(sb, path, { number: '0123456', text: 'x' });
			expect(r.status).toBe(400);
			expect(r.body).toEqual(service({ jid: '0123456@s.whatsapp.net', exists: false, number: '0123456' }));
		});
		it('treats a body without a JSON content type as empty', async () => {
			const r = await call(sb, path, undefined, { raw: JSON.stringify({ number: '5511999990000', text: 'x' }), headers: { 'Content-Type': 'text/plain' } });
			expect(r.body).toEqual(validation('instance requires property "number"', 'instance requires property "text"'));
		});
	});

	describe('Send Location', () => {
		const path = '/message/sendLocation/demo';
		const good = { number: '5511999990000', name: 'Bora Bora', address: 'French Polynesia', latitude: -16.5, longitude: -151 };
		it('answers 201 with a locationMessage', async () => {
			const r = await call(sb, path, good);
			expect(r.status).toBe(201);
			expect(r.body).toEqual({
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: expect.stringMatching(ID) },
				message: { locationMessage: { degreesLatitude: -16.5, degreesLongitude: -151, name: 'Bora Bora', address: 'French Polynesia', contextInfo: {} } },
				messageTimestamp: expect.stringMatching(SECONDS),
				status: 'PENDING',
			});
		});
		it.each<[string, unknown, string[]]>([
			['latitude a string', { ...good, latitude: '1' }, ['latitude is not of a type(s) number']],
			['missing name and address', { number: '5511999990000', latitude: 1, longitude: 2 }, ['instance requires property "name"', 'instance requires property "address"']],
			['latitude out of range', { ...good, latitude: 91 }, ['latitude must be less than or equal to 90']],
		])('rejects %s', async (_n, body, messages) => {
			expect((await call(sb, path, body)).body).toEqual(validation(...messages));
		});
	});

	describe('Send Reaction', () => {
		const path = '/message/sendReaction/demo';
		it('answers 201 with a reactionMessage', async () => {
			const r = await call(sb, path, { key, reaction: '👍' });
			expect(r.status).toBe(201);
			expect(r.body).toEqual({
				key: { remoteJid: key.remoteJid, fromMe: true, id: expect.stringMatching(ID) },
				message: { reactionMessage: { key, text: '👍', senderTimestampMs: expect.stringMatching(/^\d{13}$/) } },
				messageTimestamp: expect.stringMatching(SECONDS),
				status: 'PENDING',
			});
		});
		it('accepts "" (removes a reaction) and composed emoji', async () => {
			expect((await call(sb, path, { key, reaction: '' })).status).toBe(201);
			expect((await call(sb, path, { key, reaction: '👍🏽' })).status).toBe(201);
			expect((await call(sb, path, { key, reaction: '❤️' })).status).toBe(201);
		});
		it('rejects anything but one emoji', async () => {
			for (const reaction of ['ok', '👍👍', 'a👍']) {
				expect((await call(sb, path, { key, reaction })).body).toEqual(service('Reaction must be a single emoji or an empty string'));
			}
		});
		it('rejects a missing key in the service layer and wrong types in the schema', async () => {
			expect((await call(sb, path, { reaction: '👍' })).body).toEqual(service('Key is required'));
			expect((await call(sb, path, { key, reaction: 5 })).body).toEqual(validation('reaction is not of a type(s) string'));
			expect((await call(sb, path, { key: { ...key, fromMe: 'true' }, reaction: '👍' })).body).toEqual(validation('key.fromMe is not of a type(s) boolean'));
		});
	});

	describe('Set Settings', () => {
		const path = '/settings/set/demo';
		const good = { rejectCall: true, msgCall: 'busy', groupsIgnore: false, alwaysOnline: true, readMessages: false, readStatus: true, syncFullHistory: false };
		it('answers 201 with the dialect response', async () => {
			const r = await call(sb, path, good);
			expect(r.status).toBe(201);
			const settings =
				dialect === 'v2'
					? good
					: { reject_call: true, groups_ignore: false, always_online: true, read_messages: false, read_status: true, sync_full_history: false };
			expect(r.body).toEqual({ settings: { instanceName: 'demo', settings } });
		});
		it('rejects missing fields and wrong types', async () => {
			const { msgCall: _m, ...noMsg } = good;
			void _m;
			expect((await call(sb, path, noMsg)).body).toEqual(validation('instance requires property "msgCall"'));
			expect((await call(sb, path, { ...good, rejectCall: 'true' })).body).toEqual(validation('rejectCall is not of a type(s) boolean'));
		});
	});

	describe('Archive Chat', () => {
		const path = '/chat/archiveChat/demo';
		const good = { lastMessage: { key }, archive: true, chat: '5511999990000@s.whatsapp.net' };
		it('answers 201 with chatId and archived', async () => {
			const r = await call(sb, path, good);
			expect(r.status).toBe(201);
			expect(r.body).toEqual({ chatId: '5511999990000@s.whatsapp.net', archived: true });
		});
		it.each<[string, unknown, string[]]>([
			['missing lastMessage', { archive: true, chat: 'x' }, ['instance requires property "lastMessage"']],
			['lastMessage without key', { ...good, lastMessage: {} }, ['lastMessage requires property "key"']],
			['key without id', { ...good, lastMessage: { key: { remoteJid: 'x', fromMe: true } } }, ['lastMessage.key requires property "id"']],
			['archive a string', { ...good, archive: 'yes' }, ['archive is not of a type(s) boolean']],
		])('rejects %s', async (_n, body, messages) => {
			expect((await call(sb, path, body)).body).toEqual(validation(...messages));
		});
	});

	describe('Numbers check', () => {
		const path = dialect === 'v2' ? '/chat/whatsappNumbers/demo' : '/chat/messagingNumbers/demo';
		const other = dialect === 'v2' ? '/chat/messagingNumbers/demo' : '/chat/whatsappNumbers/demo';
		it('answers 200 with one entry per number', async () => {
			const r = await call(sb, path, { numbers: ['5511999990000', '0123', '+55 11 98888-7777', '120363025246125486@g.us'] });
			expect(r.status).toBe(200);
			expect(r.body).toEqual([
				{ exists: true, jid: '5511999990000@s.whatsapp.net', number: '5511999990000' },
				{ exists: false, jid: '0123@s.whatsapp.net', number: '0123' },
				{ exists: true, jid: '5511988887777@s.whatsapp.net', number: '+55 11 98888-7777' },
				{ exists: true, jid: '120363025246125486@g.us', number: '120363025246125486@g.us' },
			]);
		});
		it('accepts an empty list (the contract sets no minimum) and answers an empty array', async () => {
			const r = await call(sb, path, { numbers: [] });
			expect(r.status).toBe(200);
			expect(r.body).toEqual([]);
		});
		it("is not served at the other dialect's path", async () => {
			const r = await call(sb, other, { numbers: ['5511999990000'] });
			expect(r.status).toBe(404);
			expect(r.body).toEqual({ status: 404, error: 'Not Found', response: { message: [`Cannot POST ${other}`] } });
		});
		it.each<[string, unknown, string[]]>([
			['missing numbers', {}, ['instance requires property "numbers"']],
			['bad number', { numbers: ['5511', 'abc'] }, ['Invalid format']],
			['numbers a string', { numbers: '5511' }, ['numbers is not of a type(s) array']],
		])('rejects %s without the response wrapper', async (_n, body, messages) => {
			const r = await call(sb, path, body);
			expect(r.status).toBe(400);
			expect(r.body).toEqual({ status: 400, error: 'Bad Request', message: [messages] });
		});
	});

	describe('Update Message', () => {
		const path = '/chat/updateMessage/demo';
		const number = dialect === 'v2' ? '5511999990000' : 5511999990000;
		const wrong = dialect === 'v2' ? 5511999990000 : '5511999990000';
		it('answers 200 with no body', async () => {
			const r = await call(sb, path, { number, text: 'edited', key });
			expect(r.status).toBe(200);
			expect(r.text).toBe('');
		});
		it(`rejects number as ${typeof wrong}`, async () => {
			expect((await call(sb, path, { number: wrong, text: 'edited', key })).body).toEqual(validation('Invalid format'));
		});
		it('rejects missing key, bad key and empty text', async () => {
			expect((await call(sb, path, { number, text: 'x' })).body).toEqual(validation('instance requires property "key"'));
			expect((await call(sb, path, { number, text: 'x', key: { id: 'A' } })).body).toEqual(
				validation('key requires property "fromMe"', 'key requires property "remoteJid"'),
			);
			expect((await call(sb, path, { number, text: '', key })).body).toEqual(service('Text is required'));
		});
	});

	describe('Send Presence', () => {
		const path = '/chat/sendPresence/demo';
		const good =
			dialect === 'v2'
				? { number: '5511999990000', presence: 'composing', delay: 1200 }
				: { number: '5511999990000', options: { delay: 1200, presence: 'composing', number: '5511999990000' } };
		const swapped =
			dialect === 'v2'
				? { number: '5511999990000', options: { delay: 1200, presence: 'composing', number: '5511999990000' } }
				: { number: '5511999990000', presence: 'composing', delay: 1200 };
		it('answers 201 with no body', async () => {
			const r = await call(sb, path, good);
			expect(r.status).toBe(201);
			expect(r.text).toBe('');
		});
		it("rejects the other dialect's shape", async () => {
			const messages = dialect === 'v2' ? ['instance requires property "presence"', 'instance requires property "delay"'] : ['instance requires property "options"'];
			expect((await call(sb, path, swapped)).body).toEqual(validation(...messages));
		});
		it('rejects a bad presence, a bad delay and a missing field', async () => {
			if (dialect === 'v2') {
				expect((await call(sb, path, { ...good, presence: 'typing' })).body).toEqual(validation(`presence is not one of enum values: ${PRESENCE_ENUM}`));
				expect((await call(sb, path, { ...good, delay: 'soon' })).body).toEqual(validation('Enter a value in milliseconds'));
				expect((await call(sb, path, { number: '5511999990000', presence: 'paused' })).body).toEqual(validation('instance requires property "delay"'));
			} else {
				const options = { delay: 1200, presence: 'composing', number: '5511999990000' };
				expect((await call(sb, path, { number: '5511999990000', options: { ...options, presence: 'typing' } })).body).toEqual(
					validation(`options.presence is not one of enum values: ${PRESENCE_ENUM}`),
				);
				expect((await call(sb, path, { number: '5511999990000', options: { ...options, delay: 'soon' } })).body).toEqual(
					validation('Enter a value in milliseconds'),
				);
				expect((await call(sb, path, { number: '5511999990000', options: { delay: 1, presence: 'paused' } })).body).toEqual(
					validation('options requires property "number"'),
				);
			}
		});
		it('rejects a number without an account', async () => {
			const body = dialect === 'v2' ? { ...good, number: '0999' } : { number: '0999', options: { delay: 1, presence: 'paused', number: '0999' } };
			expect((await call(sb, path, body)).body).toEqual(service({ jid: '0999@s.whatsapp.net', exists: false, number: '0999' }));
		});
	});
});

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
