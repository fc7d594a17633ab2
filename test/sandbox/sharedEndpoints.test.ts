import type { Sandbox, Dialect } from '../../sandbox/server';
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
