import { startSandbox, type Sandbox } from '../../sandbox/server';
import { testCredential } from '../harness/credentialTest';

/** Where each dialect's credential test goes: v2 lists instances, documented checks numbers. */
const probe = {
	documented: (instance: string) => ({ method: 'POST', path: `/chat/messagingNumbers/${instance}`, body: { numbers: [] } }),
	v2: () => ({ method: 'GET', path: '/instance/fetchInstances' }),
};

describe.each(['documented', 'v2'] as const)('credential test against a %s server', (dialect) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect, instances: [{ name: 'demo', token: 'demo-instance-token' }] });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.clearRequests());

	test('a good global key passes with one read-only request carrying the apikey header', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect, instance: 'demo' });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ ...probe[dialect]('demo'), status: 200 });
		expect(sandbox.requests[0].headers.apikey).toBe(sandbox.apiKey);
	});

	test("the instance's own token passes too", async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: 'demo-instance-token', dialect, instance: 'demo' });
		expect(result.status).toBe('OK');
		expect(sandbox.requests[0].status).toBe(200);
	});

	test('a wrong key is told apart with a clear message', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: 'wrong-key', dialect, instance: 'demo' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/refused the API key \(401/) });
		const { method, path } = probe[dialect]('demo');
		expect(sandbox.requests[0]).toMatchObject({ method, path, status: 401 });
	});

	test('a trailing slash and a pasted /manager path still reach the API root', async () => {
		for (const suffix of ['/', '/manager', '/manager/']) {
			sandbox.clearRequests();
			const result = await testCredential({ baseUrl: ` ${sandbox.url}${suffix} `, apiKey: sandbox.apiKey, dialect, instance: 'demo' });
			expect(result.status).toBe('OK');
			expect(sandbox.requests[0].path).toBe(probe[dialect]('demo').path);
		}
	});

	test('a base URL with a wrong path fails with the 404 hint about the Base URL', async () => {
		const result = await testCredential({ baseUrl: `${sandbox.url}/api`, apiKey: sandbox.apiKey, dialect, instance: 'demo' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/Base URL/) });
		expect(sandbox.requests[0]).toMatchObject({ path: `/api${probe[dialect]('demo').path}`, status: 404 });
	});

	test('a wrong address (nothing listening) fails with the socket error', async () => {
		const closed = await startSandbox({ dialect });
		const url = closed.url;
		await closed.close();
		const result = await testCredential({ baseUrl: url, apiKey: 'k', dialect, instance: 'demo' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/refused the connection|ECONNREFUSED/) });
	});
});

describe('credential test on a documented server and the instance name', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect: 'documented' });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.clearRequests());

	test('an unknown instance is named as the thing to check', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'documented', instance: 'nope' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/instance name is unknown/) });
		expect(sandbox.requests[0]).toMatchObject({ path: '/chat/messagingNumbers/nope', status: 404 });
	});

	test('without an instance name the test cannot pass, and says to check the instance name', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'documented' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/instance name/) });
		expect(sandbox.requests[0].path).toBe('/chat/messagingNumbers/instance-name-needed-for-the-test');
	});
});
