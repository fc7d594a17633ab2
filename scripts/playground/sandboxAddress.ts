import type { RestClient } from '../n8n-runtime';
import { DEV_CREDENTIAL_NAME, type DevState } from './devState';

/**
 * The credential `npm start` created still points at the sandbox address of an earlier run
 * (DEV_SANDBOX_PORT changed): give it the current one. A Base URL the user set to anything
 * else is left alone, and said.
 */
export async function followSandboxAddress(rest: RestClient, state: DevState, sandboxUrl: string, note: (line: string) => void): Promise<boolean> {
	const id = state.credentialId!;
	const cred = await rest.call('GET', `/credentials/${id}?includeData=true`).catch(() => undefined);
	if (!cred) {
		note(`the credential "${DEV_CREDENTIAL_NAME}" (id ${id}) is gone; remove "credentialId" from dev-state.json in the user folder and start again to have it created`);
		return false;
	}
	const baseUrl = String(cred.data?.baseUrl ?? '').replace(/\/+$/, '');
	if (baseUrl === sandboxUrl && cred.data?.dialect === 'v2') return true;
	// Runs before the address was recorded used a local sandbox address too.
	const ours = state.sandboxUrl ?? (/^http:\/\/127\.0\.0\.1:\d+$/.test(baseUrl) ? baseUrl : undefined);
	if (baseUrl !== ours) {
		note(
			`the credential "${cred.name}" points to ${baseUrl || '(no Base URL)'}, not to this sandbox (${sandboxUrl}); ` +
				`its workflows talk to that server. To use the sandbox, set the credential's Base URL to ${sandboxUrl}.`,
		);
		return false;
	}
	// n8n keeps secret fields it sent redacted when they come back unchanged.
	await rest.call('PATCH', `/credentials/${id}`, { name: cred.name, type: cred.type, data: { ...cred.data, baseUrl: sandboxUrl, dialect: 'v2' } });
	if (baseUrl !== sandboxUrl) note(`DEV_SANDBOX_PORT changed: the credential "${cred.name}" now points to ${sandboxUrl} (was ${baseUrl})`);
	if (cred.data?.dialect !== 'v2') note(`the credential "${cred.name}" now speaks the v2 dialect, as the sandbox does`);
	state.sandboxUrl = sandboxUrl;
	return true;
}
