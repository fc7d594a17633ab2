/**
 * The queue-mode tier's load balancer: the address n8n's main process gives the trigger as
 * its webhook URL (N8N_WEBHOOK_URL), so the sandbox delivers here, and each delivery is
 * forwarded — path, query (the secret) and headers as they came — to webhook process A or B.
 * `route` picks: 'alternate' (A, B, A, …), one of them, or 'both' (the same delivery to A and
 * B at once, as when a server's retry lands on the other process while the first copy is
 * still running; the sandbox gets A's answer). Every forward is recorded. `loseAnswers` = N
 * makes the next N deliveries reach a webhook process as usual but resets the sender's
 * connection instead of passing the answer on: a delivery n8n took whose answer never
 * arrived, which a server retries.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = 'alternate' | 'both' | 0 | 1;

export interface Forward {
	at: number;
	path: string;
	/** backend indexes the delivery went to */
	to: number[];
	/** their answers (HTTP status, or the error) */
	statuses: Array<number | string>;
	ms: number;
	/** the answer was not passed on: the sender's connection was reset (see loseAnswers) */
	answerLost?: boolean;
	/** the delivered message's id (`data.key.id`), to tell a retry from another message */
	messageId?: string;
}

export interface Balancer {
	url: string;
	/** [A, B]: base URLs of the webhook processes */
	backends: string[];
	route: Route;
	/** how many of the next deliveries get their connection reset instead of their answer */
	loseAnswers: number;
	forwards: Forward[];
	/** deliveries each backend received */
	received(): number[];
	close(): Promise<void>;
}

function forward(agent: http.Agent, base: string, req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
	return new Promise((resolve, reject) => {
		const headers: http.OutgoingHttpHeaders = { ...req.headers };
		// n8n checks a waiting link's signature over the Host it was signed for (the public
		// address): a proxy in front of n8n passes the Host on for those, as n8n's docs ask.
		if (!(req.url ?? '').startsWith('/webhook-waiting/')) delete headers.host;
		delete headers.connection;
		headers['content-length'] = body.length;
		const out = http.request(`${base}${req.url ?? '/'}`, { method: req.method, headers, agent, timeout: 60000 }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
			res.on('error', reject);
		});
		out.on('timeout', () => out.destroy(new Error('timeout')));
		out.on('error', reject);
		out.end(body);
	});
}

function messageIdOf(body: Buffer): string | undefined {
	try {
		const id = (JSON.parse(body.toString('utf8')) as { data?: { key?: { id?: unknown } } }).data?.key?.id;
		return typeof id === 'string' ? id : undefined;
	} catch {
		return undefined;
	}
}

export async function startBalancer(backends: string[]): Promise<Balancer> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	let next = 0;
	const forwards: Forward[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const at = Date.now();
			const route = balancer.route;
			const to = route === 'both' ? [0, 1] : route === 'alternate' ? [next++ % 2] : [route];
			const record: Forward = { at, path: req.url ?? '/', to, statuses: [], ms: 0, messageId: messageIdOf(body) };
			forwards.push(record);
			const loseAnswer = balancer.loseAnswers > 0;
			if (loseAnswer) balancer.loseAnswers--;
			void Promise.allSettled(to.map((i) => forward(agent, balancer.backends[i], req, body))).then((results) => {
				record.ms = Date.now() - at;
				record.statuses = results.map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason)));
				if (loseAnswer) {
					record.answerLost = true;
					res.destroy();
					return;
				}
				const first = results[0];
				if (first.status === 'fulfilled') {
					const headers = { ...first.value.headers };
					delete headers['transfer-encoding'];
					delete headers.connection;
					headers['content-length'] = String(first.value.body.length);
					res.writeHead(first.value.status, headers);
					res.end(first.value.body);
				} else {
					res.writeHead(502, { 'content-type': 'text/plain' });
					res.end(`balancer: ${String(first.reason)}`);
				}
			});
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const balancer: Balancer = {
		url: `http://127.0.0.1:${port}`,
		backends,
		route: 'alternate',
		loseAnswers: 0,
		forwards,
		received: () => {
			const counts = backends.map(() => 0);
			for (const f of forwards) for (const i of f.to) counts[i]++;
			return counts;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
				agent.destroy();
			}),
	};
	return balancer;
}
