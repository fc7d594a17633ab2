/**
 * What the strict base64 decoder (nodes/shared/base64.ts) costs over Node's lenient
 * `Buffer.from(text, 'base64')`, for a file as a delivery carries it (one string, decoded in
 * slices) and as a file answer streams it (chunks), unwrapped and wrapped at 76 characters.
 * Runs on the compiled code in dist/ (what n8n loads); not part of `npm run bench`:
 *
 *   npm run build && npx tsx bench/base64Decode.ts
 *
 * Env: BENCH_BASE64_MB (file size, default 1), BENCH_ROUNDS (default 5; medians),
 * BENCH_BASE64_REPEATS (decodes per round, default 20).
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

import { envInt, fmt, fmtRatio, median, table } from './util';

type Decoded = { ok: true; data: Buffer } | { ok: false; problem: unknown };
interface Base64Module {
	decodeBase64Text(text: string, maxBytes: number): Decoded;
	Base64Decoder: new (maxBytes: number, expectedBytes?: number) => { write(text: string): void; finish(): Decoded };
}

const base64 = require(path.resolve(__dirname, '../dist/nodes/shared/base64.js')) as Base64Module;

const BYTES = envInt('BENCH_BASE64_MB', 1) * 1024 * 1024;
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const REPEATS = envInt('BENCH_BASE64_REPEATS', 20);
const CHUNK = 64 * 1024;

const file = randomBytes(BYTES);
const texts = { unwrapped: file.toString('base64'), 'wrapped at 76': file.toString('base64').replace(/.{76}/g, '$&\r\n') };

function expectFile(result: Decoded): void {
	if (!result.ok || !result.data.equals(file)) throw new Error('the decoder did not give back the file');
}

const ways: Record<string, (text: string) => void> = {
	"Buffer.from (lenient, Node's floor)": (text) => {
		if (Buffer.from(text, 'base64').length !== BYTES) throw new Error('Buffer.from did not give back the file');
	},
	'decodeBase64Text (a delivery)': (text) => expectFile(base64.decodeBase64Text(text, BYTES)),
	[`Base64Decoder, ${CHUNK / 1024} kB chunks (a file answer)`]: (text) => {
		const decoder = new base64.Base64Decoder(BYTES);
		for (let from = 0; from < text.length; from += CHUNK) decoder.write(text.slice(from, from + CHUNK));
		expectFile(decoder.finish());
	},
};

const rows: string[][] = [];
for (const [shape, text] of Object.entries(texts)) {
	const results: Record<string, number[]> = {};
	for (const way of Object.values(ways)) way(text); // warm-up
	for (let round = 0; round < ROUNDS; round++) {
		const names = Object.keys(ways);
		// Interleaved, each round starting with another way, so the machine's load falls on all alike.
		for (let k = 0; k < names.length; k++) {
			const name = names[(k + round) % names.length];
			const started = process.hrtime.bigint();
			for (let i = 0; i < REPEATS; i++) ways[name](text);
			(results[name] ??= []).push(Number(process.hrtime.bigint() - started) / 1e6 / REPEATS);
		}
	}
	const floor = median(results[Object.keys(ways)[0]]);
	for (const [name, ms] of Object.entries(results)) {
		rows.push([shape, name, fmt(median(ms), 2), fmtRatio(median(ms) / floor)]);
	}
}
console.log(`Decoding a ${fmt(BYTES / 1024 / 1024)} MB file from base64 (${ROUNDS} rounds × ${REPEATS}, medians, ${process.version}):\n`);
console.log(table(['text', 'way', 'ms per file', '× Buffer.from'], rows));
