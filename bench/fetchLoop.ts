/**
 * The physical limit: a bare sequential loop of Node's own `fetch`, one POST per message with
 * the same body and `apikey` header the nodes send, reading each JSON answer as they do.
 *
 * Runs as a long-lived child process under the same Node as n8n (Node 24 of the pinned
 * runtime), commanded over IPC, so that its CPU time (process.cpuUsage) and memory are its
 * own: the sandbox answering it lives in the parent, as it does for the n8n contenders.
 */

interface LoopRequest {
	n: number;
	url: string;
	apiKey: string;
}

export interface LoopResult {
	wallMs: number;
	cpuMs: number;
	rssBefore: number;
	rssPeak: number;
	ok: number;
}

async function runLoop({ n, url, apiKey }: LoopRequest): Promise<LoopResult> {
	const rssBefore = process.memoryUsage.rss();
	let rssPeak = rssBefore;
	const sampler = setInterval(() => {
		const r = process.memoryUsage.rss();
		if (r > rssPeak) rssPeak = r;
	}, 20);
	const cpu0 = process.cpuUsage();
	const t0 = process.hrtime.bigint();
	let ok = 0;
	for (let i = 0; i < n; i++) {
		// the same item the workflows' Code node emits
		const body = JSON.stringify({ number: '5511' + String(900000000 + i), text: 'Benchmark message ' + i });
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json', apikey: apiKey },
			body,
		});
		await res.json();
		if (res.ok) ok++;
	}
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const cpu = process.cpuUsage(cpu0);
	clearInterval(sampler);
	rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
	return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, rssBefore, rssPeak, ok };
}

process.on('message', (message: LoopRequest | 'exit') => {
	if (message === 'exit') process.exit(0);
	runLoop(message).then(
		(result) => process.send?.({ result }),
		(error: Error) => process.send?.({ error: error.stack ?? String(error) }),
	);
});
process.send?.({ ready: true });
