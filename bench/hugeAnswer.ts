/**
 * A check, not a timed test: a 2xx answer too large to read as text (560 MB, past V8's longest
 * string) must read "the server's answer could not be read", never "an error (HTTP 200)".
 * Needs ~1.5 GB of memory, so it is not part of jest: `npx tsx bench/hugeAnswer.ts`.
 * Before the change it printed `The server answered with an error (HTTP 200)`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode } from './nodeRun';

async function main(): Promise<void> {
	const piece = Buffer.alloc(8 * 1024 * 1024, 0x41);
	const server = createServer((req, res) => {
		req.resume();
		req.on('end', async () => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('{"instance":{"state":"open","note":"');
			for (let i = 0; i < 70; i++) if (!res.write(piece)) await new Promise((done) => res.once('drain', done));
			res.end('"}}');
		});
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const run = await runNode(
		{ resource: 'instance', operation: 'getState', instance: 'demo' },
		{ baseUrl: url, apiKey: 'bench-key-0123456789', dialect: 'v2', timeout: 300 },
	);
	server.close();
	const message = run.error?.message ?? '(no error)';
	console.log(`Get State, a 560 MB 2xx answer: ${message}`);
	if (!/^The server's answer could not be read/.test(message)) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
