/**
 * Part 4's floor: what n8n's own HTTP helper costs to send the 16 MB video's JSON body, with
 * no node and no workflow around it — the part of a media send that the package cannot avoid
 * (nodes must send through `this.helpers.httpRequest`). Beside it, Node's bare `fetch` of the
 * same body from this process.
 *
 * Runs as a child under n8n's Node 24, commanded over IPC like bench/fetchLoop.ts; the sandbox
 * answering it lives in the parent, as it does for n8n. The helper is the one n8n's
 * `httpRequest` calls (n8n 2.x: `OutboundHttp.requests().request` of @n8n/backend-network),
 * loaded from the pinned runtime ($BENCH_N8N_MODULES) with n8n's global axios defaults, and
 * given the options the package's transport gives it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { createRequire } from 'node:module';
import * as path from 'node:path';

import { videoBody } from './util';

interface FloorRequest {
	kind: 'helper' | 'fetch';
	url: string;
	apiKey: string;
	/** the video's size: the body is bench/mediaBench.ts's, made here once */
	bytes: number;
	/** sends in a row */
	times: number;
}


let client: { request(options: Record<string, unknown>): Promise<any> } | undefined;
let bodyFor = -1;
let bodyText = '';
let bodyBytes = Buffer.alloc(0);

function helper(): NonNullable<typeof client> {
	if (!client) {
		const require = createRequire(path.join(process.env.BENCH_N8N_MODULES ?? '', 'n8n-core', 'package.json'));
		require('reflect-metadata');
		const { Container } = require('@n8n/di');
		const network = require('@n8n/backend-network');
		network.configureGlobalAxiosDefaults();
		client = Container.get(network.OutboundHttp).requests();
	}
	return client!;
}

async function send({ kind, url, apiKey, bytes, times }: FloorRequest): Promise<number> {
	if (bytes !== bodyFor) {
		bodyFor = bytes;
		bodyText = videoBody(bytes);
		bodyBytes = Buffer.from(bodyText, 'utf8');
	}
	const t0 = process.hrtime.bigint();
	for (let i = 0; i < times; i++) await sendOne(kind, url, apiKey);
	return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function sendOne(kind: FloorRequest['kind'], url: string, apiKey: string): Promise<void> {
	if (kind === 'helper') {
		const res = await helper().request({
			method: 'POST',
			url,
			headers: { apikey: apiKey, 'content-type': 'application/json' },
			body: bodyBytes,
			json: true,
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: 60_000,
		});
		if (res.statusCode >= 300) throw new Error(`helper: ${res.statusCode}`);
	} else {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', apikey: apiKey }, body: bodyText });
		await res.text();
		if (res.status >= 300) throw new Error(`fetch: ${res.status}`);
	}
}

if (process.send) {
	process.on('message', (m: FloorRequest) => {
		send(m).then(
			(ms) => process.send!({ ms }),
			(e: Error) => process.send!({ error: e.message }),
		);
	});
	process.send({ ready: true });
}
