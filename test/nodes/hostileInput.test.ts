import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { idOn } from '../harness/engine';
import { run, sent, useSandbox } from './helpers';

/**
 * Values mapped from an incoming message are chosen by whoever writes to the account: any
 * length, any type. Each is either sent as the contract says or refused before any request,
 * naming the field and the item, in an error of readable size.
 */

const text = { resource: 'message', operation: 'sendText', number: '5511999990000', text: 'hi' };
const reaction = { resource: 'message', operation: 'sendReaction', remoteJid: '5511999990000@s.whatsapp.net', messageId: 'X', fromMe: false };
const status = { resource: 'message', operation: 'sendStatus', type: 'text', content: 'Hi', backgroundColor: '#112233', font: 1 };

describe.each(['documented', 'v2'] as const)('hostile input (%s)', (dialect) => {
	const sandbox = useSandbox(dialect);

	async function refused(parameters: INodeParameters, message: RegExp, items?: IDataObject[]) {
		const result = await run(sandbox.current, parameters, { items });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(result.error!.message.length).toBeLessThan(200);
		expect(sandbox.current.requests).toEqual([]);
	}

	describe('long values are refused by their length, quickly and in a short message', () => {
		test.each([65_000, 1_000_000])('a reaction of %i characters', async (length) => {
			await refused(
				{ ...reaction, reaction: '={{ $json.reaction }}' },
				new RegExp(`^"Reaction" must be a single emoji or empty, not "(?:👍)+…" \\(${length} characters\\) \\[item 0\\]$`),
				[{ reaction: '👍'.repeat(length / 2) }],
			);
		});

		test('a number of a million characters', async () => {
			await refused({ ...text, number: '={{ $json.n }}' }, /^"Number" must be a phone number .* \(1000001 characters\) \[item 0\]$/, [
				{ n: `1${'x'.repeat(1_000_000)}` },
			]);
		});
	});

	describe('values of the wrong type are refused, not sent as their JavaScript text', () => {
		test.each<[string, unknown, RegExp]>([
			['an object as text', { a: 1 }, /^"Text" must be text, not an object \[item 0\]$/],
			['a list as text', ['a', 'b'], /^"Text" must be text, not a list \[item 0\]$/],
		])('%s', async (_title, value, expected) => {
			await refused({ ...text, text: '={{ $json.value }}' }, expected, [{ value: value as IDataObject }]);
		});

		test.each<[string, number]>([
			['a number with a fraction', 5511999990000.5],
			['a number past 2^53', 2 ** 60],
		])('%s as the recipient', async (_title, value) => {
			await refused({ ...text, number: '={{ $json.value }}' }, /^"Number" must be a phone number with country code, written as text or as a whole number \[item 0\]$/, [
				{ value },
			]);
		});

		test('a switch given as other text', async () => {
			await refused({ ...reaction, reaction: '', fromMe: '={{ $json.flag }}' }, /^"From Me" must be true or false, not "yes" \[item 0\]$/, [{ flag: 'yes' }]);
		});

		test('a whole number and "true" are taken as what they say', async () => {
			const result = await run(
				sandbox.current,
				{ ...reaction, remoteJid: '={{ $json.chat }}', fromMe: '={{ $json.flag }}', reaction: '' },
				{ items: [{ chat: 5511999990000, flag: 'true' }] },
			);
			expect(result.error).toBeUndefined();
			expect(sent(sandbox.current)[0].body).toEqual({ key: { remoteJid: '5511999990000', fromMe: true, id: 'X' }, reaction: '' });
		});
	});

	test.each(['.', '..'])('the instance name %p is refused: the URL would resolve to another route', async (instance) => {
		await refused({ ...text, instance }, new RegExp(`^"Instance" cannot be "${instance.replace(/\./g, '\\.')}": in a URL it means another path \\[item 0\\]$`));
	});

	describe('waits beyond what a timer can hold are refused', () => {
		test.each([2 ** 31, 2 ** 31 - 1, 300_001])('a delay of %i ms', async (delay) => {
			await refused({ ...text, options: { delay } }, /^"Options: Delay \(Milliseconds\)" must be between 0 and 300000 \[item 0\]$/);
		});
		test('a presence duration of 2^31 ms', async () => {
			await refused(
				{ resource: 'chat', operation: 'sendPresence', number: '5511999990000', presence: 'composing', delay: 2 ** 31 },
				/^"Duration \(Milliseconds\)" must be between 0 and 300000 \[item 0\]$/,
			);
		});
	});

	describe('a list with a repeated entry is sent once per entry (v2.x servers refuse repeats)', () => {
		test('Check Numbers', async () => {
			const result = await run(sandbox.current, { resource: 'chat', operation: 'checkNumbers', numbers: '5511999990000, +55 (11) 99999-0000\n5511988880000' });
			expect(result.error).toBeUndefined();
			expect(sent(sandbox.current)[0].body).toEqual({ numbers: ['5511999990000', '5511988880000'] });
			expect(result.items).toHaveLength(2);
		});
		test('Send Status recipients', async () => {
			const result = await run(sandbox.current, {
				...status,
				allContacts: false,
				statusJidList: '5511999990000@s.whatsapp.net, 5511999990000@s.whatsapp.net',
			});
			expect(result.error).toBeUndefined();
			expect(sent(sandbox.current)[0].body).toMatchObject({ statusJidList: ['5511999990000@s.whatsapp.net'] });
		});
		test('mentioned numbers', async () => {
			const result = await run(sandbox.current, { ...text, options: { mentioned: '+55 11 98888-0000, 5511988880000' } });
			expect(result.error).toBeUndefined();
			expect(sent(sandbox.current)[0].body).toEqual({ number: '5511999990000', text: 'hi', mentioned: ['5511988880000'], ...idOn(dialect, 0) });
		});
	});
});
