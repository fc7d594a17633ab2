import type { INodeParameters } from 'n8n-workflow';

import { MESSAGE_IDS, runNode } from '../harness/engine';
import { useHostileServer } from '../hostile/server';

/**
 * A send that asks the server to wait (a typing delay, a presence's duration) gets that wait
 * on top of the request timeout: the operation's request says how long, not the router.
 */
describe('the wait a request asks for extends its deadline', () => {
	const hostile = useHostileServer();

	async function run(parameters: INodeParameters) {
		return await runNode({
			parameters: { instance: 'demo', ...parameters },
			credentials: { baseUrl: hostile.current.url, apiKey: 'wait-key-1234567890', dialect: 'v2', timeout: 0.3 },
		});
	}

	beforeEach(() => hostile.current.answerAll(() => ({ json: { key: { id: 'W1' } }, delayMs: 600 })));

	test('Send Text with a Delay waits for the slow answer; without one it times out', async () => {
		const waited = await run({ resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi', options: { delay: 1000 } });
		expect(waited.error).toBeUndefined();
		expect(waited.items.map((item) => item.json)).toEqual([{ key: { id: 'W1' }, messageId: 'W1' }]);
		expect(JSON.parse(hostile.current.seen[0].body)).toEqual({ number: '5511999990000', text: 'hi', delay: 1000, messageId: MESSAGE_IDS[0] });

		const plain = await run({ resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' });
		expect(plain.error?.message).toBe('The server did not answer in time: timed out after 0.3 s');
	});

	test('Send Presence waits for its Duration', async () => {
		const waited = await run({ resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'composing', delay: 1000 });
		expect(waited.error).toBeUndefined();
		// The previous test's timed-out Send Text may still reach the server late on a loaded machine: look at this one's route.
		const presence = hostile.current.seen.filter((request) => request.path.startsWith('/chat/sendPresence/'));
		expect(presence.map((request) => JSON.parse(request.body))).toEqual([{ number: '5511999990000', presence: 'composing', delay: 1000 }]);
	});
});
