import { runNode } from '../harness/engine';
import { useHostileServer } from '../hostile/server';
import { PUSHER_SECRET, useRelease } from './chatbotRelease';
import { run, sent } from './helpers';

/**
 * Event Integration against a v2 sandbox playing 2.3.7: Set and Get on every Event Bus, the
 * exact request each sends, the answer each gives, Pusher's secret nowhere in an output (it
 * is declared to the harness's global check too), and a server with the bus turned off.
 */

describe('Event Integration: Set and Get on every Event Bus', () => {
	const sandbox = useRelease();

	test.each(['websocket', 'rabbitmq', 'sqs', 'nats', 'kafka'])('%s: Set with chosen events, then Get reads them back', async (kind) => {
		const set = await run(sandbox.current, { resource: 'eventIntegration', operation: 'set', kind, enabled: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] });
		const get = await run(sandbox.current, { resource: 'eventIntegration', operation: 'get', kind });
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: `/${kind}/set/demo`, status: 201, body: { [kind]: { enabled: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'] } } },
			{ method: 'GET', path: `/${kind}/find/demo`, status: 200, body: undefined },
		]);
		expect(set.items[0].json).toMatchObject({ enabled: true, events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'], id: expect.any(String) });
		expect(get.items.map((item) => item.json)).toEqual([set.items[0].json]);
	});

	test('pusher: the app\'s credentials are sent; its secret never comes back', async () => {
		const set = await run(sandbox.current, { resource: 'eventIntegration', operation: 'set', kind: 'pusher', appId: '1234567', key: 'a1b2c3', secret: PUSHER_SECRET, cluster: 'eu', events: ['CALL'] });
		const get = await run(sandbox.current, { resource: 'eventIntegration', operation: 'get', kind: 'pusher' });
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/pusher/set/demo', status: 201, body: { pusher: { enabled: true, events: ['CALL'], appId: '1234567', key: 'a1b2c3', secret: PUSHER_SECRET, cluster: 'eu', useTLS: true } } },
			{ method: 'GET', path: '/pusher/find/demo', status: 200, body: undefined },
		]);
		expect(set.items[0].json).toMatchObject({ enabled: true, appId: '1234567', key: 'a1b2c3', secret: '[redacted]', cluster: 'eu', useTLS: true });
		expect(get.items[0].json.secret).toBe('[redacted]');
	});

	test('fresh defaults: Get of a bus never set says it is off; Set sends enabled with every event', async () => {
		const get = await run(sandbox.current, { resource: 'eventIntegration', instance: 'other' });
		const set = await run(sandbox.current, { resource: 'eventIntegration', operation: 'set', instance: 'other' });
		expect(sent(sandbox.current)).toEqual([
			{ method: 'GET', path: '/websocket/find/other', status: 200, body: undefined },
			{ method: 'POST', path: '/websocket/set/other', status: 201, body: { websocket: { enabled: true, events: [] } } },
		]);
		expect(get.items.map((item) => item.json)).toEqual([{ enabled: false, events: [] }]);
		// No event chosen: the server stores all of them.
		expect((set.items[0].json.events as string[]).length).toBe(31);
	});

	test('pusher without its secret stops before sending, naming the field', async () => {
		const result = await run(sandbox.current, { resource: 'eventIntegration', operation: 'set', kind: 'pusher', appId: '1', key: 'k', secret: '={{ "" }}', cluster: 'eu' });
		expect(sent(sandbox.current)).toEqual([]);
		expect(result.error?.message).toBe('"Secret" is required [item 0]');
	});

	test('an event a 2.3.7 server does not know comes back as its schema error', async () => {
		const result = await run(sandbox.current, { resource: 'eventIntegration', operation: 'set', kind: 'nats', events: ['MESSAGING_HISTORY_SET'] });
		expect(sent(sandbox.current).map((request) => request.status)).toEqual([400]);
		expect(result.error?.message).toMatch(/MESSAGING_HISTORY_SET|enum/);
	});
});

describe('Event Integration on a server with the bus turned off', () => {
	const hostile = useHostileServer();
	const KEY = 'events-off-key-1234567890';

	// A truly empty answer (the real controller's when the bus is off) is served by the sandbox: serverTruth.test.ts.
	test('Set answered 201 with null is an error saying which setting turns the bus on; Get\'s null is "never set"', async () => {
		const answer = null;
		hostile.current.answerAll(() => ({ status: 201, json: answer }));
		const parameters = { instance: 'demo', resource: 'eventIntegration', operation: 'set', kind: 'rabbitmq', events: ['CALL'] };
		const set = await runNode({ parameters, credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' } });
		const get = await runNode({ parameters: { ...parameters, operation: 'get' }, credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' } });
		expect(hostile.current.seen.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
			{ method: 'POST', path: '/rabbitmq/set/demo', body: JSON.stringify({ rabbitmq: { enabled: true, events: ['CALL'] } }) },
			{ method: 'GET', path: '/rabbitmq/find/demo', body: '' },
		]);
		expect(set.error?.message).toBe('"Operation" was not saved: the RabbitMQ integration is turned off on the server [item 0]');
		expect((set.error as { description?: string } | undefined)?.description).toBe('The server\'s administrator turns it on with RABBITMQ_ENABLED=true in its environment.');
		expect(get.items.map((item) => item.json)).toEqual([{ enabled: false, events: [] }]);
	});
});
