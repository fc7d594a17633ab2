/**
 * `npm start` checks its two ports before it installs, packs or starts anything: a port another
 * process holds is named with what it was for, the variable that moves it and a free port to
 * try; a port given twice or not a port is refused the same way.
 */
import * as net from 'node:net';

import { portIsFree, portProblems } from '../../scripts/playground/ports';

function listen(): Promise<net.Server> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.listen(0, '127.0.0.1', () => resolve(server));
	});
}

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
const close = (server: net.Server) => new Promise((resolve) => server.close(resolve));

describe("npm start's ports", () => {
	test('a port another process listens on is named, with the variable that moves it and a free port to try', async () => {
		const other = await listen();
		const taken = portOf(other);
		const free = await listen();
		const sandboxPort = portOf(free);
		await close(free);
		try {
			const problems = await portProblems([
				{ what: 'n8n', variable: 'DEV_N8N_PORT', port: taken },
				{ what: 'the sandbox', variable: 'DEV_SANDBOX_PORT', port: sandboxPort },
			]);
			expect(problems).toHaveLength(1);
			expect(problems[0]).toMatch(new RegExp(`^port ${taken} \\(n8n\\) is taken by another process on 127\\.0\\.0\\.1: stop that process .* or give n8n another port: DEV_N8N_PORT=(\\d+) npm start`));
			const suggested = Number(/DEV_N8N_PORT=(\d+)/.exec(problems[0])?.[1]);
			expect(suggested).toBeGreaterThan(taken);
			expect(suggested).not.toBe(sandboxPort);
			expect(await portIsFree(suggested)).toBe(true);
		} finally {
			await close(other);
		}
	});

	test('free ports pass', async () => {
		const [a, b] = [await listen(), await listen()];
		const ports = [portOf(a), portOf(b)];
		await Promise.all([close(a), close(b)]);
		expect(
			await portProblems([
				{ what: 'n8n', variable: 'DEV_N8N_PORT', port: ports[0] },
				{ what: 'the sandbox', variable: 'DEV_SANDBOX_PORT', port: ports[1] },
			]),
		).toEqual([]);
	});

	test('the same port for both, or no port at all, is refused', async () => {
		const free = await listen();
		const port = portOf(free);
		await close(free);
		expect(
			await portProblems([
				{ what: 'n8n', variable: 'DEV_N8N_PORT', port },
				{ what: 'the sandbox', variable: 'DEV_SANDBOX_PORT', port },
			]),
		).toEqual([`DEV_SANDBOX_PORT is ${port}, the same port as n8n's: n8n and the sandbox need one each`]);
		expect(
			await portProblems([
				{ what: 'n8n', variable: 'DEV_N8N_PORT', port: Number('abc') },
				{ what: 'the sandbox', variable: 'DEV_SANDBOX_PORT', port: 70000 },
			]),
		).toEqual(['DEV_N8N_PORT must be a port number from 1 to 65535', 'DEV_SANDBOX_PORT must be a port number from 1 to 65535 (it is 70000)']);
	});
});
