import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { base64ProblemText, decodeBase64Text } from '../../nodes/shared/files';
import { useHostileServer } from '../hostile/server';
import { runNode } from '../harness/engine';
import { INSTANCE, secretOf, setup, TOKEN, type Setup } from './helpers';

/**
 * Media files inside deliveries (webhookBase64), through n8n's webhook code over real sockets:
 * a broken or too large file gives an item without binary data that says why, never a short
 * or empty file; names and types are made safe with the same rules as Download Media's.
 */

const JID = '5511999990000@s.whatsapp.net';
const MB = 1024 * 1024;

function mediaDelivery(id: string, base64: unknown, media: IDataObject = {}): IDataObject {
	return {
		event: 'messages.upsert',
		instance: INSTANCE,
		apikey: TOKEN,
		date_time: '2026-11-23T06:00:00.000Z',
		data: {
			key: { remoteJid: JID, fromMe: false, id },
			pushName: 'Ana',
			message: { documentMessage: { mimetype: 'application/pdf', fileName: 'report.pdf', ...media }, base64 },
			messageType: 'documentMessage',
			messageTimestamp: 1_763_870_000,
		},
	};
}

describe('media deliveries', () => {
	let s: Setup;
	const start = async (parameters: INodeParameters = {}): Promise<Setup> => {
		s = await setup('v2', parameters);
		await s.harness.activate();
		return s;
	};
	afterEach(async () => {
		await s.close();
	});
	const post = async (body: unknown) =>
		await s.harness.post('production', JSON.stringify(body), { query: { secret: secretOf(s) } });

	it.each([
		['"!!!!"', '!!!!', /^No binary data: the file is not valid base64: it holds "!"/],
		['"abc"', 'abc', /^No binary data: the file is not valid base64: its length \(3 characters\) is not a multiple of 4$/],
		['a data: URL that is not base64', 'data:text/plain,hello', /data: URL that is not base64/],
		['padding in the middle', 'QQ==QQ==', /characters after its "=" padding/],
	])('a file of malformed base64 (%s) gives an item without binary data that says why', async (_title, base64, reason) => {
		const { harness } = await start();
		// A message id per case: the trigger emits each message once per process.
		const id = `BAD-${base64}`;
		expect((await post(mediaDelivery(id, base64))).status).toBe(200);
		expect(harness.emitted).toHaveLength(1);
		const [item] = harness.emitted;
		expect(item.binary).toBeUndefined();
		expect(item.json.mediaError).toMatch(reason);
		expect(item.json).toMatchObject({ messageId: id, messageType: 'documentMessage', media: { kind: 'document', mimeType: 'application/pdf' } });
		// Nor is the broken text kept in the JSON.
		expect((item.json.raw as { data: { message: IDataObject } }).data.message.base64).toBeUndefined();
	});

	it('a file over the limit set in the trigger gives an item without binary data that names the size and the limit', async () => {
		const { harness } = await start({ options: { maxFileSizeMb: 1 } });
		const file = randomBytes(2 * MB);
		expect((await post(mediaDelivery('BIG1', file.toString('base64')))).status).toBe(200);
		const [item] = harness.emitted;
		expect(item.binary).toBeUndefined();
		expect(item.json.mediaError).toBe('No binary data: the file is 2.0 MB (2,097,152 bytes), more than the limit of 1 MB');
	});

	it('a file of exactly the limit is made binary byte for byte (its "=" padding is no byte of it), one byte more is refused', async () => {
		const { harness } = await start({ options: { maxFileSizeMb: 1 } });
		const file = randomBytes(MB);
		// 1 MB is not a multiple of 3: its base64 ends in "==".
		expect(file.toString('base64').endsWith('==')).toBe(true);
		await post(mediaDelivery('EXACT1', file.toString('base64')));
		await post(mediaDelivery('OVER1', randomBytes(MB + 1).toString('base64')));
		const [exact, over] = harness.emitted;
		expect(exact.json.mediaError).toBeUndefined();
		expect(Buffer.from(exact.binary!.data.data, 'base64').equals(file)).toBe(true);
		expect(over.binary).toBeUndefined();
		expect(over.json.mediaError).toBe('No binary data: the file is 1.0 MB (1,048,577 bytes), more than the limit of 1 MB');
	});

	it('raw output says why too; a file under the limit, with line breaks and a data: prefix, is made binary byte for byte', async () => {
		const { harness } = await start({ options: { outputFormat: 'raw', maxFileSizeMb: 1 } });
		const file = randomBytes(700_000);
		const wrapped = `data:application/pdf;base64,${file.toString('base64').replace(/.{76}/g, '$&\r\n')}`;
		await post(mediaDelivery('OK1', wrapped));
		await post(mediaDelivery('BIG2', randomBytes(2 * MB).toString('base64')));
		const [ok, big] = harness.emitted;
		expect(ok.json.mediaError).toBeUndefined();
		expect(Buffer.from(ok.binary!.data.data, 'base64').equals(file)).toBe(true);
		expect(big.binary).toBeUndefined();
		expect(big.json.mediaError).toMatch(/^No binary data: the file is 2\.0 MB/);
	});

	it('a name with folders or control characters and a type with a header in it are made safe', async () => {
		const { harness } = await start();
		await post(mediaDelivery('NAME1', 'JVBERi0xLjQK', { fileName: '..\\..\\windows\\evil\u0000.pdf', mimetype: 'application/pdf\r\nX-Evil: 1' }));
		await post(mediaDelivery('NAME2', 'JVBERi0xLjQK', { fileName: `${'n'.repeat(100_000)}.pdf`, mimetype: 'not a type' }));
		const [first, second] = harness.emitted;
		expect(first.binary?.data).toMatchObject({ fileName: 'evil.pdf', mimeType: 'application/pdf' });
		expect(first.json.media).toEqual({ kind: 'document', mimeType: 'application/pdf', fileName: 'evil.pdf' });
		expect(second.binary?.data).toMatchObject({ fileName: `${'n'.repeat(251)}.pdf`, mimeType: 'application/octet-stream' });
	});
});

describe('one files module for both nodes', () => {
	const hostile = useHostileServer();

	it('Download Media and a delivery refuse the same broken file with the same words, and clean names and types alike', async () => {
		const hostileName = '../../etc/pass\u0000wd.pdf';
		const hostileType = 'application/pdf\r\nX-Evil: 1';
		hostile.current.respond(
			(_req, res) => {
				res.writeHead(201, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ fileName: hostileName, mimetype: hostileType, base64: '!!!!' }));
			},
			(_req, res) => {
				res.writeHead(201, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ fileName: hostileName, mimetype: hostileType, base64: 'JVBERi0xLjQK' }));
			},
		);
		const download = async () =>
			await runNode({
				parameters: { resource: 'message', operation: 'downloadMedia', instance: 'demo', messageId: 'M1', binaryPropertyName: 'data', options: {} },
				credentials: { baseUrl: hostile.current.url, apiKey: 'k-0123456789', dialect: 'v2' },
			});
		const broken = await download();
		const good = await download();

		const trigger = await setup('v2');
		await trigger.harness.activate();
		const post = async (body: unknown) => await trigger.harness.post('production', JSON.stringify(body), { query: { secret: secretOf(trigger) } });
		await post(mediaDelivery('SAME1', '!!!!', { fileName: hostileName, mimetype: hostileType }));
		await post(mediaDelivery('SAME2', 'JVBERi0xLjQK', { fileName: hostileName, mimetype: hostileType }));
		const [brokenItem, goodItem] = trigger.harness.emitted;
		await trigger.close();

		const reason = (decodeBase64Text('!!!!', MB) as { ok: false; problem: Parameters<typeof base64ProblemText>[0] }).problem;
		const words = base64ProblemText(reason, MB).replace(/^the file is not valid base64: /, '');
		expect(broken.error?.message).toContain(words);
		expect(brokenItem.json.mediaError).toContain(words);
		expect(good.items[0].binary?.data).toMatchObject({ fileName: 'passwd.pdf', mimeType: 'application/pdf' });
		expect(goodItem.binary?.data).toMatchObject({ fileName: 'passwd.pdf', mimeType: 'application/pdf' });
		expect(good.items[0].binary?.data.data).toBe(goodItem.binary?.data.data);
	});
});
