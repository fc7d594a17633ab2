import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun } from '../harness/engine';
import { useHostileServer, type Responder } from './server';

/**
 * Download Media against a server that sends files of any size and shape, through n8n's
 * engine over real sockets: a file over the limit is refused with its size and the option
 * that raises the limit, before it is decoded where the answer's length tells; a file under it
 * is output byte for byte; broken base64 is refused, never a short file; a 2xx answer is
 * never called an HTTP error; names and types from the server are made safe.
 */

const KEY = 'files-test-key-0123456789';
const MB = 1024 * 1024;
const ROUTE = '/chat/getBase64FromMediaMessage/demo';

/** An answer as a v2.x server writes it (status 201); `base64` is written into the JSON as given (already escaped). */
function fileAnswer(fields: { base64Json: string; fileName?: unknown; mimetype?: unknown; chunked?: boolean; status?: number }): Responder {
	return (_req: IncomingMessage, res: ServerResponse) => {
		const head = JSON.stringify({ mediaType: 'documentMessage', fileName: fields.fileName ?? 'file.bin', mimetype: fields.mimetype ?? 'application/pdf' });
		const body = Buffer.from(`${head.slice(0, -1)},"base64":${fields.base64Json},"buffer":null}`);
		res.writeHead(fields.status ?? 201, {
			'content-type': 'application/json; charset=utf-8',
			...(fields.chunked ? {} : { 'content-length': String(body.length) }),
		});
		if (!fields.chunked) return void res.end(body);
		// In pieces, without a length, as a proxy that streams would send it.
		for (let at = 0; at < body.length; at += 100_000) res.write(body.subarray(at, at + 100_000));
		res.end();
	};
}

function fileOf(bytes: Buffer, extra: Omit<Parameters<typeof fileAnswer>[0], 'base64Json'> = {}): Responder {
	return fileAnswer({ base64Json: JSON.stringify(bytes.toString('base64')), ...extra });
}

function sha(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

describe('Download Media, files of any size and shape', () => {
	const hostile = useHostileServer();

	async function download(parameters: INodeParameters = {}, continueOnFail = false): Promise<NodeRun> {
		return await runNode({
			parameters: { resource: 'message', operation: 'downloadMedia', instance: 'demo', messageId: 'MSG1', binaryPropertyName: 'data', convertToMp4: false, options: {}, ...parameters },
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2' },
			continueOnFail,
		});
	}

	/** The request went out once, as Download Media builds it. */
	function expectOneRequest(): void {
		expect(hostile.current.seen.map(({ method, path, body }) => ({ method, path, body: JSON.parse(body) as IDataObject }))).toEqual([
			{ method: 'POST', path: ROUTE, body: { message: { key: { id: 'MSG1' } }, convertToMp4: false } },
		]);
	}

	test('a file under the limit comes out byte for byte; the JSON keeps neither the base64 nor the server\'s buffer', async () => {
		const file = randomBytes(2 * MB + 1);
		for (const chunked of [false, true]) {
			hostile.current.seen.length = 0;
			hostile.current.respond(fileOf(file, { chunked, fileName: 'report.pdf' }));
			const run = await download();
			expect(run.error).toBeUndefined();
			expectOneRequest();
			expect(run.items).toHaveLength(1);
			expect(run.items[0].json).toEqual({ mediaType: 'documentMessage', fileName: 'report.pdf', mimetype: 'application/pdf' });
			expect(run.items[0].binary?.data).toMatchObject({ fileName: 'report.pdf', mimeType: 'application/pdf', bytes: file.length });
			expect(sha(Buffer.from(run.items[0].binary!.data.data, 'base64'))).toBe(sha(file));
		}
	});

	test('a file over the limit the user set is refused with its size and the option, never as an HTTP error', async () => {
		const file = randomBytes(3 * MB);
		hostile.current.respond(fileOf(file));
		const run = await download({ options: { maxFileSizeMb: 1 } });
		expectOneRequest();
		expect(run.items).toEqual([]);
		// The answer's length says the size: refused before a byte of the file is decoded.
		expect(run.error?.message).toMatch(
			/^The file is too large: the file is about 3\.0 MB \(3,145,\d{3} bytes\), more than the limit of 1 MB set in "Options: Max File Size \(MB\)" \[item 0\]$/,
		);
		expect(run.error?.description).toMatch(/^Raise "Options: Max File Size \(MB\)"/);
		expect(JSON.stringify(run.error)).not.toMatch(/HTTP 20\d|"httpCode":"20\d"/);
	});

	test('without a Content-Length, the file is refused as soon as its text passes the limit', async () => {
		hostile.current.respond(fileOf(randomBytes(3 * MB), { chunked: true }));
		const run = await download({ options: { maxFileSizeMb: 1 } }, true);
		expectOneRequest();
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([
			{
				json: {
					error: expect.stringMatching(/^The file is too large: the file is more than 1\.0 MB \([\d,]+ bytes\), more than the limit of 1 MB set in "Options: Max File Size \(MB\)" \[item 0\]$/),
					description: expect.stringMatching(/^Raise/),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a new node (Options never opened) takes files up to 64 MB: a larger answer is refused before it is read', async () => {
		const claimed = 100 * MB;
		hostile.current.respond((_req, res) => {
			// Says it is 100 MB; the node must not wait for (or read) the rest.
			res.writeHead(201, { 'content-type': 'application/json', 'content-length': String(claimed) });
			res.write('{"mimetype":"video/mp4","base64":"AAAA');
		});
		const run = await download({ options: {} });
		expectOneRequest();
		expect(run.error?.message).toMatch(/^The file is too large: the file is about 75\.0 MB \(78,643,200 bytes\), more than the limit of 64 MB set in "Options: Max File Size \(MB\)" \[item 0\]$/);
	});

	test('the limit is checked before any request', async () => {
		const run = await download({ options: { maxFileSizeMb: 0 } });
		expect(run.error?.message).toBe('"Options: Max File Size (MB)" must be a number of MB from 1 to 1024 [item 0]');
		expect(hostile.current.seen).toEqual([]);
	});

	test.each([
		['"!!!!"', /it holds "!"/],
		['"abc"', /its length \(3 characters\) is not a multiple of 4/],
		['"QUJD!QUJD"', /it holds "!"/],
		['"QQ==QQ=="', /characters after its "=" padding/],
		['"QQ==="', /more than two "="/],
		['"data:text/plain,QUJD"', /data: URL that is not base64/],
		['"QUJD\\u0000"', /character 0/],
		['"QUJDé"', /character 195/],
		['"QUJD\\"QUJD"', /it holds """/],
	])('the base64 %s is refused, never output as a short file', async (base64Json, reason) => {
		hostile.current.respond(fileAnswer({ base64Json }));
		const run = await download();
		expectOneRequest();
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/^"Operation" got a file from the server that is not valid base64 \(/);
		expect(run.error?.message).toMatch(reason);
	});

	test.each([
		['with a data: prefix', '"data:application/pdf;base64,JVBERi0xLjQK"'],
		['wrapped at 76 characters with \\n and \\r\\n', '"JVBE\\nRi0x\\r\\nLjQK"'],
		['with escaped slashes', '"JVBERi0xLjQK\\/\\/\\/\\/"'],
	])('base64 %s is read as servers send it', async (_title, base64Json) => {
		hostile.current.respond(fileAnswer({ base64Json }));
		const run = await download();
		expect(run.error).toBeUndefined();
		const bytes = Buffer.from(run.items[0].binary!.data.data, 'base64');
		expect(bytes.subarray(0, 9).toString('latin1')).toBe('%PDF-1.4\n');
	});

	test('an empty or missing file is "no file", as before', async () => {
		hostile.current.respond(fileAnswer({ base64Json: '""' }), fileAnswer({ base64Json: 'null' }));
		for (let i = 0; i < 2; i++) {
			const run = await download();
			expect(run.error?.message).toBe('"Operation" got no file from the server [item 0]');
		}
	});

	test('names and types from the server are made safe: base name only, no control characters, 255 bytes, a header-safe type', async () => {
		const cases: Array<[unknown, unknown, string, string]> = [
			['../../etc/passwd', 'image/png\r\nX-Evil: 1', 'passwd', 'image/png'],
			['a\u0000b\u202e.pdf', 'application/pdf; charset="x"', 'ab.pdf', 'application/pdf; charset="x"'],
			[`${'n'.repeat(1_000_000)}.pdf`, 'not a type', `${'n'.repeat(251)}.pdf`, 'application/octet-stream'],
			['..', 42, 'media', 'application/octet-stream'],
		];
		for (const [fileName, mimetype, expectedName, expectedType] of cases) {
			hostile.current.respond(fileOf(Buffer.from('%PDF-1.4\n'), { fileName, mimetype }));
			const run = await download();
			expect(run.error).toBeUndefined();
			expect(run.items[0].binary?.data).toMatchObject({ fileName: expectedName, mimeType: expectedType });
		}
	});

	test('an error answer still shows the server\'s own message', async () => {
		hostile.current.respond((_req, res) => {
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ status: 400, error: 'Bad Request', response: { message: ['Message not found'] } }));
		});
		const run = await download();
		expect(run.error?.message).toBe('Message not found (HTTP 400)');
	});

	test('a file answer that trickles is ended by the request deadline, read as it streams', async () => {
		hostile.current.script('trickle');
		const run = await runNode({
			parameters: { resource: 'message', operation: 'downloadMedia', instance: 'demo', messageId: 'MSG1', binaryPropertyName: 'data', options: {} },
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2', timeout: 0.3 },
		});
		expect(run.error?.message).toBe('The server did not answer in time: timed out after 0.3 s');
		expect(run.items).toEqual([]);
	});

	test('an answer that is not JSON is told as such, not as a file', async () => {
		hostile.current.respond(
			(_req, res) => {
				res.writeHead(201, { 'content-type': 'application/json' });
				res.end('{"base64":"QUJD"');
			},
			(_req, res) => {
				res.writeHead(200, { 'content-type': 'text/html' });
				res.end('<html></html>');
			},
		);
		expect((await download()).error?.message).toBe('The server answered with something that is not JSON instead of the file');
		expect((await download()).error?.message).toBe('The server answered with an HTML page instead of JSON (HTTP 200)');
	});
});
