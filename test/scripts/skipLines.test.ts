/**
 * `npm test` repeats every skip at its end (scripts/test.ts): the lines it picks are the ones the
 * tiers really print when they skip a check, made here by the tiers' own code (e2e/report.ts's
 * skip, the jest reporter's list), and nothing else of a run.
 */
import { skipLines } from '../../scripts/test';
import { Report } from '../../e2e/report';

/* eslint-disable @typescript-eslint/no-require-imports */
const SkippedTestsReporter = require('../reporters/skipped.js');

function printed(write: (stream: { log: (line: string) => void }) => void): string {
	const lines: string[] = [];
	write({ log: (line) => lines.push(line) });
	return lines.join('\n');
}

describe('the skips npm test repeats at its end', () => {
	it('an e2e check skipped through the report: its SKIP line', () => {
		const spy = jest.spyOn(console, 'log').mockImplementation(() => undefined);
		try {
			new Report('e2e').skip('(x) queue-mode dedupe recipe', 'no redis-server (install with: bash .ci/services.sh)');
			const output = spy.mock.calls.map((call) => String(call[0])).join('\n');
			expect(skipLines(`PASS (x) one\n${output}\nPASS (x) two\ne2e: 2 passed, 0 failed, 1 skipped`)).toEqual(['SKIP (x) queue-mode dedupe recipe']);
		} finally {
			spy.mockRestore();
		}
	});

	it('jest\'s skipped tests: the reporter\'s header and one line per test', () => {
		const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
		const ci = process.env.CI;
		delete process.env.CI;
		try {
			new SkippedTestsReporter({ rootDir: '/repo' }).onRunComplete([], {
				testResults: [{ testFilePath: '/repo/test/sandbox/chatPage.test.ts', testResults: [{ status: 'pending', ancestorTitles: ['chat page (no Chromium)'], title: 'draws a list' }] }],
			});
			const output = spy.mock.calls.map((call) => String(call[0])).join('');
			expect(skipLines(output)).toEqual(['!!! 1 test was SKIPPED, so what they check was NOT tested:', '!!!   test/sandbox/chatPage.test.ts: chat page (no Chromium) › draws a list']);
		} finally {
			process.env.CI = ci;
			spy.mockRestore();
		}
	});

	it('the banners of a check skipped without the report, and nothing of a run without skips', () => {
		const banner = printed(({ log }) => log(`\n${'!'.repeat(78)}\n!!! SKIPPED (m) the browser answer: /usr/bin/chromium is missing\n${'!'.repeat(78)}`));
		expect(skipLines(banner)).toEqual(['!!! SKIPPED (m) the browser answer: /usr/bin/chromium is missing']);
		expect(skipLines('PASS (a) every operation\nTests: 2572 passed, 2572 total\ne2e: 172 passed, 0 failed\n!!! a warning that is not a skip')).toEqual([]);
	});
});
