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

	test('text that merely looks like the internal mark is not replaced', () => {
		const bytes = jsonBody({ caption: '\u0000base64:0\u0000', media: new Base64Text('QQ==') as never }) as Buffer;
		expect(JSON.parse(bytes.toString('utf8'))).toEqual({ caption: '\u0000base64:0\u0000', media: 'QQ==' });
	});
});
