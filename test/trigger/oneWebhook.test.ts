import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import { TriggerHarness } from '../harness/webhooks';
import { WORKFLOW_ID } from '../harness/triggerWorkflow';
import { INSTANCE, savedParameters, secretOf, setup, setWebhookBodies, type Setup } from './helpers';

/**
 * An instance has one webhook (the sandbox keeps one per instance, as the server does), so
 * publishing a trigger never silently takes it away: another trigger of this n8n keeps it,
 * another system's is taken only with Replace Existing Webhook and put back on unpublish.
 */

const SECOND = { workflowId: 'wf-logger', nodeId: 'logger-trigger', webhookId: '7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e' };

/** A second workflow of the same n8n with a trigger on the same instance, as the editor saves it. */
async function secondWorkflow(s: Setup, options: INodeParameters = {}): Promise<TriggerHarness> {
	return await TriggerHarness.start({
		parameters: savedParameters({ instance: INSTANCE, options }),
		credentials: { baseUrl: `${s.sandbox.url}/`, apiKey: s.sandbox.apiKey, dialect: s.sandbox.dialect },
		ids: SECOND,
		sameN8nAs: s.harness,
	});
}

async function failure(run: Promise<unknown>): Promise<{ message: string; description: string }> {
	try {
		await run;
	} catch (error) {
		return { message: (error as Error).message, description: String((error as { description?: unknown }).description ?? '') };
	}
	throw new Error('expected the activation to fail');
}

/** Sets the instance's webhook as another system (or the user, in the server's manager) would. */
async function setForeignWebhook(sandbox: Sandbox, webhook: Record<string, unknown>): Promise<void> {
	const body = sandbox.dialect === 'v2' ? { webhook } : webhook;
	const res = await fetch(`${sandbox.url}/webhook/set/${INSTANCE}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', apikey: sandbox.apiKey },
		body: JSON.stringify(body),
	});
	expect(res.status).toBe(201);
	sandbox.clearRequests();
}

/** The instance's webhook as the server keeps it, without the fields the server stamps. */
function stored(sandbox: Sandbox): Record<string, unknown> {
	const { url, events, enabled, headers, byEvents, base64 } = sandbox.webhookOf(INSTANCE) ?? {};
	return { url, events, enabled, headers, byEvents, base64 };
}

const CRM_URL = 'https://crm.example.com/hooks/whatsapp?token=crm-query-secret-81723';
const CRM = {
	enabled: true,
	url: CRM_URL,
	events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
	byEvents: true,
	base64: false,
	headers: { authorization: 'Bearer crm-header-secret-55012', 'x-crm-tenant': 'acme' },
};

describe('one webhook per instance: two triggers on one instance (v2)', () => {
	let s: Setup;
	let second: TriggerHarness;
	beforeEach(async () => {
		s = await setup('v2');
		second = await secondWorkflow(s);
	});
	afterEach(async () => {
		await second.close();
		await s.close();
	});

	it('the second workflow fails to publish, naming the workflow that holds the instance and how to do both; the first keeps receiving', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const held = stored(sandbox);

		const error = await failure(second.activate());
		expect(error.message).toBe(`The instance "${INSTANCE}" already starts workflow ${WORKFLOW_ID} on this n8n`);
		expect(error.description).toContain(`Open it at ${harness.baseUrl}/workflow/${WORKFLOW_ID}.`);
		expect(error.description).toContain('a Switch node');
		expect(error.description).toContain('an Execute Workflow node');
		expect(error.description).toContain(`unpublish workflow ${WORKFLOW_ID} first`);
		// Asked, and sent nothing: the instance is still the first workflow's.
		expect(setWebhookBodies(sandbox)).toHaveLength(1);
		expect(stored(sandbox)).toEqual(held);
		expect(second.nodeStaticData).toEqual({});

		// n8n removes a failed workflow's webhooks (its delete hook): that switches nothing off.
		await second.deactivate();
		expect(setWebhookBodies(sandbox)).toHaveLength(1);
		expect(stored(sandbox)).toEqual(held);

		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'to the bot' });
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['to the bot']);
		expect(second.received).toEqual([]);

		// Once the first is unpublished, the second takes the instance.
		await harness.deactivate();
		await second.activate();
		expect(new URL(String(sandbox.webhookOf(INSTANCE)?.url)).pathname).toBe(new URL(second.productionUrl()).pathname);
		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'to the logger' });
		expect(second.emitted.map((item) => item.json.text)).toEqual(['to the logger']);
	});

	it('Replace Existing Webhook never takes the instance from another trigger of this n8n', async () => {
		const { sandbox, harness } = s;
		await second.close();
		second = await secondWorkflow(s, { replaceExistingWebhook: true });
		await harness.activate();
		const held = stored(sandbox);
		const error = await failure(second.activate());
		expect(error.message).toBe(`The instance "${INSTANCE}" already starts workflow ${WORKFLOW_ID} on this n8n`);
		expect(stored(sandbox)).toEqual(held);
	});

	it('a restart of n8n with both published leaves the instance with the workflow that holds it', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const held = stored(sandbox);
		await failure(second.activate());

		// n8n adds its published workflows again, in any order.
		const error = await failure(second.restart());
		expect(error.message).toBe(`The instance "${INSTANCE}" already starts workflow ${WORKFLOW_ID} on this n8n`);
		expect(await harness.restart()).toEqual({ created: false });
		expect(await failure(second.restart())).toEqual(error);
		expect(stored(sandbox)).toEqual(held);
		expect(setWebhookBodies(sandbox)).toHaveLength(1);

		await sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'after the restart' });
		expect(harness.emitted.map((item) => item.json.text)).toEqual(['after the restart']);
		expect(second.received).toEqual([]);
	});

	it('two triggers of one workflow on one instance: the second fails, naming this workflow', async () => {
		const { harness } = s;
		await harness.activate();
		const sameWorkflow = await TriggerHarness.start({
			parameters: savedParameters({ instance: INSTANCE }),
			credentials: { baseUrl: `${s.sandbox.url}/`, apiKey: s.sandbox.apiKey, dialect: 'v2' },
			ids: { ...SECOND, workflowId: WORKFLOW_ID },
			sameN8nAs: harness,
		});
		const error = await failure(sameWorkflow.activate());
		expect(error.message).toBe(`Another trigger of this workflow already receives the events of instance "${INSTANCE}"`);
		expect(error.description).toContain('one trigger can choose several events');
		await sameWorkflow.close();
	});

	it('a test listener of another workflow holds the instance only until its test ends', async () => {
		const { sandbox, harness } = s;
		await second.listenForTest();
		const error = await failure(harness.activate());
		expect(error.message).toBe(`The instance "${INSTANCE}" is listening for a test event of another workflow`);
		expect(error.description).toContain(`workflow ${SECOND.workflowId}`);
		await second.stopTest();
		await harness.activate();
		expect(sandbox.webhookOf(INSTANCE)).toMatchObject({ enabled: true });
		expect(secretOf(s)).toMatch(/^[A-Za-z0-9_-]{43}$/);
	});
});

describe('one webhook per instance: a webhook of another system (v2)', () => {
	let s: Setup;
	afterEach(async () => {
		await s.close();
	});

	it('without Replace Existing Webhook, publishing fails naming host and path (no query, no secret) and changes nothing', async () => {
		s = await setup('v2');
		await setForeignWebhook(s.sandbox, CRM);
		const before = stored(s.sandbox);
		const error = await failure(s.harness.activate());
		expect(error.message).toBe(`The instance "${INSTANCE}" already sends its events to https://crm.example.com/hooks/whatsapp`);
		expect(error.description).toContain('"Replace Existing Webhook"');
		expect(JSON.stringify(error)).not.toMatch(/crm-query-secret|crm-header-secret|token=/);
		expect(setWebhookBodies(s.sandbox)).toEqual([]);
		expect(stored(s.sandbox)).toEqual(before);
	});

	it('with Replace Existing Webhook, publishing takes the instance and unpublishing puts the webhook back exactly', async () => {
		s = await setup('v2', { options: { replaceExistingWebhook: true } });
		await setForeignWebhook(s.sandbox, CRM);
		const before = stored(s.sandbox);
		expect(before).toEqual({
			url: CRM_URL,
			events: CRM.events,
			enabled: true,
			headers: CRM.headers,
			byEvents: true,
			base64: false,
		});

		await s.harness.activate();
		expect(new URL(String(s.sandbox.webhookOf(INSTANCE)?.url)).pathname).toBe(new URL(s.harness.productionUrl()).pathname);
		await s.sandbox.injectMessage(INSTANCE, { from: '5511999990000', text: 'to the workflow' });
		expect(s.harness.emitted.map((item) => item.json.text)).toEqual(['to the workflow']);
		// A restart keeps what to put back.
		expect(await s.harness.restart()).toEqual({ created: false });

		await s.harness.deactivate();
		expect(stored(s.sandbox)).toEqual(before);
		expect(s.harness.nodeStaticData).toEqual({});
	});

	it('a webhook of another system that is switched off is taken without the option, and put back switched off', async () => {
		s = await setup('v2');
		await setForeignWebhook(s.sandbox, { ...CRM, enabled: false });
		const before = stored(s.sandbox);
		await s.harness.activate();
		expect(s.sandbox.webhookOf(INSTANCE)?.enabled).toBe(true);
		await s.harness.deactivate();
		expect(stored(s.sandbox)).toEqual(before);
	});

	it('unpublishing leaves a webhook set elsewhere meanwhile as it is', async () => {
		s = await setup('v2');
		await s.harness.activate();
		await setForeignWebhook(s.sandbox, CRM);
		const before = stored(s.sandbox);
		await s.harness.deactivate();
		expect(setWebhookBodies(s.sandbox)).toEqual([]);
		expect(stored(s.sandbox)).toEqual(before);
	});
});

describe('one webhook per instance: the documented dialect (no Find Webhook)', () => {
	let s: Setup;
	let second: TriggerHarness;
	beforeEach(async () => {
		s = await setup('documented');
		second = await secondWorkflow(s);
	});
	afterEach(async () => {
		await second.close();
		await s.close();
	});

	it('knows the triggers this n8n registered: the second workflow fails, and unpublishing it switches nothing off', async () => {
		const { sandbox, harness } = s;
		await harness.activate();
		const held = stored(sandbox);
		const error = await failure(second.activate());
		expect(error.message).toBe(`The instance "${INSTANCE}" already starts workflow ${WORKFLOW_ID} on this n8n`);
		await second.deactivate();
		expect(setWebhookBodies(sandbox)).toHaveLength(1);
		expect(stored(sandbox)).toEqual(held);
		// A restart of the holder registers again (no Find Webhook: the idempotent way).
		expect(await harness.restart()).toEqual({ created: true });
		await failure(second.restart());
		expect(stored(sandbox)).toEqual(held);
		await harness.deactivate();
		expect(sandbox.webhookOf(INSTANCE)?.enabled).toBe(false);
	});

	it('cannot see a webhook set on the server: publishing replaces it, as the option\'s description says', async () => {
		const { sandbox, harness } = s;
		await setForeignWebhook(sandbox, { enabled: true, url: CRM_URL, webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] });
		await harness.activate();
		expect(setWebhookBodies(sandbox)).toHaveLength(1);
		expect(new URL(String(sandbox.webhookOf(INSTANCE)?.url)).pathname).toBe(new URL(harness.productionUrl()).pathname);
		expect(sandbox.requests.filter((r) => r.path.startsWith('/webhook/find'))).toEqual([]);
	});
});
