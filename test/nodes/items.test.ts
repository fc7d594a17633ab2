import { idOn } from '../harness/engine';
import { run, useSandbox } from './helpers';

describe.each(['documented', 'v2'] as const)('every item counts (%s)', (dialect) => {
	const sandbox = useSandbox(dialect);

	test('each input item sends once, with its own expression values, and its output is paired with it', async () => {
		const items = Array.from({ length: 5 }, (_, i) => ({ to: `+55 11 9999${i}-000${i}`, name: `Ana ${i}`, instance: 'demo' }));
		const result = await run(sandbox.current, {
			resource: 'message',
			operation: 'sendText',
			instance: '={{ $json.instance }}',
			number: '={{ $json.to }}',
			text: '=Hello {{ $json.name }}',
			options: { delay: '={{ $itemIndex * 0 }}' },
		}, { items });

		expect(result.error).toBeUndefined();
		expect(sandbox.current.requests.map((r) => r.body)).toEqual(
			// v2 servers get each item's own message id; the documented interface has no such field.
			items.map((_, i) => ({ number: `55119999${i}000${i}`, text: `Hello Ana ${i}`, delay: 0, ...idOn(dialect, i) })),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		expect(result.items.map((item) => (item.json.message as { extendedTextMessage: { text: string } }).extendedTextMessage.text)).toEqual(
			items.map((_, i) => `Hello Ana ${i}`),
		);
	});

	test('the credential is read once per execution, not once per item', async () => {
		const items = Array.from({ length: 20 }, (_, i) => ({ i }));
		const result = await run(sandbox.current, { resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'paused', delay: 0 }, { items });
		expect(sandbox.current.requests).toHaveLength(20);
		expect(result.credentialDecryptions).toBe(1);
	});

	test('Check Numbers on several items: one request per item, outputs paired with the item that asked', async () => {
		const result = await run(sandbox.current, { resource: 'chat', operation: 'checkNumbers', numbers: '={{ $json.list }}' }, {
			items: [{ list: '5511999990001, 5511999990002' }, { list: '5511999990003' }],
		});
		expect(sandbox.current.requests.map((r) => r.body)).toEqual([{ numbers: ['5511999990001', '5511999990002'] }, { numbers: ['5511999990003'] }]);
		expect(result.items.map((item) => [item.json.number, item.pairedItem])).toEqual([
			['5511999990001', { item: 0 }],
			['5511999990002', { item: 0 }],
			['5511999990003', { item: 1 }],
		]);
	});

	test('without Continue On Fail the first failing item stops the run, after the earlier items were sent', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '={{ $json.to }}', text: 'x' }, {
			items: [{ to: '5511999990001' }, { to: '0000' }, { to: '5511999990003' }],
		});
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: '0000 has no account on the messaging network (HTTP 400)' });
		expect(sandbox.current.requests.map((r) => (r.body as { number: string }).number)).toEqual(['5511999990001', '0000']);
	});
});
