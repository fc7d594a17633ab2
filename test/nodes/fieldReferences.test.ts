import { Expression } from 'n8n-workflow';

import { fieldReferencePath, readField } from '../../nodes/MessagingInstance/actions/parameters';
import { idOn } from '../harness/engine';
import { run, useSandbox } from './helpers';

describe('plain field references', () => {
	test.each([
		['={{ $json.number }}', ['number']],
		['={{$json.number}}', ['number']],
		['={{ $json.contact.phone }}', ['contact', 'phone']],
		['={{ $json["first name"] }}', ['first name']],
		["={{ $json['to'].digits }}", ['to', 'digits']],
		['={{ $json.$id }}', ['$id']],
	])('%s is read from the item at %j', (stored, path) => {
		expect(fieldReferencePath(stored)).toEqual(path);
	});

	test.each([
		['a literal', '5511999990000'],
		['text around the reference', '=Hello {{ $json.name }}'],
		['two references', '={{ $json.a }}{{ $json.b }}'],
		['a method call', '={{ $json.text.trim() }}'],
		['an operator', '={{ $json.a + 1 }}'],
		['optional chaining', '={{ $json.a?.b }}'],
		['an index', '={{ $json.list[0] }}'],
		['another node', "={{ $('Start').item.json.a }}"],
		['$json alone', '={{ $json }}'],
		['a guarded name', '={{ $json.__proto__ }}'],
		['a guarded name in brackets', '={{ $json["constructor"] }}'],
		['no expression marker', '{{ $json.a }}'],
		['a number', 5],
	])('%s goes to n8n’s engine', (_, stored) => {
		expect(fieldReferencePath(stored)).toBeUndefined();
	});

	test('only own strings, finite numbers and booleans are read directly', () => {
		const json = { s: 'x', n: 2.5, b: false, empty: '', nested: { deep: 'y' }, nul: null, obj: {}, nan: Number.NaN, list: [1] };
		expect(readField(json, ['s'])).toBe('x');
		expect(readField(json, ['n'])).toBe(2.5);
		expect(readField(json, ['b'])).toBe(false);
		expect(readField(json, ['empty'])).toBe('');
		expect(readField(json, ['nested', 'deep'])).toBe('y');
		for (const path of [['missing'], ['nul'], ['obj'], ['nan'], ['list'], ['s', 'length'], ['toString'], ['nested', 'missing']]) {
			expect(readField(json, path)).toBeUndefined();
		}
	});
});

describe.each(['documented', 'v2'] as const)('field references send what n8n’s engine would (%s)', (dialect) => {
	const sandbox = useSandbox(dialect);
	let evaluated: string[] = [];
	let spy: jest.SpyInstance;

	beforeEach(() => {
		evaluated = [];
		const original = Expression.prototype.getParameterValue;
		spy = jest.spyOn(Expression.prototype, 'getParameterValue').mockImplementation(function (this: Expression, value, ...rest) {
			if (typeof value === 'string' && value.startsWith('=')) evaluated.push(value);
			return original.call(this, value, ...rest);
		});
	});
	afterEach(() => spy.mockRestore());

	const items = [
		{ to: '+55 11 99999-0001', text: 'Olá, Ana 👋', contact: { phone: 5511999990002 } },
		{ to: '5511999990003@s.whatsapp.net', text: '  spaced  ', contact: { phone: '5511999990004' } },
	];

	test('the same messages go out whether the engine evaluates the references or the node reads them', async () => {
		const viaEngine = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '={{ ($json.to) }}', text: '={{ ($json.text) }}' }, { items });
		const engineBodies = sandbox.current.requests.map((r) => r.body);
		expect(evaluated).toEqual(['={{ ($json.to) }}', '={{ ($json.text) }}', '={{ ($json.to) }}', '={{ ($json.text) }}']);
		sandbox.current.clearRequests();
		evaluated = [];

		const direct = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '={{ $json.to }}', text: '={{ $json["text"] }}' }, { items });
		expect(evaluated).toEqual([]);
		expect(sandbox.current.requests.map((r) => r.body)).toEqual(engineBodies);
		expect(engineBodies).toEqual([
			{ number: '5511999990001', text: 'Olá, Ana 👋', ...idOn(dialect, 0) },
			{ number: '5511999990003@s.whatsapp.net', text: '  spaced  ', ...idOn(dialect, 1) },
		]);
		expect(direct.items.map((item) => item.pairedItem)).toEqual(viaEngine.items.map((item) => item.pairedItem));
	});

	test('a nested number is read like the engine reads it', async () => {
		await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '={{ $json.contact.phone }}', text: 'x' }, { items });
		expect(evaluated).toEqual([]);
		expect(sandbox.current.requests.map((r) => (r.body as { number: string }).number)).toEqual(['5511999990002', '5511999990004']);
	});

	test('a field the item lacks goes to the engine, and the error names the field and the item', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '={{ $json.to }}', text: '={{ $json.missing }}' }, { items });
		expect(evaluated).toEqual(['={{ $json.missing }}']);
		expect(result.error?.message).toBe('"Text" is required [item 0]');
		expect(sandbox.current.requests).toHaveLength(0);
	});
});
