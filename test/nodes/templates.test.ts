import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import type { ServerVersion } from '../../sandbox/versions';
import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { loadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
import { declareSecrets } from '../harness/secrets';
import { credentialsFor, run, sent } from './helpers';
import { CHATWOOT_TOKEN, PROXY_PASSWORD } from './integrationSecrets';

/**
 * The Template resource (Meta message templates of Cloud API instances) and Send Template,
 * against v2 sandboxes with a Baileys and a Cloud API instance: the exact request each sends,
 * what came back, the pickers, and what a 2.3.6 server cannot do. The secrets of the other
 * integrations are declared to the harness here too, as in otherRoutes.test.ts.
 */

declareSecrets(PROXY_PASSWORD, CHATWOOT_TOKEN);

const CHAT = '5511988880000@s.whatsapp.net';
const picked = (value: string) => ({ __rl: true, mode: 'list', value });
const jsons = (result: { items: Array<{ json: IDataObject }> }) => result.items.map((item) => item.json);

/** A v2 sandbox of this release with a Baileys instance `demo` and a Cloud API instance `meta`. */
function useCloudSandbox(version: ServerVersion): { readonly current: Sandbox } {
	const holder = {} as { current: Sandbox };
	beforeAll(async () => {
		holder.current = await startSandbox({ dialect: 'v2', version, instances: [{ name: 'demo' }, { name: 'meta', integration: 'WHATSAPP-BUSINESS' }] });
	});
	afterAll(async () => await holder.current.close());
	beforeEach(() => holder.current.clearRequests());
	return holder;
}

const LOOKUP = (instance: string) => ({ method: 'GET', path: '/instance/fetchInstances', query: { instanceName: instance } });
const requestLines = (sandbox: Sandbox) => sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, ...(body !== undefined ? { body } : {}) }));

describe('Templates (Cloud API instances)', () => {
	const sandbox = useCloudSandbox('2.3.7');
	const components = [{ type: 'BODY', text: 'Order {{1}} shipped', example: { body_text: [['#1']] } }];

	test('Create, Get Many, Update and Delete a template of a Cloud API instance', async () => {
		const created = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'create', name: 'order_shipped', category: 'UTILITY', language: 'pt_BR', components: JSON.stringify(components) });
		expect(created.error).toBeUndefined();
		expect(created.items[0].json).toMatchObject({ name: 'order_shipped', templateId: expect.any(String), template: { status: 'PENDING', category: 'UTILITY' } });
		const id = created.items[0].json.templateId as string;
		const listed = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'getMany', limit: 1 });
		const all = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'getMany', returnAll: true });
		const updated = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'update', templateId: picked(id), updateFields: { category: 'MARKETING', ttl: 600 } });
		const deleted = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'delete', templateName: picked('order_shipped'), options: { hsmId: id } });
		expect([listed.error, all.error, updated.error, deleted.error]).toEqual([undefined, undefined, undefined, undefined]);
		// the server's version (GET /) is asked once per credential, whichever run comes first
		expect(requestLines(sandbox.current).filter((request) => request.path !== '/')).toEqual([
			LOOKUP('meta'),
			{ method: 'POST', path: '/template/create/meta', query: {}, body: { name: 'order_shipped', category: 'UTILITY', language: 'pt_BR', components } },
			LOOKUP('meta'),
			{ method: 'GET', path: '/template/find/meta', query: {} },
			LOOKUP('meta'),
			{ method: 'GET', path: '/template/find/meta', query: {} },
			LOOKUP('meta'),
			{ method: 'POST', path: '/template/edit/meta', query: {}, body: { templateId: id, category: 'MARKETING', ttl: 600 } },
			LOOKUP('meta'),
			{ method: 'DELETE', path: '/template/delete/meta', query: {}, body: { name: 'order_shipped', hsmId: id } },
		]);
		expect(jsons(listed).map((template) => template.name)).toEqual(['hello_world']);
		expect(jsons(all).map((template) => template.name)).toEqual(['hello_world', 'order_shipped']);
		expect([...jsons(updated), ...jsons(deleted)]).toEqual([{ success: true }, { success: true }]);
	});

	test('Send Template sends name, language and components; Meta\'s refusal in a 2xx is an error naming the template', async () => {
		const ok = await run(sandbox.current, {
			instance: 'meta',
			resource: 'message',
			operation: 'sendTemplate',
			number: '5511988880000',
			templateName: picked('hello_world'),
			components: '[{"type":"body","parameters":[{"type":"text","text":"Ana"}]}]',
		});
		const refused = await run(sandbox.current, { instance: 'meta', resource: 'message', operation: 'sendTemplate', number: '5511988880000', templateName: picked('nope') });
		expect(ok.error).toBeUndefined();
		expect(sent(sandbox.current).filter((request) => request.path.startsWith('/message'))).toEqual([
			{ method: 'POST', path: '/message/sendTemplate/meta', status: 201, body: { number: '5511988880000', name: 'hello_world', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] } },
			{ method: 'POST', path: '/message/sendTemplate/meta', status: 201, body: { number: '5511988880000', name: 'nope', language: 'en_US' } },
		]);
		expect(ok.items[0].json).toMatchObject({ key: { remoteJid: CHAT, fromMe: true } });
		expect(refused.error?.message).toBe('"Template" was refused by Meta: (#132001) Template name does not exist in the translation (template name (nope) does not exist in en_US) [item 0]');
	});

	test('with a Baileys instance every template operation says it needs a Cloud API instance, before sending', async () => {
		const parameters: INodeParameters[] = [
			{ resource: 'template', operation: 'getMany' },
			{ resource: 'template', operation: 'create', name: 'x', language: 'en' },
			{ resource: 'template', operation: 'update', templateId: picked('1'), updateFields: { ttl: 60 } },
			{ resource: 'template', operation: 'delete', templateName: picked('x') },
			{ resource: 'message', operation: 'sendTemplate', number: '5511988880000', templateName: picked('hello_world') },
		];
		for (const parameter of parameters) {
			sandbox.current.clearRequests();
			const result = await run(sandbox.current, parameter);
			expect(result.error?.message).toMatch(/^"Instance" .+ works only with WhatsApp Cloud API instances; "demo" is a Baileys instance \(WHATSAPP-BAILEYS\) \[item 0\]$/);
			expect(requestLines(sandbox.current).filter((request) => request.path !== '/')).toEqual([LOOKUP('demo')]);
		}
	});

	test('Create refuses components that are not a JSON list, naming the field', async () => {
		const result = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'create', name: 'bad_one', language: 'en', components: '{"type":"BODY"}' });
		expect(result.error?.message).toBe('"Components" must be a JSON list of components ([{ "type": "BODY", … }]) [item 0]');
		// The item's own fields are checked before the server is asked which integration the instance has.
		expect(requestLines(sandbox.current)).toEqual([]);
	});
});

describe('Template pickers', () => {
	const sandbox = useCloudSandbox('2.3.7');
	const node = new MessagingInstance();
	const context = (instanceName: string, parameter: string) =>
		loadOptionsContext({
			type: ACTION_TYPE,
			typeVersion: 2,
			name: 'Messaging Instance',
			credentials: credentialsFor(sandbox.current) as never,
			parameters: { resource: 'template', operation: 'delete', instance: { __rl: true, mode: 'list', value: instanceName } },
			parameter,
		});

	test('a Cloud API instance\'s templates by name (Send Template, Delete) and by Meta ID (Update), with language and status', async () => {
		const byName = await node.methods.listSearch.searchTemplates.call(context('meta', 'templateName'), 'hello');
		const byId = await node.methods.listSearch.searchTemplateIds.call(context('meta', 'templateId'));
		expect(byName.results).toEqual([{ name: 'hello_world (en_US, APPROVED)', value: 'hello_world' }]);
		expect(byId.results).toEqual([{ name: 'hello_world (en_US, APPROVED)', value: '1000000000000001' }]);
		expect(sent(sandbox.current).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /template/find/meta', 'GET /template/find/meta']);
	});

	test('a Baileys instance offers none (its server answers an empty body)', async () => {
		const none = await node.methods.listSearch.searchTemplates.call(context('demo', 'templateName'));
		expect(none.results).toEqual([]);
		expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: '/template/find/demo', status: 200, body: undefined }]);
	});
});

describe('Templates on 2.3.6: Update and Delete name the version they need', () => {
	const sandbox = useCloudSandbox('2.3.6');

	test('Update fails before sending on a 2.3.6 server', async () => {
		const result = await run(sandbox.current, { instance: 'meta', resource: 'template', operation: 'update', templateId: picked('1000000000000001'), updateFields: { ttl: 60 } });
		expect(result.error?.message).toBe('Template → Update needs Evolution API 2.3.7 or newer; this server is 2.3.6 [item 0]');
		// nothing but the server's version (GET /, unless known from a run before) was asked
		expect(sandbox.current.requests.map((request) => request.path).filter((path) => path !== '/')).toEqual([]);
	});
});
