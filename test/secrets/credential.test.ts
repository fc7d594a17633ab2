import { startSandbox, type Sandbox } from '../../sandbox/server';
import { testCredential } from '../harness/credentialTest';
import { startHostileServer, type HostileServer } from '../hostile/server';

/** The credential test: what it accepts and what its failures say. */

describe('the credential test and odd input', () => {
	let sandbox: Sandbox;
	let hostile: HostileServer;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect: 'documented', instances: [{ name: 'demo', token: 'demo-instance-token' }] });
		hostile = await startHostileServer();
	});
	afterAll(async () => {
		await sandbox.close();
		await hostile.close();
	});
	beforeEach(() => sandbox.clearRequests());

	test.each(['..', '.', ' .. '])('Instance %j is refused, never checked against another route', async (instance) => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'documented', instance });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/instance name/) });
		// One request, and it stayed on the numbers check of one instance (no dot segment resolved away).
		expect(sandbox.requests).toHaveLength(1);
		for (const request of sandbox.requests) {
			expect(request.path).toMatch(/^\/chat\/messagingNumbers\/[^/]+$/);
			expect(request.path).not.toMatch(/\/\.{1,2}$/);
		}
	});

	test('its own timeout says that the server did not answer in time, not only "canceled"', async () => {
		hostile.script('hang');
		const started = Date.now();
		const result = await testCredential({ baseUrl: hostile.url, apiKey: 'credential-test-key-123', dialect: 'v2', timeout: 1 });
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(hostile.seen).toHaveLength(1);
		expect(hostile.seen[0].path).toBe('/instance/fetchInstances');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/did not answer within 1 s/);
	});
});
