import type { INodeParameters } from 'n8n-workflow';

import { MessagingInstanceTrigger } from '../../nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node';
import { startSandbox } from '../../sandbox/server';
import { loadOptionsContext } from '../harness/loadOptions';
import { TRIGGER_TYPE } from '../harness/nodeTypes';
import { INSTANCE, savedParameters, setup, setWebhookBodies, type Setup } from './helpers';

/** The Instance picker of trigger version 2, and version 1's text field kept working. */

const trigger = new MessagingInstanceTrigger();
const picked = (mode: string, value: string): INodeParameters => ({ instance: { __rl: true, mode, value } });

describe('trigger Instance: version 2 picker, version 1 text', () => {
	let s: Setup | undefined;
	afterEach(async () => {
		await s?.close();
		s = undefined;
	});

	it('is version 3 by default (Catch Up on), with the action node\'s picker (From List / By Name) since version 2', () => {
		expect(trigger.description.version).toEqual([1, 2, 3]);
		expect(trigger.description.defaultVersion).toBe(3);
		const instance = trigger.description.properties.filter((property) => property.name === 'instance');
		expect(instance.map((property) => [property.type, property.displayOptions?.show?.['@version']])).toEqual([
			['string', [1]],
			['resourceLocator', [{ _cnd: { gte: 2 } }]],
		]);
		expect(instance[1].modes?.map((mode) => [mode.name, mode.type, mode.typeOptions?.searchListMethod])).toEqual([
			['list', 'list', 'searchInstances'],
			['name', 'string', undefined],
		]);
		expect(Object.keys(trigger.methods.listSearch)).toEqual(['searchInstances']);
	});

	it('a fresh version 2 trigger, saved as the editor saves it, fails activation with a clear error and sends nothing', async () => {
		expect(savedParameters({}, 2)).toEqual({ instance: { __rl: true, mode: 'list', value: '' }, events: ['MESSAGES_UPSERT'], options: {} });
		s = await setup('v2', {}, 2);
		await expect(s.harness.activate()).rejects.toThrow('The "Instance" parameter is empty');
		expect(s.sandbox.requests).toEqual([]);
	});

	it.each([
		['From List', picked('list', INSTANCE)],
		['By Name', picked('name', ` ${INSTANCE} `)],
		['By Name as an expression', picked('name', '={{ "de" + "mo" }}')],
	])('version 2 registers and receives with the instance %s', async (mode, parameters) => {
		s = await setup('v2', parameters, 2);
		await s.harness.activate();
		expect(setWebhookBodies(s.sandbox)).toEqual([
			{ webhook: expect.objectContaining({ enabled: true, url: expect.stringContaining(`${s.harness.productionUrl()}?secret_scope=`) }) },
		]);
		expect(s.sandbox.webhookOf(INSTANCE)?.url).toContain(s.harness.productionUrl());
		await s.sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'picked', id: `PICK-${mode}` });
		expect(s.harness.emitted.map((item) => [item.json.instance, item.json.text])).toEqual([[INSTANCE, 'picked']]);
		await s.harness.deactivate();
		expect(setWebhookBodies(s.sandbox).map((body) => (body as { webhook: { enabled: boolean } }).webhook.enabled)).toEqual([true, false]);
	});

	it('a version 1 workflow (the instance saved as text) still registers and receives', async () => {
		expect(savedParameters({ instance: INSTANCE }, 1)).toEqual({ instance: INSTANCE, events: ['MESSAGES_UPSERT'], options: {} });
		s = await setup('v2', {}, 1);
		await s.harness.activate();
		expect(s.sandbox.webhookOf(INSTANCE)?.url).toContain(s.harness.productionUrl());
		await s.sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'text field', id: 'V1-1' });
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['text field']);
	});

	it('the list offers the sandbox\'s instances, searchable, through n8n\'s load-options context', async () => {
		const sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: INSTANCE }, { name: 'other' }] });
		try {
			const context = loadOptionsContext({
				type: TRIGGER_TYPE,
				typeVersion: 2,
				name: 'Messaging Instance Trigger',
				credentials: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' },
				parameters: savedParameters({}, 2),
				parameter: 'instance',
			});
			const all = await trigger.methods.listSearch.searchInstances.call(context);
			const filtered = await trigger.methods.listSearch.searchInstances.call(context, 'oth');
			expect(all.results.map((entry) => entry.value)).toEqual([INSTANCE, 'other']);
			expect(all.results.map((entry) => entry.name)).toEqual([expect.stringMatching(/^demo/), expect.stringMatching(/^other/)]);
			expect(filtered.results.map((entry) => entry.value)).toEqual(['other']);
			expect(sandbox.requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
				{ method: 'GET', path: '/instance/fetchInstances', status: 200 },
				{ method: 'GET', path: '/instance/fetchInstances', status: 200 },
			]);
		} finally {
			await sandbox.close();
		}
	});
});
