/**
 * Download Media's memory: the peak RSS of one download of a large file (default 150 MB),
 * above the process's RSS right before it, as a multiple of the file's size. Not a timed test.
 *
 * The parent serves the answer as a v2.x server does (`{mediaType, fileName, mimetype,
 * base64, buffer: null}`, status 201, with Content-Length; BENCH_DOWNLOAD_CHUNKED=1 leaves the
 * length out), streaming the base64 so that the server's own memory stays out of the reading.
 * A child process runs the node once through n8n-core's engine (bench/nodeRun.ts), in n8n's
 * default binary mode (the file kept in memory as base64 on the item, the costliest mode; its
 * floor is the file plus its base64, 2.33×) or with BENCH_DOWNLOAD_MODE=filesystem on disk, and
 * reads its own peak from the kernel (VmHWM, reset right before the run), so no peak between
 * two samples is missed. The child checks the output against the file, byte for byte.
 *
 * `npx tsx bench/downloadMemory.ts` (BENCH_DOWNLOAD_MB=150, BENCH_DOWNLOAD_MAX_MB for the
 * node's Max File Size option, default the file's size rounded up). Linux only (/proc).
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { peakProblem } from './memoryLimit';
import { runNode, setBinaryDataMode } from './nodeRun';

const MB = 1024 * 1024;
const FILE_MB = Number(process.env.BENCH_DOWNLOAD_MB || 150);
const FILE_BYTES = Math.round(FILE_MB * MB);
/** Bytes made at a time: a multiple of 3, so that the base64 of the pieces joins into the base64 of the file. */
const PIECE = 3 * MB;

/** The file, piece by piece, the same on both sides: a cheap pattern that does not compress into anything. */
function pieceOf(index: number): Buffer {
	const piece = Buffer.allocUnsafe(Math.min(PIECE, FILE_BYTES - index * PIECE));
	let x = (index + 1) * 2654435761;
	for (let i = 0; i < piece.length; i++) {
		x = (x * 1103515245 + 12345) >>> 0;
		piece[i] = x >>> 24;
	}
	return piece;
}

/** The process's peak RSS since the last reset (/proc/self/clear_refs). */
function peakOfProcess(): number {
	return Number(/VmHWM:\s+(\d+)\s*kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
}

function fileHash(): string {
	const hash = createHash('sha256');
	for (let i = 0; i * PIECE < FILE_BYTES; i++) hash.update(pieceOf(i));
	return hash.digest('hex');
}

function serve(chunked: boolean): Promise<Server> {
	const head = Buffer.from('{"mediaType":"documentMessage","fileName":"big.bin","caption":"","size":{"fileLength":' + FILE_BYTES + '},"mimetype":"application/octet-stream","base64":"');
	const tail = Buffer.from('","buffer":null}');
	const length = head.length + 4 * Math.ceil(FILE_BYTES / 3) + tail.length;
	const server = createServer((req, res) => {
		let request = '';
		req.on('data', (chunk: Buffer) => (request += chunk.toString()));
		req.on('end', async () => {
			if (request.includes('WARM')) {
				// The warm-up: the same route and shape, a small file.
				res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' });
				res.end(JSON.stringify({ mediaType: 'documentMessage', fileName: 'small.bin', mimetype: 'application/octet-stream', base64: pieceOf(0).subarray(0, 3000).toString('base64'), buffer: null }));
				return;
			}
			res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', ...(chunked ? {} : { 'content-length': String(length) }) });
			res.write(head);
			for (let i = 0; i * PIECE < FILE_BYTES; i++) {
				if (!res.write(pieceOf(i).toString('base64'))) await new Promise((resolve) => res.once('drain', resolve));
			}
			res.end(tail);
		});
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface ChildResult {
	baselineRss: number;
	peakRss: number;
	/** The peak when the file was handed to n8n's binary-data service. */
	readingPeakRss: number;
	error?: string;
	outputBytes?: number;
	outputHash?: string;
}

async function child(): Promise<void> {
	const mode = process.env.BENCH_DOWNLOAD_MODE === 'filesystem' ? 'filesystem' : 'default';
	const binaryMode = await setBinaryDataMode(mode);
	const url = String(process.env.BENCH_DOWNLOAD_URL);
	const maxMb = Number(process.env.BENCH_DOWNLOAD_MAX_MB || Math.ceil(FILE_MB) + 1);
	const parameters = { resource: 'message', operation: 'downloadMedia', instance: 'demo', messageId: 'BIG1', options: { maxFileSizeMb: maxMb } };
	const credentials = { baseUrl: url, apiKey: 'bench-key', dialect: 'v2', timeout: 600 };
	// The peak when n8n's prepareBinaryData gets the file: the node's own reading, before n8n's copy.
	let readingPeakRss = NaN;
	const service = Container.get(BinaryDataService);
	const store = service.store.bind(service);
	service.store = async (...args: Parameters<typeof store>) => {
		readingPeakRss = peakOfProcess();
		return await store(...args);
	};
	// Warm up on the same path (modules, code caches), then measure from a clean heap.
	await runNode({ ...parameters, messageId: 'WARM' }, credentials).catch(() => undefined);
	(globalThis as { gc?: () => void }).gc?.();
	fs.writeFileSync('/proc/self/clear_refs', '5');
	const baselineRss = process.memoryUsage().rss;
	const run = await runNode(parameters, credentials);
	const peakRss = peakOfProcess();
	const binary = run.items[0]?.binary?.data;
	const bytes = !binary ? undefined : binary.id ? await Container.get(BinaryDataService).getAsBuffer(binary) : Buffer.from(binary.data, 'base64');
	binaryMode.close();
	const result: ChildResult = {
		baselineRss,
		peakRss,
		readingPeakRss,
		error: run.error?.message,
		outputBytes: bytes?.length,
		outputHash: bytes ? createHash('sha256').update(bytes).digest('hex') : undefined,
	};
	process.send?.(result);
}

async function main(): Promise<void> {
	if (!fs.existsSync('/proc/self/status')) throw new Error('This bench reads /proc: Linux only');
	const chunked = process.env.BENCH_DOWNLOAD_CHUNKED === '1';
	const server = await serve(chunked);
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const started = fork(__filename, [], {
		execArgv: ['--import', 'tsx', '--expose-gc'],
		env: { ...process.env, BENCH_DOWNLOAD_CHILD: '1', BENCH_DOWNLOAD_URL: url },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const result = await new Promise<ChildResult>((resolve, reject) => {
		started.once('message', (message) => resolve(message as ChildResult));
		started.once('exit', (code) => reject(new Error(`the child exited (${code}) without a result`)));
	});
	started.kill();
	server.close();
	const above = result.peakRss - result.baselineRss;
	const exact = result.outputHash === fileHash() && result.outputBytes === FILE_BYTES;
	console.log(
		[
			`Download Media, one ${FILE_MB} MB file (${chunked ? 'chunked, no length' : 'with Content-Length'}), n8n ${process.env.BENCH_DOWNLOAD_MODE === 'filesystem' ? 'filesystem' : 'default (in-memory)'} binary mode:`,
			`  baseline RSS ${(result.baselineRss / MB).toFixed(0)} MB, peak ${(result.peakRss / MB).toFixed(0)} MB, ` +
				`peak above baseline ${(above / MB).toFixed(0)} MB = ${(above / FILE_BYTES).toFixed(2)}× the file`,
			`  the node's reading alone (peak when n8n's prepareBinaryData got the file): ${((result.readingPeakRss - result.baselineRss) / FILE_BYTES).toFixed(2)}× the file`,
			`  output: ${result.error ? `error: ${result.error}` : `${result.outputBytes} bytes, ${exact ? 'byte-exact' : 'NOT the file'}`}`,
		].join('\n'),
	);
	if (result.error || !exact) process.exitCode = 1;
	const problem = peakProblem(`Download Media (${chunked ? 'chunked' : 'with Content-Length'}, ${process.env.BENCH_DOWNLOAD_MODE === 'filesystem' ? 'filesystem' : 'in-memory'} mode)`, above / FILE_BYTES);
	if (problem) {
		console.error(`✗ ${problem}`);
		process.exitCode = 1;
	}
	// Run by bench/memoryBench.ts (npm run bench): the figures for its table.
	process.send?.({
		ratio: above / FILE_BYTES,
		readingRatio: (result.readingPeakRss - result.baselineRss) / FILE_BYTES,
		fileBytes: FILE_BYTES,
		ok: !result.error && exact,
		error: result.error,
	});
}

if (process.env.BENCH_DOWNLOAD_CHILD === '1') {
	child().catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
