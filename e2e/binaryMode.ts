/**
 * Where n8n keeps binary data during the e2e tier: `filesystem` or `database`, never the
 * in-memory mode (n8n 3.0 removes it). The mode is set for every n8n process of the run
 * (server, CLI commands, `npm start`'s code path) through N8N_DEFAULT_BINARY_DATA_MODE, and a
 * check reads the executions the media checks left to prove which mode stored their files.
 *
 * E2E_BINARY_DATA_MODE=filesystem|database (default filesystem). `database` works on the
 * SQLite database the tier uses (n8n's `binary_data` table), no Postgres needed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { RestClient } from '../scripts/n8n-runtime';

export type BinaryDataMode = 'filesystem' | 'database';

/** The mode this run uses (any n8n version); refuses the in-memory mode. */
export function binaryDataModeFor(requested = process.env.E2E_BINARY_DATA_MODE): BinaryDataMode {
	const mode = requested || 'filesystem';
	if (mode !== 'filesystem' && mode !== 'database') {
		throw new Error(
			`E2E_BINARY_DATA_MODE=${mode}: the e2e tier runs binary data in "filesystem" or "database" mode only (n8n 3.0 removes the in-memory mode)`,
		);
	}
	return mode;
}

/** The prefix n8n gives a stored file's id in each mode (`<mode>:<location>`). */
const ID_PREFIX: Record<BinaryDataMode, RegExp> = {
	filesystem: /^filesystem(-v2)?:/,
	database: /^database:/,
};

/**
 * Every stored binary id in a `GET /rest/executions/:id` body: the run data is a flatted
 * string inside the JSON, so an id stands between escaped quotes (`\"filesystem-v2:…\"`).
 */
export function binaryIdsIn(executionBody: string): string[] {
	const ids = new Set<string>();
	for (const m of executionBody.matchAll(/"((?:filesystem-v2|filesystem|database|s3|azure):[^"\\]+)/g)) ids.add(m[1]);
	return [...ids];
}

/** Files under a folder, relative paths with forward slashes. */
function filesUnder(dir: string, prefix = ''): string[] {
	if (!fs.existsSync(dir)) return [];
	const out: string[] = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
		if (entry.isDirectory()) out.push(...filesUnder(path.join(dir, entry.name), rel));
		else if (entry.isFile()) out.push(rel);
	}
	return out;
}

/**
 * After the media checks: the executions n8n kept hold stored binary ids, every one in this
 * run's mode; in filesystem mode each id's file is on disk under the user folder, in database
 * mode none is (the bytes are in the `binary_data` table).
 */
export async function binaryModeChecks(
	tools: { userFolder: string; check(name: string, fn: () => unknown | Promise<unknown>): Promise<boolean> },
	rest: RestClient,
	mode: BinaryDataMode,
): Promise<void> {
	await tools.check(`(o) binary data of the media checks is stored in ${mode} mode (never in memory)`, async () => {
		const list = await rest.call('GET', '/executions?limit=100');
		const executions = (Array.isArray(list) ? list : list?.results ?? []) as Array<{ id: string }>;
		assert.ok(executions.length > 0, `no executions listed: ${JSON.stringify(list).slice(0, 300)}`);
		const ids: string[] = [];
		for (const e of executions) {
			const res = await rest.raw('GET', `/executions/${e.id}`);
			assert.equal(res.status, 200, `GET /rest/executions/${e.id} -> ${res.status}`);
			ids.push(...binaryIdsIn(res.body));
		}
		assert.ok(ids.length > 0, `no stored binary id in ${executions.length} executions: binary data was kept in memory`);
		const other = ids.filter((id) => !ID_PREFIX[mode].test(id));
		assert.deepEqual(other, [], `binary ids not in ${mode} mode`);
		const n8nFolder = path.join(tools.userFolder, '.n8n');
		const files = filesUnder(n8nFolder);
		const stored = files.filter((f) => /binary_data\//.test(f));
		if (mode === 'filesystem') {
			const missing = ids.map((id) => id.replace(ID_PREFIX.filesystem, '')).filter((loc) => !files.some((f) => f.endsWith(loc)));
			assert.deepEqual(missing, [], `ids without their file under ${n8nFolder}`);
		} else {
			assert.deepEqual(stored, [], `binary files on disk in database mode under ${n8nFolder}`);
		}
		console.log(`  ${ids.length} stored binary ids in ${executions.length} executions, all ${mode}; ${stored.length} binary files on disk`);
	});
}
