import { randomBytes } from 'node:crypto';

import fc from 'fast-check';

import { Base64Decoder, decodeBase64Text } from '../../nodes/shared/base64';
import { readFileAnswer } from '../../nodes/shared/fileAnswer';

/**
 * How a file is decoded, whatever the size is known beforehand or not: into one buffer that
 * grows in place (an answer without Content-Length is neither held twice nor joined from
 * pieces at the end), and handed over holding no more memory than the file itself. The bench
 * (bench/downloadMemory.ts, bench/triggerMemory.ts) measures the peak; these check the way
 * there and that every byte comes out right, in any cut of the text.
 */

const MB = 1024 * 1024;

/** A text cut at the given lengths, the rest in one last piece. */
function cut(text: string, lengths: number[]): string[] {
	const pieces: string[] = [];
	let at = 0;
	for (const length of lengths) {
		if (at >= text.length) break;
		pieces.push(text.slice(at, at + length));
		at += length;
	}
	if (at < text.length) pieces.push(text.slice(at));
	return pieces;
}

/** The answer of a v2.x server for a file, as the stream of an answer without Content-Length gives it. */
async function* answerOf(file: Buffer, chunkBytes: number): AsyncIterable<Buffer> {
	const body = Buffer.from(`{"mediaType":"documentMessage","fileName":"a.bin","base64":"${file.toString('base64')}","buffer":null}`);
	for (let at = 0; at < body.length; at += chunkBytes) yield body.subarray(at, at + chunkBytes);
}

function decodedData(result: ReturnType<Base64Decoder['finish']>): Buffer {
	if (!result.ok) throw new Error(`not decoded: ${JSON.stringify(result.problem)}`);
	return result.data;
}

describe('decoding a file in pieces', () => {
	afterEach(() => jest.restoreAllMocks());

	test('an answer without Content-Length is decoded into one buffer as it streams, never joined at the end, and the file holds only its own bytes', async () => {
		const concat = jest.spyOn(Buffer, 'concat');
		const file = randomBytes(5 * MB + 2);
		// 65,537-byte chunks: no chunk ends on a whole base64 quantum.
		const answer = await readFileAnswer(answerOf(file, 65_537), { fileField: 'base64', dropFields: ['buffer'], maxBytes: 64 * MB });
		// The sizes of the joins of more than a megabyte (none: the file is never joined).
		const joined = concat.mock.calls.map(([list]) => list.reduce((sum, piece) => sum + piece.length, 0));
		expect(joined.filter((bytes) => bytes > MB)).toEqual([]);
		if (!answer.ok || !answer.file?.ok) throw new Error(`no file: ${JSON.stringify(answer)}`);
		expect(answer.json).toEqual({ mediaType: 'documentMessage', fileName: 'a.bin', base64: null, buffer: null });
		expect(answer.file.data.equals(file)).toBe(true);
		// Nothing of the 64 MB the limit allowed is left reserved behind the file.
		expect(answer.file.data.buffer.byteLength).toBe(file.length);
	});

	test('with the size known beforehand (from the answer\'s length, a little more than the file), the file holds only its own bytes', async () => {
		const file = randomBytes(MB + 1);
		const decoder = new Base64Decoder(64 * MB, file.length + 300);
		for (const piece of cut(file.toString('base64'), Array(40).fill(50_003))) decoder.write(piece);
		const data = decodedData(decoder.finish());
		expect(data.equals(file)).toBe(true);
		expect(data.buffer.byteLength).toBe(file.length);
	});

	test('a size given beforehand that is short (a length that says less than comes) still gives the whole file', () => {
		const file = randomBytes(3 * MB);
		const decoder = new Base64Decoder(64 * MB, 1000);
		for (const piece of cut(file.toString('base64'), Array(100).fill(65_536))) decoder.write(piece);
		expect(decodedData(decoder.finish()).equals(file)).toBe(true);
	});

	test('a fault after megabytes of good text is refused with its place, never a short file', () => {
		const good = randomBytes(3 * MB).toString('base64');
		const decoder = new Base64Decoder(64 * MB);
		for (const piece of cut(`${good}QU!D`, Array(60).fill(65_536))) decoder.write(piece);
		expect(decoder.finish()).toEqual({ ok: false, problem: { kind: 'invalid', reason: 'it holds "!" (base64 is A–Z, a–z, 0–9, +, / and = at the end)' } });
	});

	test('the limit holds while the buffer grows: a text one quantum over it is refused as too large', () => {
		const limit = 2 * MB;
		const decoder = new Base64Decoder(limit);
		for (const piece of cut(randomBytes(limit + 3).toString('base64'), Array(50).fill(65_536))) decoder.write(piece);
		expect(decoder.finish()).toEqual({ ok: false, problem: { kind: 'tooLarge', bytes: limit + 3, size: 'atLeast' } });
	});

	test('any file, cut anywhere, wrapped or not, with its size known or not, comes out byte for byte', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({ minLength: 0, maxLength: 3000 }),
				fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 30 }),
				fc.constantFrom(undefined, 76),
				fc.constantFrom('unknown', 'exact', 'more', 'short'),
				(bytes, lengths, wrap, size) => {
					const file = Buffer.from(bytes);
					let text = file.toString('base64');
					if (wrap) text = text.replace(new RegExp(`(.{${wrap}})`, 'g'), '$1\r\n');
					const expected = { unknown: undefined, exact: file.length, more: file.length + 100, short: Math.floor(file.length / 2) }[size];
					const decoder = new Base64Decoder(MB, expected);
					for (const piece of cut(text, lengths)) decoder.write(piece);
					const result = decoder.finish();
					if (file.length === 0) return expect(result).toEqual({ ok: false, problem: { kind: 'empty' } });
					const data = decodedData(result);
					expect(data.equals(file)).toBe(true);
					expect(decodeBase64Text(text, MB)).toEqual({ ok: true, data: file });
				},
			),
			{ numRuns: 300 },
		);
	});

	test('one character outside the alphabet anywhere, cut anywhere, is refused and named, never a short file', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({ minLength: 3, maxLength: 3000 }),
				fc.nat(),
				fc.constantFrom('!', '-', '_', '*', '\u0000', 'é'),
				fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 30 }),
				(bytes, place, character, lengths) => {
					const good = Buffer.from(bytes).toString('base64').replace(/=+$/, '');
					const at = place % good.length;
					const text = `${good.slice(0, at)}${character}${good.slice(at + 1)}`;
					const decoder = new Base64Decoder(MB);
					for (const piece of cut(text, lengths)) decoder.write(piece);
					const result = decoder.finish();
					expect(result.ok).toBe(false);
					if (!result.ok) expect(result.problem).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^it holds /) });
				},
			),
			{ numRuns: 300 },
		);
	});
});
