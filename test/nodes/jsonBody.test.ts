import fc from 'fast-check';

import { Base64Text, jsonBody } from '../../nodes/shared/jsonBody';

/** A file's base64 is written into the body around JSON.stringify, and the body means the same JSON. */
describe('request bodies with a file', () => {
	test('a body without files is left to n8n to serialise', () => {
		const body = { number: '5511999990000', text: 'hi' };
		expect(jsonBody(body)).toBe(body);
	});

	test('base64 values are spliced in: the bytes parse to the same JSON, keys in order', () => {
		const media = Buffer.from('any bytes \u0000 "quoted" é').toString('base64');
		const bytes = jsonBody({ number: '55', caption: 'a "quote", \u0000 and é', media: new Base64Text(media) as never, fileName: 'f.pdf', sticker: new Base64Text('QUJD') as never });
		expect(Buffer.isBuffer(bytes)).toBe(true);
		const text = (bytes as Buffer).toString('utf8');
		expect(JSON.parse(text)).toEqual({ number: '55', caption: 'a "quote", \u0000 and é', media, fileName: 'f.pdf', sticker: 'QUJD' });
		expect(Object.keys(JSON.parse(text))).toEqual(['number', 'caption', 'media', 'fileName', 'sticker']);
	});

	test('bytes are encoded into the body piece by piece: the same bytes as JSON.stringify of their base64', () => {
		const step = 3 * 8192;
		for (const size of [1, 2, 3, 4, step - 1, step, step + 1, 2 * step + 2, 5 * step + 7]) {
			const file = Buffer.alloc(size);
			for (let i = 0; i < size; i++) file[i] = (i * 7919 + size) & 0xff;
			const body = { number: '55', caption: 'é "x"', media: new Base64Text(file) as never, fileName: 'f.bin' };
			const expected = JSON.stringify({ number: '55', caption: 'é "x"', media: file.toString('base64'), fileName: 'f.bin' });
			expect((jsonBody(body) as Buffer).equals(Buffer.from(expected, 'utf8'))).toBe(true);
			expect(JSON.stringify(body)).toBe(expected);
		}
	});

	test('any body: exactly the bytes of JSON.stringify with each file as its base64', () => {
		const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(fc.string()), fc.dictionary(fc.string(), fc.string()));
		const file = fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes));
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.string(), fc.oneof(value, file.map((f) => ({ file: f })))), { maxLength: 8 }), (fields) => {
				const body: Record<string, unknown> = {};
				const plain: Record<string, unknown> = {};
				for (const [key, v] of fields) {
					const isFile = typeof v === 'object' && v !== null && 'file' in v && Buffer.isBuffer(v.file);
					body[key] = isFile ? new Base64Text(v.file) : v;
					plain[key] = isFile ? v.file.toString('base64') : v;
				}
				const result = jsonBody(body as never);
				const expected = JSON.stringify(plain);
				if (Buffer.isBuffer(result)) expect(result.toString('utf8')).toBe(expected);
				else expect(JSON.stringify(result)).toBe(expected);
			}),
		);
	});

	test('fields around a file in any unicode are written as JSON.stringify writes them, at their exact size in bytes', () => {
		// Keys and values of any code point (multi-byte, lone surrogates, NUL, quotes, text that
		// looks like a placeholder), fields JSON.stringify leaves out before and after the file,
		// the file first, last or alone: the body is sized before it is written, so a miscounted
		// byte would throw or leave garbage.
		const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('\u0000base64:0\u0000', '"', '\\', '\ud800', 'é👍'));
		const field = fc.oneof(text, fc.constant(undefined), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 2 }));
		fc.assert(
			fc.property(fc.array(fc.tuple(text, field), { maxLength: 4 }), fc.nat(4), fc.uint8Array({ maxLength: 40 }), (fields, at, file) => {
				const entries: Array<[string, unknown]> = fields.filter(([key]) => key !== 'media');
				entries.splice(Math.min(at, entries.length), 0, ['media', new Base64Text(Buffer.from(file))]);
				const bytes = jsonBody(Object.fromEntries(entries) as never);
				expect(Buffer.isBuffer(bytes)).toBe(true);
				const expected = JSON.stringify(Object.fromEntries(entries.map(([key, value]) => [key, value instanceof Base64Text ? value.toJSON() : value])));
				expect((bytes as Buffer).equals(Buffer.from(expected, 'utf8'))).toBe(true);
			}),
			{ numRuns: 300 },
		);
	});
});
