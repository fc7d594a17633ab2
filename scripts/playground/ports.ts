/**
 * `npm start`'s two ports, checked before anything is installed, packed or started: a port
 * another process holds is named with what it was meant for and the variable that moves it,
 * with a free port to try, instead of n8n failing a minute (or, on a first run, ten) later.
 */
import * as net from 'node:net';

export interface PlaygroundPort {
	/** What listens there: "n8n" or "the sandbox". */
	what: string;
	/** The environment variable that chooses it. */
	variable: string;
	port: number;
}

/** Whether a listener can bind 127.0.0.1:<port>, where n8n and the sandbox listen. */
export function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer();
		probe.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' || e.code === 'EACCES' ? resolve(false) : reject(e)));
		probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
	});
}

/** The first free port after `from` that none of `avoid` names, or undefined within 100 tries. */
async function nextFreePort(from: number, avoid: readonly number[]): Promise<number | undefined> {
	for (let port = from + 1; port <= Math.min(from + 100, 65535); port++) {
		if (!avoid.includes(port) && (await portIsFree(port))) return port;
	}
	return undefined;
}

/** Why the ports cannot be used, one line each (empty when both are usable). */
export async function portProblems(ports: readonly PlaygroundPort[]): Promise<string[]> {
	const problems: string[] = [];
	for (const [index, { what, variable, port }] of ports.entries()) {
		if (!Number.isInteger(port) || port < 1 || port > 65535) {
			problems.push(`${variable} must be a port number from 1 to 65535${Number.isNaN(port) ? '' : ` (it is ${port})`}`);
		} else if (ports.findIndex((other) => other.port === port) !== index) {
			problems.push(`${variable} is ${port}, the same port as ${ports.find((other) => other.port === port)?.what}'s: n8n and the sandbox need one each`);
		} else if (!(await portIsFree(port))) {
			const suggestion = await nextFreePort(port, ports.map((other) => other.port));
			const example = suggestion ? `${variable}=${suggestion} npm start` : `${variable}=<port> npm start`;
			problems.push(
				`port ${port} (${what}) is taken by another process on 127.0.0.1: stop that process (\`lsof -i :${port}\` or \`ss -ltnp\` shows which), ` +
					`or give ${what} another port: ${example} (a changed port is followed: the credential and the webhook move with it)`,
			);
		}
	}
	return problems;
}
