import type { INodeParameters } from 'n8n-workflow';

import { MessagingInstance } from '../../nodes/MessagingInstance/MessagingInstance.node';
import { loadOptionsContext as sharedLoadOptionsContext } from '../harness/loadOptions';
import { ACTION_TYPE } from '../harness/nodeTypes';
import { MAX_LIST_BYTES } from '../../nodes/shared/pickers';
import { entriesOfCutArray } from '../../nodes/shared/boundedList';
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

	test('a list of many megabytes is read up to its cap: the rest is never received, and the entries read are offered', async () => {
		// 1,000,000 instances, about 70 MB, written as the client takes them.
		const total = 1_000_000;
		let written = 0;
		let finished = false;
		hostile.current.respond(async (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('[');
			for (let start = 0; start < total && !res.destroyed; start += 1000) {
				const batch = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ name: `instance-${start + i}`, connectionStatus: 'open', x: 'ab,c]}"{' }));
				const text = `${start === 0 ? '' : ','}${batch.join(',')}`;
				written += Buffer.byteLength(text);
				if (!res.write(text)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
			}
			if (!res.destroyed) {
				res.end(']');
				finished = true;
			}
		});
		const context = loadOptionsContext(credentials(), { resource: 'message', operation: 'sendText' });
		const found = await node.methods.listSearch.searchInstances.call(context, 'instance-1');
		expect(found.results).toHaveLength(200);
		expect(found.results.every((entry) => /^instance-1\d* \(open\)$/.test(entry.name))).toBe(true);
		// The client stopped reading at the cap; what the server could write past it is the sockets' buffers.
		expect(finished).toBe(false);
		expect(written).toBeLessThan(MAX_LIST_BYTES + 16 * 1024 * 1024);
		expect(hostile.current.seen.map((request) => request.path)).toEqual(['/instance/fetchInstances']);
	});

	test('a list over the cap that is not an array says to type the name', async () => {
		hostile.current.answerAll(() => ({ json: { instances: 'x'.repeat(MAX_LIST_BYTES + 1000) } }));
		const context = loadOptionsContext(credentials(), { resource: 'message', operation: 'sendText' });
		await expect(node.methods.listSearch.searchInstances.call(context)).rejects.toThrow(/too large to show \(over 4 MB\)/);
	});
});

describe('the entries of a list cut anywhere', () => {
	test('keeps the complete entries, whatever brackets, commas, quotes or characters their strings hold', () => {
		const entries = [{ name: 'a,]}' }, { name: 'b\\"[{', id: [1, { x: 2 }] }, { name: 'çã😀' }, 42, 'plain'];
		const text = JSON.stringify(entries);
		const bytes = Buffer.from(text);
		expect(entriesOfCutArray(bytes, 100)).toEqual(entries);
		const cutInThird = bytes.subarray(0, Buffer.byteLength(JSON.stringify(entries.slice(0, 2))) + 5);
		expect(entriesOfCutArray(cutInThird, 100)).toEqual(entries.slice(0, 2));
		expect(entriesOfCutArray(bytes, 3)).toEqual(entries.slice(0, 3));
		expect(entriesOfCutArray(Buffer.from('  {"a": [1, 2'), 100)).toBeUndefined();
		expect(entriesOfCutArray(Buffer.from('[{"a": 1}, not json, {"b": 2}'), 100)).toEqual([{ a: 1 }]);
	});
});
