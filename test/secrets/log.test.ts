import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { runNode } from '../harness/engine';
import { clearLog, loggedLines } from '../harness/logs';
import { assertNoSecrets } from '../harness/secrets';
import { TriggerHarness } from '../harness/webhooks';
import { savedParameters } from '../trigger/helpers';

/**
 * The suite-wide secret check reads n8n's log too: what n8n-core's engine logs through
 * LoggerProxy and what a node logs through `this.logger` is captured by the harness
 * (test/harness/logs.ts), and a secret in a line's message or metadata fails the check.
 */

const SECRET = 'log-secret-0a1b2c3d4e5f';

describe('the secret check of the log', () => {
	test('a clean log passes', () => {
		LoggerProxy.info('Workflow execution started', { workflowId: 'wf-test' });
		expect(() => assertNoSecrets('a unit check', {}, [SECRET])).not.toThrow();
	});

	test.each<[string, () => void]>([
		['a message logged through LoggerProxy', () => LoggerProxy.warn(`calling with ${SECRET}`)],
		['metadata logged through LoggerProxy', () => LoggerProxy.debug('request', { headers: { apikey: SECRET } })],
		['an error in the metadata', () => LoggerProxy.error('failed', { error: new Error(`Invalid apikey ${SECRET}`) })],
		["a line of the Logger nodes read as this.logger", () => Container.get(Logger).info('answer', { body: { token: SECRET } })],
		['a scoped logger', () => Container.get(Logger).scoped('waiting-executions').warn(`upper-cased ${SECRET.toUpperCase()}`)],
		['a URL-encoded secret', () => LoggerProxy.info(`url ?k=${encodeURIComponent(`${SECRET}/+`)}`)],
	])('fails on %s, naming the line but not the secret', (_name, log) => {
		LoggerProxy.info('a line before');
		log();
		let message = '';
		try {
			assertNoSecrets('a unit check', {}, [`${SECRET}/+`, SECRET]);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toMatch(/^A secret \(log…, \d+ characters\) leaked into a unit check: the log \(line 2, (error|warn|info|debug)\)$/);
		clearLog();
	});

	test("the workflow node an error's metadata carries is the workflow (as in errors): its parameters are not judged", () => {
		const error = Object.assign(new Error('Forbidden (HTTP 403)'), { node: { name: 'Messaging Instance', parameters: { options: { token: SECRET } } } });
		LoggerProxy.debug('Workflow execution finished with error', { error, workflowId: 'wf-test' });
		expect(() => assertNoSecrets('a unit check', {}, [SECRET])).not.toThrow();
		LoggerProxy.debug('Workflow execution finished with error', { error: Object.assign(new Error(`Forbidden ${SECRET}`), { node: error.node }) });
		expect(() => assertNoSecrets('a unit check', {}, [SECRET])).toThrow(/the log \(line 2, debug\)/);
		clearLog();
	});

	test('the capture is cleared before each test', () => {
		expect(loggedLines()).toEqual([]);
	});
});

describe('the harness checks the log of its runs', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }], delivery: { attempts: 1, backoffMs: 5, timeoutMs: 5000 } });
	});
	afterAll(async () => await sandbox.close());

	const credentials = () => ({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' });
	const parameters = { resource: 'message', operation: 'sendText', instance: 'demo', number: '5511999990000', text: 'hi' };

	test("a node run: n8n-core's engine log is captured, and the run passes while it holds no secret", async () => {
		const run = await runNode({ parameters, credentials: credentials() });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.path)).toContain('/message/sendText/demo');
		expect(loggedLines().map((line) => line.message)).toEqual(expect.arrayContaining(['Running node "Messaging Instance" started', 'Running node "Messaging Instance" finished successfully']));
	});

	test('a node run fails when the API key was logged during the test', async () => {
		LoggerProxy.debug('request sent', { headers: { apikey: sandbox.apiKey } });
		await expect(runNode({ parameters, credentials: credentials() })).rejects.toThrow(/leaked into a node run: the log \(line 1, debug\)/);
		clearLog();
	});

	test("the trigger: its own warning reaches the log, and a logged key fails the trigger's check", async () => {
		const harness = await TriggerHarness.start({ parameters: savedParameters({ instance: 'demo' }), credentials: credentials() });
		try {
			await harness.activate();
			// The instance removed on the server: deactivating warns through the node's logger.
			const removed = await fetch(`${sandbox.url}/instance/delete/demo`, { method: 'DELETE', headers: { apikey: sandbox.apiKey } });
			expect(removed.status).toBe(200);
			await harness.deactivate();
			expect(loggedLines().filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
				'Messaging Instance Trigger: the instance "demo" no longer exists; nothing to switch off',
			]);
			LoggerProxy.warn(`webhook registered with ${sandbox.apiKey}`);
			await expect(harness.activate()).rejects.toThrow(/leaked into .*: the log \(line \d+, warn\)/);
		} finally {
			clearLog();
			await harness.close();
		}
	});
});
