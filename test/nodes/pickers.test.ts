import type { INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { loadOptionsContext as sharedLoadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
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
