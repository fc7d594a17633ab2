import { useHostileServer } from '../hostile/server';
import { testCredential } from '../harness/credentialTest';
import { LICENCE_TEST_MESSAGE } from '../../nodes/shared/licence';

/** A 2.4 server that is not activated answers the credential test's request with 503 LICENSE_REQUIRED. */
describe("credential test against 2.4's licence gate", () => {
	const hostile = useHostileServer();

	test('the 503 says what is missing and both ways to activate', async () => {
		hostile.current.answerAll(() => ({
			status: 503,
			json: { error: 'service not activated', code: 'LICENSE_REQUIRED', register_url: `${hostile.current.url}/manager/login`, message: 'This Evolution API instance is not activated.' },
		}));
		const result = await testCredential({ baseUrl: hostile.current.url, apiKey: 'licence-test-key-123', dialect: 'v2' });
		expect(result).toEqual({ status: 'Error', message: LICENCE_TEST_MESSAGE });
		expect(result.message).toMatch(/until it is activated/);
		expect(result.message).toMatch(/LICENSE_REQUIRED/);
		expect(result.message).toMatch(/\/manager\/login/);
		expect(result.message).toMatch(/licensing key as AUTHENTICATION_API_KEY/);
		expect(hostile.current.seen.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /instance/fetchInstances']);
		expect(result.message).not.toContain('licence-test-key-123');
	});
});
