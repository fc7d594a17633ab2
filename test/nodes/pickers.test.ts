import type { INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { loadOptionsContext as sharedLoadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
import { useHostileServer } from '../hostile/server';
import { credentialsFor, run, sent, useSandbox } from './helpers';

/** The pickers as the editor opens them: through n8n-core's load-options context, with the node's credential. */

const node = new MessagingInstance();

function loadOptionsContext(credentials: Record<string, unknown>, parameters: INodeParameters) {
	return sharedLoadOptionsContext({ type: ACTION_TYPE, typeVersion: 2, name: 'Messaging Instance', credentials: credentials as never, parameters, parameter: 'instance' });
}

describe('pickers (v2 server)', () => {
	const sandbox = useSandbox('v2');

	test('Instance lists the server\'s instances by name, searchable', async () => {
		const context = loadOptionsContext(credentialsFor(sandbox.current), { resource: 'message', operation: 'sendText' });
		const all = await node.methods.listSearch.searchInstances.call(context);
		expect(all.results).toEqual([{ name: 'demo (open)', value: 'demo' }]);
		expect(sent(sandbox.current)).toEqual([{ method: 'GET', path: '/instance/fetchInstances', status: 200, body: undefined }]);
		const none = await node.methods.listSearch.searchInstances.call(context, 'zzz');
		expect(none.results).toEqual([]);
	});

	test('Group and Label list the chosen instance\'s groups and labels', async () => {
		sandbox.current.addGroup('demo', { id: '120363000000000042@g.us', subject: 'Family', participants: ['5511988880000'] });
		const context = loadOptionsContext(credentialsFor(sandbox.current), {
			resource: 'group',
			operation: 'get',
			instance: { __rl: true, mode: 'list', value: 'demo' },
		});
		expect((await node.methods.listSearch.searchGroups.call(context, 'fam')).results).toEqual([{ name: 'Family', value: '120363000000000042@g.us' }]);
		expect((await node.methods.listSearch.searchLabels.call(context)).results).toEqual([
			{ name: 'New customer', value: '1' },
			{ name: 'Paid', value: '2' },
		]);
		expect(sent(sandbox.current).map((request) => request.path)).toEqual(['/group/fetchAllGroups/demo', '/label/findLabels/demo']);
	});

	test('a picked instance and one typed as an expression send to the same route', async () => {
		const parameters = { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' };
		const picked = await run(sandbox.current, { ...parameters, instance: { __rl: true, mode: 'list', value: 'demo' } });
		const typed = await run(sandbox.current, { ...parameters, instance: { __rl: true, mode: 'name', value: '={{ "de" + "mo" }}' } });
		expect(picked.error).toBeUndefined();
		expect(typed.error).toBeUndefined();
		expect(sent(sandbox.current).map((request) => request.path)).toEqual(['/message/sendText/demo', '/message/sendText/demo']);
	});
});

describe('pickers against a hostile server', () => {
	const hostile = useHostileServer();
	const credentials = () => ({ baseUrl: hostile.current.url, apiKey: 'picker-key-1234567890', dialect: 'v2' });

	test('names that are objects (whatever their toString) neither throw nor show as "[object Object]"', async () => {
		hostile.current.answerAll(() => ({
			json: [
				{ name: { toString: 'x' }, connectionStatus: 'open' },
				{ name: 'shop', connectionStatus: { toString: 'x' } },
				{ instanceName: 'support', connectionStatus: 'close' },
				{ name: ['a'] },
				'not a record',
			],
		}));
		const context = loadOptionsContext(credentials(), { resource: 'message', operation: 'sendText' });
		expect((await node.methods.listSearch.searchInstances.call(context)).results).toEqual([
			{ name: 'shop', value: 'shop' },
			{ name: 'support (close)', value: 'support' },
		]);

		hostile.current.answerAll((request) =>
			request.path.startsWith('/group/')
				? { json: [{ id: '120363000000000042@g.us', subject: { toString: 'x' } }, { id: { toString: 'x' }, subject: 'Ghost' }] }
				: { json: [{ id: 7, name: { a: 1 } }, { id: { toString: 'x' }, name: 'Ghost' }] },
		);
		const ofInstance = loadOptionsContext(credentials(), { resource: 'group', operation: 'get', instance: { __rl: true, mode: 'list', value: 'demo' } });
		expect((await node.methods.listSearch.searchGroups.call(ofInstance)).results).toEqual([{ name: '120363000000000042@g.us', value: '120363000000000042@g.us' }]);
		expect((await node.methods.listSearch.searchLabels.call(ofInstance)).results).toEqual([{ name: '7', value: '7' }]);
		expect(hostile.current.seen.map((request) => request.path)).toEqual(['/instance/fetchInstances', '/group/fetchAllGroups/demo?getParticipants=false', '/label/findLabels/demo']);
	});

	test('a long list is looked at up to its first 10,000 entries and offers at most 200', async () => {
		const entries = Array.from({ length: 20_000 }, (_, i) => ({ name: `${i < 10_000 ? 'early' : 'late'}-${i}` }));
		hostile.current.answerAll(() => ({ json: entries }));
		const context = loadOptionsContext(credentials(), { resource: 'message', operation: 'sendText' });
		const early = await node.methods.listSearch.searchInstances.call(context, 'early');
		expect(early.results).toHaveLength(200);
		expect(early.results.every((entry) => entry.name.startsWith('early-'))).toBe(true);
		expect((await node.methods.listSearch.searchInstances.call(context, 'late')).results).toEqual([]);
	});
});
