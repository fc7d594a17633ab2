/**
 * The benches measure the nodes, so they must not run through the test harness: what it adds
 * (its secret check over the whole stored run, its log capture) would be measured too. A bench
 * that needs n8n's engine has its own small module in bench/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = join(__dirname, '../..');
const TESTS = join(ROOT, 'test');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.isFile() && /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
	});
}

/** The relative modules a source file names: static and dynamic imports, `export … from` and `require`. */
function relativeSpecifiers(text: string): string[] {
	const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"`])(\.{1,2}\/[^'"`]*)\1/gm;
	return [...text.matchAll(pattern)].map((match) => match[2]);
}

/** The modules under test/ that this file imports, as paths from the repository's root. */
function testImports(file: string, text: string): string[] {
	return relativeSpecifiers(text)
		.map((specifier) => resolve(dirname(file), specifier))
		.filter((target) => target === TESTS || target.startsWith(TESTS + sep))
		.map((target) => relative(ROOT, target).split(sep).join('/'));
}

describe('benches', () => {
	const files = sourceFiles(join(ROOT, 'bench'));

	test('no file under bench/ imports from test/', () => {
		const found = files.flatMap((file) =>
			testImports(file, readFileSync(file, 'utf8')).map((target) => `${relative(ROOT, file)} → ${target}`),
		);
		expect(found).toEqual([]);
	});

	test('the walk sees the benches', () => {
		const names = files.map((file) => relative(ROOT, file).split(sep).join('/'));
		expect(names).toEqual(expect.arrayContaining(['bench/run.ts', 'bench/downloadMemory.ts', 'bench/nodeRun.ts']));
	});

	test('every form of import into test/ is caught, and imports elsewhere are not', () => {
		const bench = join(ROOT, 'bench', 'example.ts');
		const text = [
			"import { runNode } from '../test/harness/engine';",
			"import type { NodeRun } from \"../test/harness/engine\";",
			"export { clearLog } from '../test/harness/logs';",
			"import '../test/harness/teardown';",
			"const { setBinaryDataMode } = require('../test/harness/binaryData') as typeof import('../test/harness/binaryData');",
			"const later = await import('./../test/harness/secrets');",
			"import { peakProblem } from './memoryLimit';",
			"import { MessagingInstance } from '../nodes/MessagingInstance/MessagingInstance.node';",
			"import { testing } from '../testing/x';",
		].join('\n');
		expect(testImports(bench, text)).toEqual([
			'test/harness/engine',
			'test/harness/engine',
			'test/harness/logs',
			'test/harness/teardown',
			'test/harness/binaryData',
			'test/harness/binaryData',
			'test/harness/secrets',
		]);
	});
});
