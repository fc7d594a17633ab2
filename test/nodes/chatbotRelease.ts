import { startSandbox, type Sandbox } from '../../sandbox/server';
import { declareSecrets } from '../harness/secrets';

/** The secrets the chatbot and event integration tests set, each declared to the harness's global check. */
export const OPENAI_KEY = 'sk-proj-Openai0Secret0Key0123456789';
export const BOT_KEY = 'app-Bot0Platform0Secret0Key0987';
export const N8N_PASSWORD = 'n8n-Basic0Auth0Password0555';
export const PUSHER_SECRET = 'pusher0app0secret0abcdef012345';

/** A v2 sandbox playing 2.3.7 with instances `demo` and `other`; every secret above declared. */
export function useRelease(): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeAll(async () => {
		holder.current = await startSandbox({ dialect: 'v2', version: '2.3.7', instances: [{ name: 'demo', token: 'demo-token' }, { name: 'other', token: 'other-token' }] });
		declareSecrets('demo-token', 'other-token', OPENAI_KEY, BOT_KEY, N8N_PASSWORD, PUSHER_SECRET);
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => holder.current.clearRequests());
	return holder;
}
