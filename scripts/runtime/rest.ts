/**
 * A small client for n8n's REST interface (owner setup, login, publish / unpublish, node
 * types) and waiting for an address to answer.
 */
import * as http from 'node:http';

import { sleep } from './common';

export function request(
	method: string,
	url: string,
	body?: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				timeout: 60000,
				headers: {
					...(data !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
					...headers,
				},
			},
			(res) => {
				let text = '';
				res.on('data', (c) => (text += c));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
			},
		);
		req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${url}`)));
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

export const DEV_OWNER = {
	email: 'owner@example.com',
	password: 'Owner-Passw0rd!',
	firstName: 'Dev',
	lastName: 'Owner',
};

export interface RestClient {
	url: string;
	call(method: string, p: string, body?: unknown): Promise<any>;
	raw(method: string, p: string, body?: unknown): Promise<{ status: number; body: string }>;
	activate(id: string): Promise<any>;
	deactivate(id: string): Promise<any>;
	getWorkflow(id: string): Promise<any>;
	nodeTypes(): Promise<any[]>;
}

/** Sets up the owner account when needed, logs in, returns a cookie-authenticated client. */
export async function setupOwnerAndLogin(url: string, owner = DEV_OWNER): Promise<RestClient> {
	let cookie = '';
	// The editor's own question: does this n8n still need an owner? (Setting it up again
	// answers 400 "Instance owner already setup" and n8n logs it.)
	const settings = await request('GET', `${url}/rest/settings`);
	let needsSetup = true;
	try {
		needsSetup = JSON.parse(settings.body).data.userManagement.showSetupOnFirstLoad !== false;
	} catch {
		/* older n8n: try the setup */
	}
	if (needsSetup) {
		const setup = await request('POST', `${url}/rest/owner/setup`, owner);
		// 200 on first setup; 400 "Instance owner already setup" afterwards.
		if (setup.status !== 200 && !/already/i.test(setup.body)) {
			throw new Error(`owner setup failed: ${setup.status} ${setup.body}`);
		}
		cookie = cookieOf(setup.headers);
	}
	const login = await request('POST', `${url}/rest/login`, {
		emailOrLdapLoginId: owner.email,
		email: owner.email,
		password: owner.password,
	});
	if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`);
	cookie = cookieOf(login.headers) || cookie;
	const raw = async (method: string, p: string, body?: unknown) => {
		const res = await request(method, `${url}/rest${p}`, body, {
			cookie,
			'browser-id': 'n8n-e2e',
		});
		return { status: res.status, body: res.body };
	};
	const call = async (method: string, p: string, body?: unknown) => {
		const res = await raw(method, p, body);
		if (res.status >= 400) throw new Error(`${method} /rest${p} -> ${res.status} ${res.body.slice(0, 2000)}`);
		const parsed = res.body ? JSON.parse(res.body) : null;
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	};
	const client: RestClient = {
		url,
		raw,
		call,
		getWorkflow: (id) => call('GET', `/workflows/${id}`),
		activate: async (id) => {
			const wf = await call('GET', `/workflows/${id}`);
			return call('POST', `/workflows/${id}/activate`, { versionId: wf.versionId });
		},
		deactivate: async (id) => {
			const result = await call('POST', `/workflows/${id}/deactivate`, {});
			await unpublished(raw, id);
			return result;
		},
		nodeTypes: async () => {
			const res = await request('GET', `${url}/types/nodes.json`, undefined, { cookie });
			if (res.status !== 200) throw new Error(`/types/nodes.json -> ${res.status}`);
			return JSON.parse(res.body);
		},
	};
	return client;
}

/**
 * Waits until n8n has finished unpublishing the workflow. n8n 2.x answers the deactivation
 * at once and switches the triggers' external webhooks off afterwards, in the background
 * (retrying a failed attempt 1 s and 2 s later); a check that closes its sandbox before that
 * leaves "External webhook deregistration failed" in n8n's log. Its publication status is
 * `in_progress` until then. An n8n without that status (1.x, 404) unpublishes within the request.
 */
async function unpublished(raw: RestClient['raw'], id: string, timeoutMs = 60000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await raw('GET', `/workflows/${id}/publication-status`);
		if (res.status === 404) return;
		if (res.status >= 400) throw new Error(`GET /rest/workflows/${id}/publication-status -> ${res.status} ${res.body.slice(0, 500)}`);
		const status = (JSON.parse(res.body) as { data?: { status?: string } }).data?.status;
		if (status !== 'in_progress') return;
		if (Date.now() > deadline) throw new Error(`n8n was still unpublishing workflow ${id} after ${timeoutMs / 1000} s (publication status in_progress)`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

function cookieOf(headers: http.IncomingHttpHeaders): string {
	const set = headers['set-cookie'];
	if (!set) return '';
	return set.map((c) => c.split(';')[0]).join('; ');
}

export async function activate(client: RestClient, id: string): Promise<any> {
	return client.activate(id);
}

export async function deactivate(client: RestClient, id: string): Promise<any> {
	return client.deactivate(id);
}

/** Waits until GET <url> answers with something other than 404 / connection errors. */
export async function waitForHttp(
	url: string,
	accept: (status: number, body: string) => boolean,
	timeoutMs = 30000,
	method = 'GET',
): Promise<{ status: number; body: string }> {
	const deadline = Date.now() + timeoutMs;
	let last: { status: number; body: string } = { status: 0, body: '' };
	while (Date.now() < deadline) {
		try {
			last = await request(method, url);
			if (accept(last.status, last.body)) return last;
		} catch {
			/* not listening yet */
		}
		await sleep(500);
	}
	throw new Error(`${method} ${url} not accepted within ${timeoutMs} ms; last: ${last.status} ${last.body.slice(0, 300)}`);
}
