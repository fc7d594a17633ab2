import { createHash } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import { MESSAGE_IDS, runNode } from '../harness/engine';
import { setBinaryDataMode } from '../harness/binaryData';
import type { StartFile } from '../harness/nodeTypes';
import { credentialsFor, run, sent, useSandbox } from './helpers';

/**
 * Media sends take the file from the item's binary data (in memory, or on disk in n8n's
 * filesystem mode), a URL or base64, and send exactly its bytes, MIME type and name.
 */

/** A small PDF, a PNG and an OGG, as files a node before this one would have made. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 7)]);

const file = (data: Buffer, mimeType: string, fileName?: string): StartFile => ({ base64: data.toString('base64'), mimeType, fileName });
const media = { resource: 'message', operation: 'sendMedia', number: '5511999990000' };

describe.each(['default', 'filesystem'] as const)('media from binary data kept in %s mode (v2)', (mode) => {
	const sandbox = useSandbox('v2');
	let binary: Awaited<ReturnType<typeof setBinaryDataMode>>;
	beforeAll(async () => {
		binary = await setBinaryDataMode(mode);
	});
	afterAll(() => binary.close());

	async function send(parameters: INodeParameters, files: Array<Record<string, StartFile> | null>, items = files.map(() => ({}))) {
		return await runNode({
			parameters: { instance: 'demo', ...parameters },
			items,
			files,
			credentials: credentialsFor(sandbox.current),
		});
	}

	test('a PDF from a fresh node goes as a document with its name, MIME type and exact bytes', async () => {
		const result = await send(media, [{ data: file(PDF, 'application/pdf', 'invoice 2026-11.pdf') }]);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{
				method: 'POST',
				path: '/message/sendMedia/demo',
				status: 201,
				body: { number: '5511999990000', mediatype: 'document', mimetype: 'application/pdf', media: PDF.toString('base64'), fileName: 'invoice 2026-11.pdf', messageId: MESSAGE_IDS[0] },
			},
		]);
		expect(result.items[0].json).toMatchObject({ key: expect.any(Object) });
		if (mode === 'filesystem') expect(binary.folder).toBeDefined();
	});

	test('a binary file\'s MIME type and name are made header-safe: a type cut to type/subtype, a base name of at most 255 bytes', async () => {
		const longName = `${'n'.repeat(1_000_000)}.pdf`;
		const result = await send(media, [
			{ data: file(PNG, 'image/png\r\nX-Evil: 1', '../../etc/photo.png') },
			{ data: file(PDF, 'application/pdf', longName) },
			{ data: file(PDF, 'application/pdf', 'in\u0000voice\u202e.pdf') },
		]);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current).map((request) => request.body)).toEqual([
			{ number: '5511999990000', mediatype: 'image', mimetype: 'image/png', media: PNG.toString('base64'), fileName: 'photo.png', messageId: MESSAGE_IDS[0] },
			{ number: '5511999990000', mediatype: 'document', mimetype: 'application/pdf', media: PDF.toString('base64'), fileName: `${'n'.repeat(251)}.pdf`, messageId: MESSAGE_IDS[1] },
			{ number: '5511999990000', mediatype: 'document', mimetype: 'application/pdf', media: PDF.toString('base64'), fileName: 'invoice.pdf', messageId: MESSAGE_IDS[2] },
		]);
	});

	test('an image follows its MIME type, with caption, options and a name from its type', async () => {
		const result = await send({ ...media, caption: 'Look', options: { delay: 0, mentioned: '5511988880000' } }, [{ photo: file(PNG, 'image/png') }].map((f) => ({ picture: f.photo })), [{}]);
		expect(result.error?.message).toMatch(/^"Input Binary Field" names no file of this item \("data"\) \[item 0\]$/);
		expect(result.error?.description).toMatch(/binary fields are: picture/);
		expect(sandbox.current.requests).toEqual([]);

		const named = await send({ ...media, binaryPropertyName: 'picture', caption: 'Look', options: { delay: 0, mentioned: '5511988880000' } }, [{ picture: file(PNG, 'image/png') }]);
		expect(named.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({
			number: '5511999990000',
			mediatype: 'image',
			mimetype: 'image/png',
			caption: 'Look',
			media: PNG.toString('base64'),
			fileName: 'image.png',
			delay: 0,
			mentioned: ['5511988880000'],
			messageId: MESSAGE_IDS[0],
		});
	});

	test('each item sends its own file, paired with its item', async () => {
		const result = await send(media, [{ data: file(PDF, 'application/pdf', 'a.pdf') }, { data: file(OGG, 'audio/ogg', 'b.ogg') }]);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current).map((request) => [(request.body as { mediatype: string }).mediatype, (request.body as { media: string }).media])).toEqual([
			['document', PDF.toString('base64')],
			['audio', OGG.toString('base64')],
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('a file larger than the pieces it is encoded in arrives byte for byte', async () => {
		const video = Buffer.alloc(200_003);
		for (let i = 0; i < video.length; i++) video[i] = (i * 7919) % 251;
		const result = await send(media, [{ data: file(video, 'video/mp4', 'clip.mp4') }]);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({ number: '5511999990000', mediatype: 'video', mimetype: 'video/mp4', media: video.toString('base64'), fileName: 'clip.mp4', messageId: MESSAGE_IDS[0] });
	});

	test.each<[string, INodeParameters, string]>([
		['a voice note', { resource: 'message', operation: 'sendAudio', number: '5511999990000' }, '/message/sendWhatsAppAudio/demo'],
		['a video note', { resource: 'message', operation: 'sendVideoNote', number: '5511999990000' }, '/message/sendPtv/demo'],
		['a sticker', { resource: 'message', operation: 'sendSticker', number: '5511999990000' }, '/message/sendSticker/demo'],
	])('%s sends the file as raw base64 in its own field', async (_title, parameters, path) => {
		const source = parameters.operation === 'sendAudio' ? file(OGG, 'audio/ogg') : parameters.operation === 'sendVideoNote' ? file(Buffer.from('video'), 'video/mp4') : file(PNG, 'image/png');
		const result = await send(parameters, [{ data: source }]);
		expect(result.error).toBeUndefined();
		const field = { sendAudio: 'audio', sendVideoNote: 'video', sendSticker: 'sticker' }[parameters.operation as string]!;
		// A voice note takes no message id on any version; a video note and a sticker carry the node's.
		const messageId = parameters.operation === 'sendAudio' ? {} : { messageId: MESSAGE_IDS[0] };
		expect(sent(sandbox.current)).toEqual([{ method: 'POST', path, status: 201, body: { number: '5511999990000', [field]: source.base64, ...messageId } }]);
	});

	test.each<[string, INodeParameters, Record<string, StartFile>, RegExp]>([
		['an empty file', media, { data: file(Buffer.alloc(0), 'application/pdf', 'empty.pdf') }, /^"Input Binary Field" names an empty file \("data"\) \[item 0\]$/],
		['a PDF sent as an image', { ...media, mediaType: 'image' }, { data: file(PDF, 'application/pdf', 'a.pdf') }, /^"Media Type" is image, but the file is "application\/pdf" \[item 0\]$/],
		['a PDF as a voice note', { resource: 'message', operation: 'sendAudio', number: '5511999990000' }, { data: file(PDF, 'application/pdf', 'a.pdf') }, /^"File" is audio, but the file is "application\/pdf" \[item 0\]$/],
	])('%s is refused before sending', async (_title, parameters, files, message) => {
		const result = await send(parameters, [files]);
		expect(result.error?.message).toMatch(message);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('an audio status from binary goes as base64 content (images and videos stay URLs, as the server reads them)', async () => {
		const status = { resource: 'message', operation: 'sendStatus', type: 'audio', contentSource: 'binary', allContacts: true };
		const result = await send(status, [{ data: file(OGG, 'audio/ogg', 'note.ogg') }]);
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0]).toMatchObject({ path: '/message/sendStatus/demo', status: 201, body: { type: 'audio', content: OGG.toString('base64'), allContacts: true } });
	});

	test('an item without binary data says so', async () => {
		const result = await send(media, [null]);
		expect(result.error?.message).toMatch(/^"Input Binary Field" names no file of this item \("data"\) \[item 0\]$/);
		expect(result.error?.description).toMatch(/no binary data/);
	});
});

describe('media from a URL or base64 (v2)', () => {
	const sandbox = useSandbox('v2');

	test('a URL goes as the URL, with the name and type its path gives', async () => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'url', mediaUrl: 'https://files.example.com/docs/price%20list.pdf' });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({
			number: '5511999990000',
			mediatype: 'document',
			mimetype: 'application/pdf',
			media: 'https://files.example.com/docs/price%20list.pdf',
			fileName: 'price list.pdf',
			messageId: MESSAGE_IDS[0],
		});
	});

	test.each([
		['a percent sign that is no escape', 'https://files.example.com/a%E0%A4%A.pdf', 'a%E0%A4%A.pdf', 'application/pdf'],
		['an encoded folder part', 'https://files.example.com/..%2F..%2Fetc%2Fpasswd', 'passwd', undefined],
		['an encoded NUL and line break', 'https://files.example.com/re%00port%0D%0A.pdf', 'report.pdf', 'application/pdf'],
	])('a URL with %s gives a safe file name, never an error', async (_title, mediaUrl, fileName, mimetype) => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'url', mediaUrl });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({
			number: '5511999990000',
			mediatype: 'document',
			...(mimetype ? { mimetype } : {}),
			media: mediaUrl,
			fileName,
			messageId: MESSAGE_IDS[0],
		});
	});

	test('a URL whose last part is too long gives a name of at most 255 bytes', async () => {
		const mediaUrl = `https://files.example.com/${'%C3%A9'.repeat(200)}.pdf`;
		const result = await run(sandbox.current, { ...media, mediaSource: 'url', mediaUrl });
		expect(result.error).toBeUndefined();
		const fileName = (sent(sandbox.current)[0].body as { fileName: string }).fileName;
		expect(Buffer.byteLength(fileName)).toBeLessThanOrEqual(255);
		expect(fileName).toMatch(/^é+\.pdf$/);
	});

	test.each([
		['a folder part', '../../etc/passwd'],
		['a control character', 'a\u0000b.pdf'],
		['more than 255 bytes', `${'x'.repeat(300)}.pdf`],
	])('Options: File Name with %s is refused before sending', async (_title, fileName) => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'url', mediaUrl: 'https://files.example.com/a.pdf', options: { fileName } });
		expect(result.error?.message).toMatch(/^"Options: File Name" must be a file name without folders or control characters, at most 255 bytes, not /);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('Options: MIME Type with a line break and a header is refused before sending', async () => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'url', mediaUrl: 'https://files.example.com/a.png', options: { mimeType: 'image/png\r\nX-Evil: 1' } });
		expect(result.error?.message).toMatch(/^"Options: MIME Type" must be a MIME type such as application\/pdf/);
		expect(sandbox.current.requests).toEqual([]);
	});

	test.each(['http://localhost/a.png', 'http://127.0.0.1/a.png', 'http://x/a.png', 'ftp://example.com/a.png', 'not a url'])('the URL %p is refused: the server downloads only addresses with a domain', async (mediaUrl) => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'url', mediaUrl });
		expect(result.error?.message).toMatch(/^"URL" must be an http\(s\) address with a domain/);
		expect(sandbox.current.requests).toEqual([]);
	});

	test('base64 with a data: prefix goes raw, its MIME type taken from the prefix', async () => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'base64', mediaBase64: `data:image/png;base64,${PNG.toString('base64')}` });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({ number: '5511999990000', mediatype: 'image', mimetype: 'image/png', media: PNG.toString('base64'), fileName: 'image.png', messageId: MESSAGE_IDS[0] });
	});

	test('text that is not base64 is refused', async () => {
		const result = await run(sandbox.current, { ...media, mediaSource: 'base64', mediaBase64: 'hello world!' });
		expect(result.error?.message).toMatch(/^"Base64 Data" is not base64 text \[item 0\]$/);
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('contacts and polls (v2)', () => {
	const sandbox = useSandbox('v2');

	test('Send Contact sends each card with its digits as wuid and only the fields given', async () => {
		const result = await run(sandbox.current, {
			resource: 'message',
			operation: 'sendContact',
			number: '5511999990000',
			contacts: { contact: [{ fullName: 'Ana Lima', phoneNumber: '+55 11 98888-0000', organization: 'ACME', email: 'ana@example.com' }, { fullName: 'Bo', phoneNumber: '5511977770000' }] },
		});
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({
			number: '5511999990000',
			contact: [
				{ fullName: 'Ana Lima', wuid: '5511988880000', phoneNumber: '+55 11 98888-0000', organization: 'ACME', email: 'ana@example.com' },
				{ fullName: 'Bo', wuid: '5511977770000', phoneNumber: '5511977770000' },
			],
		});
	});

	test.each<[string, unknown, RegExp]>([
		['no contact', {}, /^"Contacts" needs at least one contact \[item 0\]$/],
		['a contact without a name', { contact: [{ fullName: ' ', phoneNumber: '5511977770000' }] }, /^"Contacts: contact 1 full name" is required \[item 0\]$/],
		['a contact without a phone', { contact: [{ fullName: 'A', phoneNumber: '' }] }, /^"Contacts: contact 1 phone number" must be a phone number/],
		['the same contact twice', { contact: [{ fullName: 'A', phoneNumber: '5511977770000' }, { fullName: 'A', phoneNumber: '5511977770000' }] }, /^"Contacts: contact 2" repeats an earlier contact/],
	])('Send Contact refuses %s', async (_title, contacts, message) => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendContact', number: '5511999990000', contacts: contacts as INodeParameters });
		expect(result.error?.message).toMatch(message);
		expect(sandbox.current.requests).toEqual([]);
	});

	const poll = (texts: string[], extra: INodeParameters = {}) => ({
		resource: 'message',
		operation: 'sendPoll',
		number: '5511999990000',
		name: 'Which day?',
		pollOptions: { option: texts.map((text) => ({ text })) },
		...extra,
	});

	test('Send Poll sends the question, the options in order and the selectable count', async () => {
		const result = await run(sandbox.current, poll(['Mon', 'Tue', 'Fri'], { selectableCount: 2 }));
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)[0].body).toEqual({ number: '5511999990000', name: 'Which day?', selectableCount: 2, values: ['Mon', 'Tue', 'Fri'], messageId: MESSAGE_IDS[0] });
	});

	test.each<[string, INodeParameters, RegExp]>([
		['one option', poll(['Mon']), /^"Poll Options" needs 2 to 10 options, not 1 \[item 0\]$/],
		['eleven options', poll(Array.from({ length: 11 }, (_, i) => `o${i}`)), /^"Poll Options" needs 2 to 10 options, not 11 \[item 0\]$/],
		['a repeated option', poll(['Mon', 'Tue', 'Mon']), /^"Poll Options" has "Mon" twice; options must differ \[item 0\]$/],
		['an empty option', poll(['Mon', ' ']), /^"Poll Options: option 2" is empty \[item 0\]$/],
		['a count above the options', poll(['Mon', 'Tue'], { selectableCount: 3 }), /^"Selectable Count" must be between 0 and 2 \[item 0\]$/],
	])('Send Poll refuses %s', async (_title, parameters, message) => {
		const result = await run(sandbox.current, parameters);
		expect(result.error?.message).toMatch(message);
		expect(sandbox.current.requests).toEqual([]);
	});
});

describe('Download Media (v2)', () => {
	const sandbox = useSandbox('v2');

	test('the file of a received message becomes binary data; the JSON keeps no base64', async () => {
		const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
		await sandbox.current.injectMessage('demo', {
			from: '5511988880000',
			id: '3AINJECTEDPHOTO1',
			media: { kind: 'image', base64: jpeg.toString('base64'), mimetype: 'image/jpeg', caption: 'hi' },
		});
		const messageId = '3AINJECTEDPHOTO1';
		sandbox.current.clearRequests();

		const result = await run(sandbox.current, { resource: 'message', operation: 'downloadMedia', messageId });
		expect(result.error).toBeUndefined();
		expect(sent(sandbox.current)).toEqual([
			{ method: 'POST', path: '/chat/getBase64FromMediaMessage/demo', status: 201, body: { message: { key: { id: messageId } }, convertToMp4: false } },
		]);
		const item = result.items[0];
		expect(item.json).not.toHaveProperty('base64');
		expect(item.json).not.toHaveProperty('buffer');
		expect(item.json).toMatchObject({ mimetype: 'image/jpeg' });
		expect(item.binary?.data).toMatchObject({ mimeType: 'image/jpeg' });
		const bytes = Buffer.from(item.binary!.data.data, 'base64');
		expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(jpeg).digest('hex'));
	});

	test('a message id the server does not know is the server\'s error, with nothing output', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'downloadMedia', messageId: 'NOPE' });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.items).toEqual([]);
	});
});

describe('with a documented-dialect credential', () => {
	const sandbox = useSandbox('documented');

	test('an audio status from a file stops before sending, saying it needs a v2.x server', async () => {
		const result = await run(sandbox.current, { resource: 'message', operation: 'sendStatus', type: 'audio', contentSource: 'base64', contentBase64: 'AAAA', allContacts: true });
		expect(result.error?.message).toMatch(/^"Audio Source" can be a file only with a v2\.x server \[item 0\]$/);
		expect(sandbox.current.requests).toEqual([]);
	});

	test.each(['sendMedia', 'sendAudio', 'sendSticker', 'sendVideoNote', 'sendContact', 'sendPoll', 'downloadMedia'])('%s stops before sending, saying it needs a v2.x server', async (operation) => {
		const result = await run(sandbox.current, { resource: 'message', operation, number: '5511999990000', messageId: 'X', name: 'Q' });
		expect(result.error?.message).toMatch(/^Message → .+ needs an Evolution API v2\.x server; the credential's Server Dialect is the documented interface \[item 0\]$/);
		expect(sandbox.current.requests).toEqual([]);
	});
});
