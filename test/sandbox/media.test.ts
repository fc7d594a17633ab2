/**
 * v2 media routes: each valid body is accepted and its file stored exactly as received; each
 * rule of the real v2.3.6 server refuses what it refuses; Download Media gives the bytes back.
 */
import { createHash, randomBytes } from 'crypto';
import type { Sandbox } from '../../sandbox/server';
import { call, service, start, validation } from './helpers';

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3000), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const OGG = Buffer.concat([Buffer.from('OggS'), randomBytes(1000)]);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('base64');
const to = { number: '5511999990000' };

describe('v2 media routes', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ dialect: 'v2' });
	});
	afterAll(() => sb.close());
	beforeEach(() => sb.clearRequests());

	const download = (id: string, extra: Record<string, unknown> = {}): ReturnType<typeof call> =>
		call(sb, '/chat/getBase64FromMediaMessage/demo', { message: { key: { id } }, ...extra });

	describe('POST /message/sendMedia', () => {
		it('a document from base64: 201, stored byte for byte, downloaded with its name and type', async () => {
			const r = await call(sb, '/message/sendMedia/demo', { ...to, mediatype: 'document', mimetype: 'application/pdf', media: PDF.toString('base64'), fileName: 'report.pdf', caption: 'Q3' });
			expect(r.status).toBe(201);
			const id: string = r.body.key.id;
			expect(r.body.key).toEqual({ remoteJid: '5511999990000@s.whatsapp.net', fromMe: true, id });
			expect(r.body.message.documentMessage).toMatchObject({ mimetype: 'application/pdf', fileName: 'report.pdf', title: 'report.pdf', caption: 'Q3', fileLength: String(PDF.length), fileSha256: sha(PDF) });
			const stored = sb.mediaOf('demo', id)!;
			expect(stored).toMatchObject({ mediaType: 'documentMessage', mimetype: 'application/pdf', fileName: 'report.pdf', caption: 'Q3', incoming: false });
			expect(stored.bytes!.equals(PDF)).toBe(true);

			const d = await download(id);
			expect(d.status).toBe(201);
			expect(d.body).toEqual({
				mediaType: 'documentMessage',
				fileName: 'report.pdf',
				caption: 'Q3',
				size: { fileLength: String(PDF.length) },
				mimetype: 'application/pdf',
				base64: PDF.toString('base64'),
				buffer: null,
			});
		});

		it('an image: labelled image/jpeg as the real server re-encodes it, bytes kept as sent; name <id>.jpeg on download', async () => {
			const r = await call(sb, '/message/sendMedia/demo', { ...to, mediatype: 'image', mimetype: 'image/png', media: PNG.toString('base64'), extra: 'ignored' });
			expect(r.status).toBe(201);
			const id: string = r.body.key.id;
			expect(r.body.message.imageMessage).toMatchObject({ mimetype: 'image/jpeg' });
			expect(sb.mediaOf('demo', id)!.bytes!.equals(PNG)).toBe(true);
			const d = await download(id);
			expect(d.body).toMatchObject({ mediaType: 'imageMessage', fileName: `${id}.jpeg`, mimetype: 'image/jpeg', base64: PNG.toString('base64') });
		});

		it('a URL with a domain (or an IP address) is kept as the URL; a document takes its name and type from the path', async () => {
			const r = await call(sb, '/message/sendMedia/demo', { ...to, mediatype: 'document', media: 'https://files.example.com/docs/price.pdf' });
			expect(r.status).toBe(201);
			expect(r.body.message.documentMessage).toMatchObject({ fileName: 'price', mimetype: 'application/pdf' });
			expect(sb.mediaOf('demo', r.body.key.id)).toMatchObject({ url: 'https://files.example.com/docs/price.pdf', bytes: undefined });
			expect((await call(sb, '/message/sendMedia/demo', { ...to, mediatype: 'video', media: 'http://10.0.0.5:8080/v.mp4' })).status).toBe(201);
			expect((await call(sb, '/message/sendMedia/demo', { ...to, mediatype: 'video', media: 'example.com/v.mp4' })).status).toBe(201);
		});

		it.each<[string, Record<string, unknown>, unknown]>([
			['no mediatype', { ...to, media: 'AAAA' }, validation('instance requires property "mediatype"')],
			['mediatype gif', { ...to, mediatype: 'gif', media: 'AAAA' }, validation('mediatype is not one of enum values: image,document,video,audio')],
			['media a number', { ...to, mediatype: 'image', media: 5 }, validation('media is not of a type(s) string')],
			['no media', { ...to, mediatype: 'image' }, service('Owned media must be a url or base64')],
			['a URL without a top-level domain', { ...to, mediatype: 'image', media: 'http://x/a.png' }, service('Owned media must be a url or base64')],
			['a localhost URL', { ...to, mediatype: 'image', media: 'http://localhost:8080/a.png' }, service('Owned media must be a url or base64')],
			['a data: URI', { ...to, mediatype: 'image', media: `data:image/png;base64,${PNG.toString('base64')}` }, service('Owned media must be a url or base64')],
			['text that is not base64', { ...to, mediatype: 'image', media: 'hello world!' }, service('Owned media must be a url or base64')],
			['a base64 document without a file name', { ...to, mediatype: 'document', media: PDF.toString('base64') }, service('For base64 the file name must be informed.')],
			['a repeated mention', { ...to, mediatype: 'image', media: 'AAAA', mentioned: ['551', '551'] }, validation('mentioned contains duplicate item')],
			['a bad number', { number: 'abc', mediatype: 'image', media: 'AAAA' }, validation('Invalid format')],
			['a number without an account', { number: '0123', mediatype: 'image', media: 'AAAA' }, service({ exists: false, jid: '0123@s.whatsapp.net', number: '0123' })],
		])('refuses %s with 400, storing nothing', async (_title, body, expected) => {
			const before = sb.storedMedia().length;
			const r = await call(sb, '/message/sendMedia/demo', body);
			expect(r.status).toBe(400);
			expect(r.body).toEqual(expected);
			expect(sb.storedMedia()).toHaveLength(before);
		});
	});

	describe('voice note, sticker, video note', () => {
		it.each<[string, string, string, string, Buffer]>([
			['/message/sendWhatsAppAudio/demo', 'audio', 'audioMessage', 'audio/ogg; codecs=opus', OGG],
			['/message/sendSticker/demo', 'sticker', 'stickerMessage', 'image/webp', PNG],
			['/message/sendPtv/demo', 'video', 'ptvMessage', 'video/mp4', PDF],
		])('%s: the %s field as base64 is stored and downloaded exactly', async (path, field, mediaType, mimetype, bytes) => {
			const r = await call(sb, path, { ...to, [field]: bytes.toString('base64') });
			expect(r.status).toBe(201);
			const id: string = r.body.key.id;
			expect(r.body.message[mediaType]).toMatchObject({ mimetype, fileLength: String(bytes.length) });
			expect(sb.mediaOf('demo', id)!.bytes!.equals(bytes)).toBe(true);
			const d = await download(id);
			expect(d.body).toMatchObject({ mediaType, mimetype, base64: bytes.toString('base64') });
		});

		it('a voice note is a ptt audio; convertToMp4 answers audio/mp4 (the sandbox does not transcode)', async () => {
			const r = await call(sb, '/message/sendWhatsAppAudio/demo', { ...to, audio: OGG.toString('base64') });
			expect(r.body.message.audioMessage.ptt).toBe(true);
			const d = await download(r.body.key.id, { convertToMp4: true });
			expect(d.body).toMatchObject({ mediaType: 'audioMessage', mimetype: 'audio/mp4', fileName: `${r.body.key.id}.oga`, base64: OGG.toString('base64') });
		});

		it.each<[string, Record<string, unknown>, unknown]>([
			['/message/sendWhatsAppAudio/demo', { ...to, audio: 'http://x/a.ogg' }, service('Owned media must be a url, base64, or valid file with buffer')],
			['/message/sendWhatsAppAudio/demo', { ...to }, service('Owned media must be a url, base64, or valid file with buffer')],
			['/message/sendSticker/demo', { ...to, sticker: 'not base64!' }, service('Owned media must be a url or base64')],
			['/message/sendPtv/demo', { ...to, video: 'http://localhost/v.mp4' }, service('Owned media must be a url or base64')],
			['/message/sendPtv/demo', { video: 'AAAA' }, validation('instance requires property "number"')],
		])('%s refuses %j', async (path, body, expected) => {
			const r = await call(sb, path, body);
			expect(r.status).toBe(400);
			expect(r.body).toEqual(expected);
		});
	});

	describe('POST /message/sendContact', () => {
		const ana = { fullName: 'Ana Lima', phoneNumber: '+55 11 98888-7777', organization: 'ACME', email: 'ana@example.com', url: 'https://acme.example' };
		it('one contact: a contactMessage with its vCard', async () => {
			const r = await call(sb, '/message/sendContact/demo', { ...to, contact: [ana] });
			expect(r.status).toBe(201);
			expect(r.body.message).toEqual({
				contactMessage: {
					displayName: 'Ana Lima',
					vcard:
						'BEGIN:VCARD\nVERSION:3.0\nN:Ana Lima\nFN:Ana Lima\nORG:ACME;\nEMAIL:ana@example.com\nURL:https://acme.example\n' +
						'item1.TEL;waid=5511988887777@s.whatsapp.net:+55 11 98888-7777\nitem1.X-ABLabel:Celular\nEND:VCARD',
				},
			});
			expect(sb.chat.at(-1)).toMatchObject({ direction: 'out', kind: 'contact', text: '👤 Ana Lima +55 11 98888-7777' });
		});
		it('several contacts: a contactsArrayMessage', async () => {
			const r = await call(sb, '/message/sendContact/demo', { ...to, contact: [ana, { fullName: 'Bo', phoneNumber: '5511977776666', wuid: '5511977776666' }] });
			expect(r.body.message.contactsArrayMessage.displayName).toBe('2 contacts');
			expect(r.body.message.contactsArrayMessage.contacts[1].vcard).toContain('item1.TEL;waid=5511977776666:5511977776666');
		});
		it.each<[string, unknown, string]>([
			['no contact', undefined, 'instance requires property "contact"'],
			['an empty list', [], 'contact does not meet minimum length of 1'],
			['no phone number', [{ fullName: 'Ana' }], 'contact[0] requires property "phoneNumber"'],
			['a short phone number', [{ fullName: 'Ana', phoneNumber: '12345' }], 'contact[0].phoneNumber does not meet minimum length of 10'],
			['no name', [{ phoneNumber: '5511999990000' }], 'contact[0] requires property "fullName"'],
			['a wuid with letters', [{ fullName: 'Ana', phoneNumber: '5511999990000', wuid: 'abc' }], '"wuid" must be a numeric string'],
			['the same card twice', [ana, ana], 'contact contains duplicate item'],
		])('refuses %s', async (_title, contact, message) => {
			const r = await call(sb, '/message/sendContact/demo', { ...to, contact });
			expect(r.status).toBe(400);
			expect(r.body.response.message[0]).toContain(message);
		});
	});

	describe('POST /message/sendPoll', () => {
		it('a poll: pollCreationMessage with its options and count', async () => {
			const r = await call(sb, '/message/sendPoll/demo', { ...to, name: 'Lunch?', selectableCount: 1, values: ['Pizza', 'Sushi'] });
			expect(r.status).toBe(201);
			expect(r.body.message).toEqual({ pollCreationMessage: { name: 'Lunch?', options: [{ optionName: 'Pizza' }, { optionName: 'Sushi' }], selectableOptionsCount: 1 } });
			expect(sb.chat.at(-1)).toMatchObject({ kind: 'poll', text: '📊 Lunch?\n○ Pizza\n○ Sushi' });
		});
		it.each<[string, Record<string, unknown>, string]>([
			['one option', { values: ['a'] }, 'values does not meet minimum length of 2'],
			['eleven options', { values: Array.from({ length: 11 }, (_, i) => `o${i}`) }, 'values does not meet maximum length of 10'],
			['a repeated option', { values: ['a', 'b', 'a'] }, 'values contains duplicate item'],
			['a count of 11', { selectableCount: 11 }, 'selectableCount must be less than or equal to 10'],
			['a fractional count', { selectableCount: 1.5 }, 'selectableCount is not of a type(s) integer'],
		])('refuses %s', async (_title, change, message) => {
			const r = await call(sb, '/message/sendPoll/demo', { ...to, name: 'Q', selectableCount: 1, values: ['a', 'b'], ...change });
			expect(r.status).toBe(400);
			expect(r.body).toEqual(validation(message));
		});
		it('refuses a poll without a name or count', async () => {
			const r = await call(sb, '/message/sendPoll/demo', { ...to, values: ['a', 'b'] });
			expect(r.body).toEqual(validation('instance requires property "name"', 'instance requires property "selectableCount"'));
		});
	});

	describe('POST /chat/getBase64FromMediaMessage', () => {
		it('an injected incoming document comes back exactly, with its name; the file is also served for the chat page', async () => {
			await sb.injectMessage('demo', { from: '5511988880000', id: '3AINCOMINGPDF01', media: { kind: 'document', mimetype: 'application/pdf', base64: PDF.toString('base64'), fileName: 'in.pdf' } });
			const d = await download('3AINCOMINGPDF01');
			expect(d.status).toBe(201);
			expect(d.body).toEqual({ mediaType: 'documentMessage', fileName: 'in.pdf', size: { fileLength: String(PDF.length) }, mimetype: 'application/pdf', base64: PDF.toString('base64'), buffer: null });
			expect(sb.chat.at(-1)!.media).toEqual({ url: '/_sandbox/media/demo/3AINCOMINGPDF01', mimetype: 'application/pdf', fileName: 'in.pdf', size: PDF.length });
			const file = await fetch(`${sb.url}/_sandbox/media/demo/3AINCOMINGPDF01`);
			expect(file.headers.get('content-type')).toBe('application/pdf');
			expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
		});

		it('an injected image keeps its caption and type', async () => {
			await sb.injectMessage('demo', { from: '5511988880000', id: '3AINCOMINGIMG01', media: { kind: 'image', mimetype: 'image/png', base64: PNG.toString('base64'), caption: 'look' } });
			expect((await download('3AINCOMINGIMG01')).body).toMatchObject({ mediaType: 'imageMessage', fileName: '3AINCOMINGIMG01.png', caption: 'look', mimetype: 'image/png', base64: PNG.toString('base64') });
		});

		it('clearRequests() keeps the files; clearMedia() forgets them', async () => {
			await sb.injectMessage('demo', { from: '5511988880000', id: '3AKEPT', media: { kind: 'image', mimetype: 'image/png', base64: PNG.toString('base64') } });
			sb.clearRequests();
			expect((await download('3AKEPT')).status).toBe(201);
			sb.clearMedia();
			expect(sb.mediaOf('demo', '3AKEPT')).toBeUndefined();
			expect((await download('3AKEPT')).body).toEqual(service('Message not found'));
		});

		it('an unknown id or no message: 400 with the server’s words', async () => {
			expect((await download('NOPE')).body).toEqual(service('Message not found'));
			expect((await call(sb, '/chat/getBase64FromMediaMessage/demo', {})).body).toEqual(service("TypeError: Cannot read properties of undefined (reading 'key')"));
			expect((await call(sb, '/chat/getBase64FromMediaMessage/demo', { message: {} })).body).toEqual(service('Message not found'));
		});
	});
});

describe('documented dialect: no media routes', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start();
	});
	afterAll(() => sb.close());
	it.each(['sendMedia', 'sendWhatsAppAudio', 'sendSticker', 'sendPtv', 'sendContact', 'sendPoll'])('POST /message/%s is 404', async (name) => {
		const r = await call(sb, `/message/${name}/demo`, { number: '5511999990000' });
		expect(r.status).toBe(404);
		expect(r.body).toEqual({ status: 404, error: 'Not Found', response: { message: [`Cannot POST /message/${name}/demo`] } });
	});
});

describe('v2 Send Status: an audio status from a URL or raw base64', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ dialect: 'v2' });
	});
	afterAll(() => sb.close());
	const status = { type: 'audio', caption: '', backgroundColor: '#000000', font: 1, allContacts: true };

	it('base64 content is stored byte for byte as a voice note; a URL stays a URL', async () => {
		const r = await call(sb, '/message/sendStatus/demo', { ...status, content: OGG.toString('base64') });
		expect(r.status).toBe(201);
		expect(r.body.message.audioMessage).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus', fileLength: String(OGG.length) });
		expect(sb.mediaOf('demo', r.body.key.id)!.bytes!.equals(OGG)).toBe(true);
		expect((await call(sb, '/message/sendStatus/demo', { ...status, content: 'https://files.example.com/a.ogg' })).status).toBe(201);
	});

	it('refuses content that is neither; images and videos stay URL only', async () => {
		expect((await call(sb, '/message/sendStatus/demo', { ...status, content: 'not audio!' })).body).toEqual(service('content must be the URL or base64 of the audio'));
		expect((await call(sb, '/message/sendStatus/demo', { ...status, type: 'image', content: PNG.toString('base64') })).body).toEqual(service('content must be the URL of the image'));
	});
});
