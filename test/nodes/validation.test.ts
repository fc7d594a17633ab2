import type { INodeParameters } from 'n8n-workflow';

import { idOn } from '../harness/engine';
import { run, useSandbox } from './helpers';

const text = { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' };
const location = { resource: 'message', operation: 'sendLocation', number: '5511999990000', name: 'Place', address: 'Street', latitude: 1, longitude: 2 };
const status = { resource: 'message', operation: 'sendStatus', type: 'text', content: 'Hi', backgroundColor: '#112233', font: 1, allContacts: true };
const list = {
	resource: 'message',
	operation: 'sendList',
	number: '5511999990000',
	title: 'T',
	description: 'D',
	buttonText: 'B',
	sections: { section: [{ title: 'S', rows: { row: [{ title: 'R', description: '', rowId: '1' }] } }] },
};
const buttons = { resource: 'message', operation: 'sendButtons', number: '5511999990000', title: 'T', description: 'D', buttons: { button: [{ title: 'a', displayText: 'A', id: 'a' }] } };
const reaction = { resource: 'message', operation: 'sendReaction', remoteJid: '5511999990000@s.whatsapp.net', messageId: 'X', fromMe: false, reaction: '👍' };
const webhook = { resource: 'webhook', operation: 'set', enabled: true, url: 'https://example.com/hook', webhookByEvents: false, webhookBase64: false, events: ['MESSAGES_UPSERT'] };
const button = (n: number) => ({ title: `b${n}`, displayText: `B${n}`, id: `${n}` });

const rules: Array<[string, INodeParameters, RegExp]> = [
	['a blank instance', { ...text, instance: '  ' }, /^"Instance" is required \[item 0\]$/],
	['a blank required text', { ...text, text: '   ' }, /^"Text" is required \[item 0\]$/],
	['a number that resolves to nothing', { ...text, number: '={{ $json.missing }}' }, /^"Number" is required \[item 0\]$/],
	['a number with no digits', { ...text, number: '+() -' }, /^"Number" has no digits \("\+\(\) -"\) \[item 0\]$/],
	['a number with letters', { ...text, number: '55 11 abc' }, /^"Number" must be a phone number with country code/],
	['a latitude out of range', { ...location, latitude: 91 }, /^"Latitude" must be between -90 and 90 \[item 0\]$/],
	['a longitude out of range', { ...location, longitude: -180.5 }, /^"Longitude" must be between -180 and 180 \[item 0\]$/],
	['a colour that is not #RRGGBB', { ...status, backgroundColor: 'red' }, /^"Background Color" must be a colour as #RRGGBB, not "red" \[item 0\]$/],
	['a short colour', { ...status, backgroundColor: '#123' }, /^"Background Color" must be a colour as #RRGGBB/],
	['a font outside 1–5', { ...status, font: 6 }, /^"Font" must be one of "1", "2", "3", "4", "5", not 6 \[item 0\]$/],
	['allContacts off with no recipients', { ...status, allContacts: false, statusJidList: ' , \n' }, /^"Status Recipients" needs at least one JID/],
	['an empty section list', { ...list, sections: {} }, /^"Sections" needs at least one section \[item 0\]$/],
	['a section with no rows', { ...list, sections: { section: [{ title: 'S', rows: {} }] } }, /^"Sections: section 1" needs at least one row/],
	['an empty button list', { ...buttons, buttons: {} }, /^"Buttons" needs at least one button \[item 0\]$/],
	['more than 3 buttons', { ...buttons, buttons: { button: [button(1), button(2), button(3), button(4)] } }, /^"Buttons" has 4 buttons; the server accepts at most 3/],
	['a reaction that is text', { ...reaction, reaction: 'ok' }, /^"Reaction" must be a single emoji or empty, not "ok"/],
	['a reaction of two emoji', { ...reaction, reaction: '👍👍' }, /^"Reaction" must be a single emoji or empty/],
	['an empty event list', { ...webhook, events: '={{ [] }}' }, /^"Events" needs at least one event \[item 0\]$/],
	['a webhook URL that is not http(s)', { ...webhook, url: 'ftp://x' }, /^"URL" must be an http\(s\) address/],
	['a quoted text without its message id', { ...text, options: { quotedText: 'orig' } }, /^"Options: Quoted Message ID" is required when a quoted text is set/],
	['a mentioned entry with no digits', { ...text, options: { mentioned: '5511999990000, abc' } }, /^"Options: Mentioned Numbers \(entry 2\)" has no digits \("abc"\) \[item 0\]$/],
	['a negative delay', { ...text, options: { delay: -5 } }, /^"Options: Delay \(Milliseconds\)" must be between 0 and 300000 \[item 0\]$/],
	['a numbers list with no numbers', { resource: 'chat', operation: 'checkNumbers', numbers: ' ,\n ' }, /^"Numbers" needs at least one number/],
	['a presence outside the list', { resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'typing', delay: 10 }, /^"Presence" must be one of "available", "paused", "recording", "composing", "unavailable", not "typing" \[item 0\]$/],
];

describe.each(['documented', 'v2'] as const)('input errors before any request (%s)', (dialect) => {
	const sandbox = useSandbox(dialect);

	test.each(rules)('%s fails naming the field and the item, and sends nothing', async (_title, parameters, message) => {
		const result = await run(sandbox.current, parameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(result.items).toEqual([]);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('a literal empty required field is stopped by n8n itself before the node runs', async () => {
		await expect(run(sandbox.current, { ...text, number: '' })).rejects.toThrow(/workflow has issues/);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('the item index names the failing item when earlier items are fine', async () => {
		const result = await run(sandbox.current, { ...text, number: '={{ $json.to }}' }, { items: [{ to: '5511999990000' }, { to: 'nobody' }] });
		expect(result.error?.message).toMatch(/^"Number" has no digits \("nobody"\) \[item 1\]$/);
		expect(sandbox.current.requests.map((r) => r.body)).toEqual([{ number: '5511999990000', text: 'hi', ...idOn(dialect, 0) }]);
	});
});

describe('dialect-specific input errors', () => {
	describe('documented server', () => {
		const sandbox = useSandbox('documented');
		test('a v2-only event is refused before sending', async () => {
			const result = await run(sandbox.current, { ...webhook, events: ['MESSAGES_UPSERT', 'MESSAGES_EDITED'] });
			expect(result.error?.message).toMatch(/^"Events" MESSAGES_EDITED not accepted by a documented interface server \[item 0\]$/);
			expect(sandbox.current.requests).toEqual([]);
		});
		test('a video status is refused before sending', async () => {
			const result = await run(sandbox.current, { ...status, type: 'video', content: 'https://example.com/v.mp4' });
			expect(result.error?.message).toMatch(/^"Type" "video" is not accepted by a documented interface server/);
			expect(sandbox.current.requests).toEqual([]);
		});
	});
	describe('v2 server', () => {
		const sandbox = useSandbox('v2');
		test('a documented-only event is refused before sending', async () => {
			const result = await run(sandbox.current, { ...webhook, events: ['NEW_JWT_TOKEN'] });
			expect(result.error?.message).toMatch(/^"Events" NEW_JWT_TOKEN not accepted by a v2.x server \[item 0\]$/);
			expect(sandbox.current.requests).toEqual([]);
		});
		test('a video status is sent', async () => {
			const result = await run(sandbox.current, { ...status, type: 'video', content: 'https://example.com/v.mp4' });
			expect(result.error).toBeUndefined();
			expect(sandbox.current.requests[0]).toMatchObject({ path: '/message/sendStatus/demo', status: 201 });
		});
	});
});
