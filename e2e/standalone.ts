/**
 * Runs one group of e2e checks alone, for `tsx e2e/<group>.ts [version]`: the package packed
 * (or E2E_TARBALL) and installed into a fresh user folder, one n8n serving with its owner
 * logged in, a report of that group only. E2E_KEEP=1 keeps the folder, E2E_VERBOSE=1 echoes
 * n8n's output.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	DEFAULT_N8N_VERSION,
	ensureN8n,
	installTarballIntoUserFolder,
	packRepo,
	setupOwnerAndLogin,
	startN8n,
	type N8nHandle,
	type RestClient,
} from '../scripts/n8n-runtime';
import { Report, waitFor } from './report';
import type { E2eTools } from './v2';

export type ServedChecks = (tools: E2eTools, rest: RestClient, n8nUrl: string) => Promise<void>;

export async function runAlone(label: string, checks: ServedChecks, version = process.argv[2] || process.env.E2E_N8N_VERSION || DEFAULT_N8N_VERSION): Promise<never> {
	const report = new Report(label);
	const undo: Array<() => unknown> = [];
	try {
		await ensureN8n(version);
		const tarball = process.env.E2E_TARBALL ? path.resolve(process.env.E2E_TARBALL) : await packRepo();
		if (!process.env.E2E_TARBALL) undo.push(() => fs.rmSync(path.dirname(tarball), { recursive: true, force: true }));
		const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${label}-`));
		undo.push(() => (process.env.E2E_KEEP === '1' ? console.log(`e2e: user folder kept at ${userFolder}`) : fs.rmSync(userFolder, { recursive: true, force: true })));
		await installTarballIntoUserFolder(tarball, userFolder);
		const n8n: N8nHandle = await startN8n({ version, userFolder, echo: process.env.E2E_VERBOSE === '1' });
		undo.push(() => n8n.stop());
		const rest = await setupOwnerAndLogin(n8n.url);
		await checks({ version, userFolder, waitFor, check: (name, fn) => report.check(name, fn) }, rest, n8n.url);
	} catch (e) {
		report.record(`${label} run aborted`, false, e instanceof Error ? (e.stack ?? e.message) : String(e));
	} finally {
		for (const step of undo.reverse()) await Promise.resolve().then(step).catch(() => undefined);
	}
	return report.summary();
}
