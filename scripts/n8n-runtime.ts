/**
 * A pinned, real n8n runtime for end-to-end tests, `npm start` and benchmarks: the names of
 * the parts in scripts/runtime/, in one place.
 *
 * - install (ensureN8n): Node 24 and n8n@version into `.n8n-runtime/<version>/` (git-ignored)
 *   or $N8N_RUNTIME_DIR, reused once complete.
 * - processes (startN8n): `n8n start` on 127.0.0.1 with a caller-chosen user folder.
 * - pack (packRepo, installTarballIntoUserFolder): the package installed as a user installs it.
 * - cli: import:credentials, import:workflow, execute.
 * - rest: owner setup, login and a small REST client.
 * - keeper: ends the started processes when this process dies, even by SIGKILL.
 *
 * Only Node built-ins are used, so tsx can run it on the Node 20 of a fresh checkout.
 * Facts found while writing this are in e2e/README.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { log, resolveN8nVersion } from './runtime/common';
import { ensureN8n, writeCommittedLock } from './runtime/install';
import { executeWorkflow, importWorkflow, nodeOutputs } from './runtime/cli';
import { startN8n } from './runtime/processes';

export * from './runtime/common';
export * from './runtime/install';
export * from './runtime/processes';
export * from './runtime/pack';
export * from './runtime/cli';
export * from './runtime/rest';
export * from './runtime/keeper';

// ---------------------------------------------------------------------------------------
// CLI: `tsx scripts/n8n-runtime.ts ensure [version]` installs; `lock [version]` writes the installed version's
// committed lockfile (scripts/runtime/locks/); `smoke [version]` runs a core-node workflow.
// A version is exact or one of the pinned names: default, latest, compat.

async function smoke(version: string): Promise<void> {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-smoke-'));
	const t0 = Date.now();
	const wfId = await importWorkflow(
		folder,
		{
			name: 'smoke',
			nodes: [
				{ id: 'a', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'b',
					name: 'Code',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [200, 0],
					parameters: { jsCode: "return [{ json: { hello: 'world', n: 1 + 1 } }];" },
				},
			],
			connections: { Start: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
		},
		version,
	);
	log(`import:workflow ${Date.now() - t0} ms`);
	const res = await executeWorkflow(folder, wfId, version);
	log(`execute: exit ${res.code} in ${res.ms} ms`);
	console.log(JSON.stringify(nodeOutputs(res.data), null, 2));
	if (!res.ok) console.log(res.stdout, res.stderr);
	const h = await startN8n({ version, userFolder: folder });
	log(`n8n start ready in ${h.startupMs} ms at ${h.url}`);
	await h.stop();
	log('stopped');
	fs.rmSync(folder, { recursive: true, force: true });
}

if (require.main === module) {
	const [cmd = 'ensure', versionName] = process.argv.slice(2);
	const version = resolveN8nVersion(versionName);
	const main = async () => {
		if (cmd === 'ensure') {
			const rt = await ensureN8n(version);
			console.log(JSON.stringify(rt, null, 2));
		} else if (cmd === 'lock') {
			console.log(`wrote ${writeCommittedLock(version)}`);
		} else if (cmd === 'smoke') {
			await smoke(version);
		} else {
			throw new Error(`unknown command ${cmd}; use ensure|lock|smoke [version|default|latest|compat]`);
		}
	};
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
