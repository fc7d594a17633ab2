// Runs n8n's community-package scanner (@n8n/scan-community-package) on this repository before
// anything is published. The scanner's own CLI takes a package name, downloads it from the npm
// registry, checks its provenance and then lints two things with its own ESLint config: the
// source the provenance points at (package.json, nodes/ and credentials/) and the compiled .js
// and package.json of the published tarball. Nothing is published from here, so this script
// runs the same two analyses on the working tree and on the tarball `npm pack` makes; the
// provenance leg can only pass for a package published from CI (see .github/workflows/release.yml).
//
//   node scripts/scan-package.mjs            both analyses
//   node scripts/scan-package.mjs --source   only the source
//   node scripts/scan-package.mjs --tarball  only the packed tarball
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import glob from 'fast-glob';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The scanner lints the tarball's compiled code and its package.json only: .d.ts files are
// covered by the source leg and would trip rules that expect a .ts file name.
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result.stdout;
}

/** Packs the package as `npm publish` would (prepack builds dist/) and unpacks it into a temporary folder. */
function packAndUnpack(workDir) {
	// prepack's build writes to stdout too, so the tarball is found in the folder, not in npm's output.
	run('npm', ['pack', '--pack-destination', workDir], repoRoot);
	const filename = fs.readdirSync(workDir).find((name) => name.endsWith('.tgz'));
	if (!filename) throw new Error(`npm pack wrote no tarball into ${workDir}`);
	const packageDir = path.join(workDir, 'package');
	fs.mkdirSync(packageDir);
	run('tar', ['-xzf', path.join(workDir, filename), '-C', packageDir, '--strip-components=1'], workDir);
	const fileCount = run('tar', ['-tzf', filename], workDir).trim().split('\n').length;
	return { packageDir, filename, fileCount };
}

// Globs as the scanner does, so a leg with nothing to lint fails here instead of passing with the
// scanner's "No files found to analyze".
function countFiles(dir, patterns) {
	return glob.sync(patterns, { cwd: dir, ignore: ['node_modules/**', '**/package-lock.json'] }).length;
}

async function leg(name, dir, patterns) {
	const files = countFiles(dir, patterns);
	const result = await analyzePackage(dir, patterns);
	if (files === 0) {
		console.log(`FAIL scan ${name}: no files matched ${patterns.join(', ')} in ${dir}`);
		return false;
	}
	if (result.passed) {
		console.log(`PASS scan ${name}: ${files} files, no violations`);
		return true;
	}
	console.log(`FAIL scan ${name}: ${result.message}`);
	if (result.details) console.log(result.details);
	return false;
}

/**
 * n8n reads a node's categories, aliases (what the node panel's search finds) and Docs link from
 * `<Name>.node.json` beside `<Name>.node.js` (its directory loader requires `${nodeFile}on`); a
 * node shipped without it is found by its display name only. Every node package.json lists and
 * every codex under nodes/ must be in the tarball, next to its node, naming that node.
 */
function codexLeg(packageDir, filename) {
	const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const problems = [];
	const wanted = new Set(glob.sync('nodes/**/*.node.json', { cwd: repoRoot }).map((file) => `dist/${file}`));
	for (const nodeFile of manifest.n8n?.nodes ?? []) wanted.add(`${nodeFile}on`);
	for (const codexFile of [...wanted].sort()) {
		const packed = path.join(packageDir, codexFile);
		if (!fs.existsSync(packed)) {
			problems.push(`${codexFile} is not in the tarball`);
			continue;
		}
		if (!fs.existsSync(packed.replace(/\.node\.json$/, '.node.js'))) problems.push(`${codexFile} has no node beside it`);
		const codex = JSON.parse(fs.readFileSync(packed, 'utf8'));
		if (!String(codex.node).startsWith(`${manifest.name}.`)) problems.push(`${codexFile} names node "${codex.node}", not one of ${manifest.name}`);
		if (!Array.isArray(codex.alias) || codex.alias.length === 0) problems.push(`${codexFile} has no aliases`);
		if (!codex.resources?.primaryDocumentation?.[0]?.url) problems.push(`${codexFile} has no Docs link`);
	}
	if (problems.length > 0) {
		console.log(`FAIL scan codex in ${filename}: ${problems.join('; ')}`);
		return false;
	}
	console.log(`PASS scan codex in ${filename}: ${[...wanted].sort().join(', ')}`);
	return true;
}

const only = process.argv[2];
let passed = true;
if (only !== '--tarball') {
	passed = (await leg('source (package.json, nodes/, credentials/)', repoRoot, SOURCE_FILE_PATTERNS)) && passed;
}
if (only !== '--source') {
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-package-'));
	try {
		const { packageDir, filename, fileCount } = packAndUnpack(workDir);
		passed = (await leg(`tarball ${filename} (${fileCount} files packed)`, packageDir, TARBALL_FILE_PATTERNS)) && passed;
		passed = codexLeg(packageDir, filename) && passed;
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
}
process.exit(passed ? 0 : 1);
