/**
 * Checks (a) of e2e/run.ts: every action operation through `n8n execute` (the CLI, no server
 * running) against the documented sandbox, each request and each node's output; then Send
 * Text mapped with field references and with expressions, which must send the same message.
 */
import * as assert from 'node:assert/strict';

import { executeWorkflow, nodeOutputs } from '../scripts/n8n-runtime';
import { expectedActionRequests, MAPPED_BODY, MAPPED_ITEM } from './workflows';
import type { Report } from './report';
import { expectBody, requestsTo, type Sandbox } from './expect';

export interface ActionRun {
	version: string;
	userFolder: string;
	sandbox: Sandbox;
	/** the imported 12-operation workflow */
	actionsId: string;
	/** the imported field-reference workflow */
	mappedId: string;
}

export async function actionChecks(report: Report, { version, userFolder, sandbox, actionsId, mappedId }: ActionRun): Promise<void> {
	const exec = await executeWorkflow(userFolder, actionsId, version);
	const execOk = await report.check('(a) n8n execute runs the 12-operation workflow (exit 0)', () => {
		if (!exec.ok) {
			const err = exec.data?.data?.resultData?.error ?? exec.data?.resultData?.error;
			throw new Error(
				`exit ${exec.code}: ${err ? `${err.node?.name ?? ''} ${err.message} ${err.description ?? ''}` : exec.stdout.slice(-1500)}`,
			);
		}
	});
	const outputs = nodeOutputs(exec.data);
	for (const exp of expectedActionRequests(sandbox.url)) {
		await report.check(`(a) ${exp.node}: POST ${exp.path} with the expected body`, () => {
			const reqs = requestsTo(sandbox, exp.path);
			assert.equal(reqs.length, 1, `expected 1 request to ${exp.path}, got ${reqs.length}`);
			expectBody(reqs[0].body, exp.body, exp.node);
			assert.equal(reqs[0].headers.apikey, sandbox.apiKey, 'apikey header');
			if (execOk) {
				const items = outputs[exp.node] ?? [];
				assert.equal(items.length, exp.items ?? 1, `${exp.node} output ${items.length} items`);
				exp.checkOutput?.(items.map((i) => i.json));
			}
		});
	}

	// --- (a) mapped fields: read from the item or by n8n's engine, the same message ----
	sandbox.clearRequests();
	const mapped = await executeWorkflow(userFolder, mappedId, version);
	await report.check("(a) Send Text mapped with field references sends what n8n's expression engine gives", () => {
		assert.ok(mapped.ok, `exit ${mapped.code}: ${mapped.stdout.slice(-1500)}`);
		const reqs = requestsTo(sandbox, '/message/sendText/demo');
		assert.equal(reqs.length, 2, `expected 2 requests, got ${reqs.length}`);
		for (const r of reqs) expectBody(r.body, MAPPED_BODY, 'mapped Send Text');
		const out = nodeOutputs(mapped.data);
		for (const node of ['Mapped Fields', 'Mapped Expressions']) {
			assert.equal(out[node]?.length, 1, `${node} output ${out[node]?.length} items`);
			assert.equal(out[node][0].json?.message?.extendedTextMessage?.text, MAPPED_ITEM.text, `${node} output`);
		}
	});
}
