/**
 * v2.3.x servers validate `numbers`, `mentioned` and `statusJidList` with JSON-schema
 * `uniqueItems`: a list with one entry twice is a 400 naming the list, before anything is sent.
 */
import { startSandbox, Sandbox, Dialect } from '../../sandbox/server';
import { call, validation } from './helpers';

const status = { type: 'text', content: 'Open today', caption: '', backgroundColor: '#008000', font: 1, allContacts: false };

describe('v2: a list with a repeated entry is refused', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ dialect: 'v2' });
	});
	afterAll(() => sb.close());
	beforeEach(() => sb.clearRequests());

	it('numbers (Check Numbers): 400 as the handler throws it, no `response` wrapper', async () => {
		const r = await call(sb, '/chat/whatsappNumbers/demo', { numbers: ['5511999990000', '5511988887777', '5511999990000'] });
		expect(r.status).toBe(400);
		expect(r.body).toEqual({ status: 400, error: 'Bad Request', message: [['numbers contains duplicate item']] });
	});

	it('mentioned (Send Text): 400, nothing sent', async () => {
		const r = await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'hi', mentioned: ['5511988887777', '5511988887777'] });
		expect(r.status).toBe(400);
		expect(r.body).toEqual(validation('mentioned contains duplicate item'));
		expect(sb.chat).toEqual([]);
	});

	it('statusJidList (Send Status): 400, nothing posted', async () => {
		const r = await call(sb, '/message/sendStatus/demo', { ...status, statusJidList: ['5511999990000@s.whatsapp.net', '5511999990000@s.whatsapp.net'] });
		expect(r.status).toBe(400);
		expect(r.body).toEqual(validation('statusJidList contains duplicate item'));
		expect(sb.chat).toEqual([]);
	});

	it('the same lists without a repeat are accepted', async () => {
		expect((await call(sb, '/chat/whatsappNumbers/demo', { numbers: ['5511999990000', '5511988887777'] })).status).toBe(200);
		expect((await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'hi', mentioned: ['5511988887777', '5511977776666'] })).status).toBe(201);
		expect((await call(sb, '/message/sendStatus/demo', { ...status, statusJidList: ['5511999990000@s.whatsapp.net', '5511988887777@s.whatsapp.net'] })).status).toBe(201);
	});
});

describe.each<Dialect>(['documented'])('%s: the contract sets no uniqueness on numbers and statusJidList', (dialect) => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ dialect });
	});
	afterAll(() => sb.close());

	it('accepts a repeated number and status recipient, refuses a repeated mention', async () => {
		const numbers = await call(sb, '/chat/messagingNumbers/demo', { numbers: ['5511999990000', '5511999990000'] });
		expect(numbers.status).toBe(200);
		expect(numbers.body).toHaveLength(2);
		const jid = '5511999990000@s.whatsapp.net';
		expect((await call(sb, '/message/sendStatus/demo', { ...status, statusJidList: [jid, jid] })).status).toBe(201);
		expect((await call(sb, '/message/sendText/demo', { number: '5511999990000', text: 'hi', mentioned: ['551', '551'] })).body).toEqual(
			validation('mentioned contains duplicate item'),
		);
	});
});
