/**
 * The five routes Evolution API 2.4 added, as the 2.4.0-rc2 source validates and answers them,
 * and their 404 on 2.3.x.
 */
import { startSandbox, Sandbox } from '../../sandbox/server';
import { call, validation, withVersion } from './helpers';


const GROUP = '120363000000000001@g.us';
const routes: Array<[string, unknown]> = [
	['/message/sendCarousel/demo', { number: '5511999990000', body: 'Pick', cards: [{ body: 'A', buttons: [{ type: 'reply', displayText: 'Yes', id: 'y' }] }] }],
	['/chat/markMessageAsPlayed/demo', { playedMessages: [{ id: 'ABC', fromMe: false, remoteJid: '5511999990000@s.whatsapp.net' }] }],
	['/chat/getPollVote/demo', { message: { key: { id: 'ABC' } }, remoteJid: '5511999990000@s.whatsapp.net' }],
	['/chat/findChannels/demo', {}],
	['/group/updateMemberAddMode/demo', { groupJid: GROUP, mode: 'admin_add' }],
];

describe.each(['2.3.6', '2.3.7'] as const)('on %s the 2.4 routes do not exist', (version) => {
	it.each(routes)('POST %s → 404 Cannot POST', async (path, body) => {
		await withVersion(version, async (sb) => {
			const r = await call(sb, path, body);
			expect(r.status).toBe(404);
			expect(r.body).toEqual({ status: 404, error: 'Not Found', response: { message: [`Cannot POST ${path}`] } });
		});
	});
});

describe('2.4.0', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ dialect: 'v2', version: '2.4.0' });
		sb.addGroup('demo', { id: GROUP, subject: 'Team', participants: ['5511999990001'] });
	});
	afterAll(async () => {
		await sb.close();
	});

	describe('POST /message/sendCarousel', () => {
		it('one card without an image goes out as a native flow message (201, the sent message)', async () => {
			const r = await call(sb, '/message/sendCarousel/demo', {
				number: '5511999990000',
				body: 'Unused for one card',
				cards: [{ title: 'ignored', body: 'Card A', footer: 'foot', buttons: [{ type: 'url', displayText: 'Open', url: 'https://example.com' }] }],
			});
			expect(r.status).toBe(201);
			expect(r.body).toEqual({
				key: { remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id: expect.stringMatching(/^3EB0[0-9A-F]{18}$/) },
				message: {
					interactiveMessage: {
						body: { text: 'Card A' },
						footer: { text: 'foot' },
						nativeFlowMessage: {
							buttons: [{ name: 'cta_url', buttonParamsJson: JSON.stringify({ display_text: 'Open', url: 'https://example.com', merchant_url: 'https://example.com' }) }],
							messageParamsJson: expect.stringMatching(/^\{"from":"api","templateId":"[0-9a-f-]{36}"\}$/),
						},
					},
				},
				messageTimestamp: expect.stringMatching(/^\d+$/),
				status: 'PENDING',
			});
		});

		it('two cards go out as a carousel under the body', async () => {
			const r = await call(sb, '/message/sendCarousel/demo', {
				number: '5511999990000',
				body: 'Our offers',
				cards: [
					{ body: 'A', buttons: [{ type: 'reply', displayText: 'Yes', id: 'y' }] },
					{ body: 'B', buttons: [{ type: 'call', displayText: 'Call', phoneNumber: '+5511999990000' }, { type: 'copy', displayText: 'Code', copyCode: 'X1' }] },
				],
			});
			expect(r.status).toBe(201);
			expect(r.body.message).toEqual({
				interactiveMessage: {
					body: { text: 'Our offers' },
					carouselMessage: {
						cards: [
							{ body: { text: 'A' }, nativeFlowMessage: { buttons: [{ name: 'quick_reply', buttonParamsJson: '{"display_text":"Yes","id":"y"}' }] } },
							{
								body: { text: 'B' },
								nativeFlowMessage: {
									buttons: [
										{ name: 'cta_call', buttonParamsJson: '{"display_text":"Call","phone_number":"+5511999990000"}' },
										{ name: 'cta_copy', buttonParamsJson: '{"display_text":"Code","copy_code":"X1"}' },
									],
								},
							},
						],
						messageVersion: 1,
					},
				},
			});
		});

		it.each([
			[{ number: '5511999990000', cards: [] }, ['cards does not meet minimum length of 1', 'instance requires property "body"']],
			[{ number: '5511999990000', body: '', cards: [{ body: 'A', buttons: [] }] }, ['body does not meet minimum length of 1', 'cards[0].buttons does not meet minimum length of 1']],
			[{ number: '5511999990000', body: 'x', cards: [{ body: 'A', buttons: [{ type: 'pix' }] }] }, ['cards[0].buttons[0].type is not one of enum values: reply,copy,url,call']],
			[{ number: '5511999990000', body: 'x', cards: Array.from({ length: 11 }, () => ({ body: 'A', buttons: [{ type: 'reply' }] })) }, ['cards does not meet maximum length of 10']],
			[{ number: '5511999990000', body: 'x', cards: [{ buttons: [{ type: 'reply' }, { type: 'reply' }, { type: 'reply' }, { type: 'reply' }] }] }, ['cards[0].buttons does not meet maximum length of 3', 'cards[0] requires property "body"']],
		])('refuses %j', async (body, errors) => {
			const r = await call(sb, '/message/sendCarousel/demo', body);
			expect(r.status).toBe(400);
			expect(r.body).toEqual(validation(...errors));
		});
	});

	describe('POST /chat/markMessageAsPlayed', () => {
		it('answers 201 {message, played}', async () => {
			const r = await call(sb, '/chat/markMessageAsPlayed/demo', {
				playedMessages: [
					{ id: 'A1', fromMe: false, remoteJid: '5511999990000@s.whatsapp.net' },
					{ id: 'A2', fromMe: false, remoteJid: '123456789012345@lid' },
				],
			});
			expect(r.status).toBe(201);
			expect(r.body).toEqual({ message: 'Played messages', played: 'success' });
		});

		it('refuses an empty list and a key without fromMe', async () => {
			expect((await call(sb, '/chat/markMessageAsPlayed/demo', { playedMessages: [] })).body).toEqual(validation('playedMessages does not meet minimum length of 1'));
			expect((await call(sb, '/chat/markMessageAsPlayed/demo', { playedMessages: [{ id: 'A', remoteJid: 'x@s.whatsapp.net' }] })).body).toEqual(
				validation('playedMessages[0] requires property "fromMe"'),
			);
		});
	});

	describe('POST /chat/getPollVote', () => {
		it('answers a sent poll with every option at zero votes', async () => {
			const poll = await call(sb, '/message/sendPoll/demo', { number: '5511999990000', name: 'Lunch?', selectableCount: 1, values: ['Pizza', 'Sushi'] });
			expect(poll.status).toBe(201);
			const r = await call(sb, '/chat/getPollVote/demo', { message: { key: { id: poll.body.key.id } }, remoteJid: '5511999990000@s.whatsapp.net' });
			expect(r.status).toBe(200);
			expect(r.body).toEqual({ poll: { name: 'Lunch?', totalVotes: 0, results: { Pizza: { votes: 0, voters: [] }, Sushi: { votes: 0, voters: [] } } } });
		});

		it('an unknown poll is the service\'s 500', async () => {
			const r = await call(sb, '/chat/getPollVote/demo', { message: { key: { id: 'NOPE' } }, remoteJid: '5511999990000@s.whatsapp.net' });
			expect(r.status).toBe(500);
			expect(r.body).toEqual({ status: 500, error: 'Internal Server Error', response: { message: ['Error decrypting poll votes', '[object Object]'] } });
		});

		it('refuses a body without remoteJid or key.id', async () => {
			const r = await call(sb, '/chat/getPollVote/demo', { message: { key: {} } });
			expect(r.body).toEqual(validation('message.key requires property "id"', 'instance requires property "remoteJid"'));
		});
	});

	describe('POST /chat/findChannels', () => {
		it('pages the newsletters the instance has messages of, newest first', async () => {
			await sb.injectMessage('demo', { from: '120363111111111111@newsletter', text: 'old' });
			await new Promise((r) => setTimeout(r, 5));
			await sb.injectMessage('demo', { from: '120363222222222222@newsletter', text: 'new' });
			const all = await call(sb, '/chat/findChannels/demo', {});
			expect(all.status).toBe(200);
			expect(all.body).toEqual({
				total: 2,
				pages: 1,
				currentPage: 1,
				limit: 50,
				records: [
					{ remoteJid: '120363222222222222@newsletter', lastMessageTimestamp: expect.any(Number) },
					{ remoteJid: '120363111111111111@newsletter', lastMessageTimestamp: expect.any(Number) },
				],
			});
			const second = await call(sb, '/chat/findChannels/demo', { page: 2, limit: 1 });
			expect(second.body).toEqual({ total: 2, pages: 2, currentPage: 2, limit: 1, records: [{ remoteJid: '120363111111111111@newsletter', lastMessageTimestamp: expect.any(Number) }] });
		});
	});

	describe('POST /group/updateMemberAddMode', () => {
		it('answers 201 {update, mode}', async () => {
			const r = await call(sb, '/group/updateMemberAddMode/demo', { groupJid: GROUP, mode: 'all_member_add' });
			expect(r.status).toBe(201);
			expect(r.body).toEqual({ update: 'success', mode: 'all_member_add' });
		});

		it('refuses an unknown mode and an empty groupJid', async () => {
			expect((await call(sb, '/group/updateMemberAddMode/demo', { groupJid: GROUP, mode: 'everyone' })).body).toEqual(
				validation('mode is not one of enum values: admin_add,all_member_add'),
			);
			expect((await call(sb, '/group/updateMemberAddMode/demo', { groupJid: '', mode: 'admin_add' })).body).toEqual(validation('The "groupJid" cannot be empty'));
		});
	});
});
