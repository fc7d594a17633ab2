/**
 * Part 3: load cost. Each round is a fresh process under n8n's Node (24) that requires
 * n8n-workflow first (n8n has it loaded long before any community package), then the
 * built action node, the trigger and the credential, instantiating each class as n8n's
 * loader does; the times are measured inside the child with hrtime, so process start-up is
 * not counted. Plus the size of the packed tarball.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { median } from './util';

const REPO = path.resolve(__dirname, '..');

export const LOAD_FILES = {
	action: 'dist/nodes/MessagingInstance/MessagingInstance.node.js',
	trigger: 'dist/nodes/MessagingInstanceTrigger/MessagingInstanceTrigger.node.js',
	credential: 'dist/credentials/MessagingInstanceApi.credentials.js',
};

const CHILD = `
const now = () => Number(process.hrtime.bigint()) / 1e6;
const files = JSON.parse(process.argv[1]);
const t0 = now();
require('n8n-workflow');
const t1 = now();
const out = { 'n8n-workflow (already loaded in n8n)': t1 - t0 };
let total = 0;
for (const [label, [file, cls]] of Object.entries(files)) {
  const a = now();
  const mod = require(file);
  new mod[cls]();
  const ms = now() - a;
  out[label] = ms;
  total += ms;
}
out['package total'] = total;
console.log(JSON.stringify(out));
`;

export interface LoadCost {
	/** label -> median ms */
	medians: Record<string, number>;
	rounds: number;
}

export function measureLoadCost(nodeBin: string, rounds: number): LoadCost {
	const files = {
		'action node (MessagingInstance.node.js)': [path.join(REPO, LOAD_FILES.action), 'MessagingInstance'],
		'trigger node (MessagingInstanceTrigger.node.js)': [path.join(REPO, LOAD_FILES.trigger), 'MessagingInstanceTrigger'],
		'credential (MessagingInstanceApi.credentials.js)': [path.join(REPO, LOAD_FILES.credential), 'MessagingInstanceApi'],
	};
	for (const [file] of Object.values(files)) if (!fs.existsSync(file)) throw new Error(`${file} is missing: build first`);
	const samples: Record<string, number[]> = {};
	for (let r = 0; r < rounds + 1; r++) {
		const res = spawnSync(nodeBin, ['-e', CHILD, JSON.stringify(files)], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
		if (res.status !== 0) throw new Error(`load-cost child failed: ${res.stderr}`);
		if (r === 0) continue; // first run warms the file system cache
		const out = JSON.parse(res.stdout.trim().split('\n').pop()!) as Record<string, number>;
		for (const [k, v] of Object.entries(out)) (samples[k] ??= []).push(v);
	}
	const medians: Record<string, number> = {};
	for (const [k, v] of Object.entries(samples)) medians[k] = median(v);
	return { medians, rounds };
}

export interface TarballInfo {
	file: string;
	bytes: number;
	unpackedBytes: number;
	files: number;
}

export function tarballInfo(tarball: string): TarballInfo {
	const bytes = fs.statSync(tarball).size;
	const res = spawnSync('tar', ['-tvzf', tarball], { encoding: 'utf8' });
	let unpackedBytes = 0;
	let files = 0;
	for (const line of res.stdout.split('\n')) {
		const cols = line.trim().split(/\s+/);
		if (cols.length < 6 || !cols[0].startsWith('-')) continue;
		unpackedBytes += Number(cols[2]) || 0;
		files++;
	}
	return { file: path.basename(tarball), bytes, unpackedBytes, files };
}
