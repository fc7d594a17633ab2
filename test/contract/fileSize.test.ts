/**
 * A source file above 400 lines usually holds several things; split it where its parts meet.
 * A file may stay above only on the allowlist, with the reason it does.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');
const MAX_LINES = 400;
const FOLDERS = ['nodes', 'credentials', 'sandbox', 'scripts', 'e2e', 'bench', 'test'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);
const SOURCE = /\.(ts|js|mjs)$/;

/** Files allowed above the limit, each with why (path from the repository's root). */
const ALLOWED: Record<string, string> = {};

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(path);
		return entry.isFile() && SOURCE.test(entry.name) ? [path] : [];
	});
}

/** Lines as an editor counts them: a final newline does not start another line. */
function lineCount(text: string): number {
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function oversized(): Array<{ file: string; lines: number }> {
	return FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))
		.map((path) => ({ file: relative(ROOT, path).split('\\').join('/'), lines: lineCount(readFileSync(path, 'utf8')) }))
		.filter(({ lines }) => lines > MAX_LINES);
}

describe('file size', () => {
	const found = oversized();

	test(`no source file has more than ${MAX_LINES} lines unless allowed with a reason`, () => {
		const over = found.filter(({ file }) => !(file in ALLOWED)).map(({ file, lines }) => `${file}: ${lines} lines`);
		expect(over).toEqual([]);
	});

	test('every allowed file has a reason and is still above the limit (else its entry goes)', () => {
		const unexplained = Object.entries(ALLOWED).filter(([, reason]) => reason.trim().length < 10).map(([file]) => file);
		expect(unexplained).toEqual([]);
		const stale = Object.keys(ALLOWED).filter((file) => !found.some((entry) => entry.file === file));
		expect(stale).toEqual([]);
	});

	test('the walk sees the files it must judge', () => {
		const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).map((path) => relative(ROOT, path).split('\\').join('/'));
		expect(files).toEqual(expect.arrayContaining(['nodes/MessagingInstance/actions/index.ts', 'sandbox/chat/page.js', 'test/contract/fileSize.test.ts', 'e2e/v2.ts']));
		expect(files.some((file) => file.includes('node_modules/') || file.startsWith('dist/'))).toBe(false);
	});

	test('lines are counted as an editor counts them', () => {
		expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\nb\n'), lineCount('\n\n')]).toEqual([0, 1, 1, 2, 2, 2]);
	});
});
