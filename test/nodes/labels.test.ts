import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { OPERATIONS, labelsOf } from '../../nodes/MessagingInstance/actions';
import { fieldLabels } from '../../nodes/MessagingInstance/actions/parameters';
import { messageOptionsProperty } from '../../nodes/MessagingInstance/actions/message/common';
import { run, sent, useSandbox } from './helpers';

const ACTIONS = join(__dirname, '../../nodes/MessagingInstance/actions');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
	});
}

describe('labels come from the operation\'s own properties', () => {
	test('a field, a collection option and a fixed collection group are named as the editor shows them', () => {
		const labels = fieldLabels([
			{ displayName: 'Text', name: 'text', type: 'string', default: '' },
			messageOptionsProperty,
			{
				displayName: 'Sections',
				name: 'sections',
				type: 'fixedCollection',
				default: {},
				options: [{ displayName: 'Section', name: 'section', values: [{ displayName: 'Title', name: 'title', type: 'string', default: '' }] }],
			},
		]);
		expect(labels.get('text')).toBe('Text');
		expect(labels.get('options.delay')).toBe('Options: Delay (Milliseconds)');
		expect(labels.get('options.quotedMessageId')).toBe('Options: Quoted Message ID');
		expect(labels.get('sections.section')).toBe('Sections: Section');
		expect(labels.get('sections.section.title')).toBe('Sections: Section: Title');
	});

	test('every field the operations read by name is a field of some operation (a typo would show the bare name)', () => {
		const known = new Set(OPERATIONS.flatMap((operation) => [...labelsOf(operation).keys()]));
		const read = new Set<string>();
		const call = /params\.(?:text|textOrEmpty|flag|number|recipient|recipientList|collection|binaryFile|label)\('([\w.]+)'/g;
		for (const file of sourceFiles(ACTIONS)) {
			for (const match of readFileSync(file, 'utf8').matchAll(call)) read.add(match[1]);
		}
		expect(read.size).toBeGreaterThan(50);
		expect([...read].filter((name) => !known.has(name))).toEqual([]);
	});

	test('each operation labels the Instance field and each of its fields by its display name', () => {
		for (const operation of OPERATIONS) {
			const labels = labelsOf(operation);
			expect(labels.get('instance')).toBe('Instance');
			for (const property of operation.properties) expect(labels.get(property.name)).toBe(property.displayName);
		}
	});
});

describe('an error names the field by the label the user sees', () => {
	const sandbox = useSandbox('v2');

	test('Connect with an empty output field names "Put QR Code in Field", as the editor shows it', async () => {
		await run(sandbox.current, { resource: 'instance', operation: 'create', instanceName: 'labels', integration: 'WHATSAPP-BAILEYS', qrcode: false });
		sandbox.current.clearRequests();
		const result = await run(sandbox.current, { resource: 'instance', operation: 'connect', instance: 'labels', binaryPropertyName: ' ' });
		expect(sent(sandbox.current).map(({ method, path }) => [method, path])).toEqual([['GET', '/instance/connect/labels']]);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/Put QR Code in Field/);
		expect(result.error?.message).not.toMatch(/Put Output File in Field/);
	});

	test('a send option names its collection and option', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi', options: { delay: -1 } });
		expect(sent(sandbox.current)).toEqual([]);
		expect(result.error?.message).toMatch(/Options: Delay \(Milliseconds\)/);
	});
});
