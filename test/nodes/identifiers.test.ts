import { run, sent, useSandbox } from './helpers';

describe('ids and numbers that lost digits, and one person given twice', () => {
	const sandbox = useSandbox('v2');

	test('a group id mapped as a number past 2^53 is refused before sending, like a phone number', async () => {
		const result = await run(
			sandbox.current,
			{ resource: 'group', operation: 'get', groupJid: { __rl: true, mode: 'id', value: '={{ $json.group }}' } },
			{ items: [{ group: 120363000000000001 }] },
		);
		expect(result.error?.message).toBe('"Group" must be written as text: as a number its digits are already rounded [item 0]');
		expect(sent(sandbox.current)).toEqual([]);
	});

	test('a group id given as a whole number JavaScript holds exactly still goes as its digits', async () => {
		const result = await run(sandbox.current, { resource: 'group', operation: 'get', groupJid: { __rl: true, mode: 'id', value: '={{ $json.group }}' } }, { items: [{ group: 1203630 }] });
		expect(sandbox.current.requests.map((request) => [request.path, request.query])).toEqual([['/group/findGroupInfos/demo', { groupJid: '1203630' }]]);
		expect(result.error?.message).not.toMatch(/rounded/);
	});

	test('the same number as digits and as its JID is sent once, in the form first given', async () => {
		const result = await run(sandbox.current, {
			resource: 'chat',
			operation: 'checkNumbers',
			numbers: '+55 11 99999-0000, 5511999990000@s.whatsapp.net, 5511888880000@s.whatsapp.net, 5511888880000',
		});
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current).map(({ path, body }) => [path, body])).toEqual([
			['/chat/whatsappNumbers/demo', { numbers: ['5511999990000', '5511888880000@s.whatsapp.net'] }],
		]);
		expect(result.items).toHaveLength(2);
	});
});
