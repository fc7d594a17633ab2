/**
 * A jest reporter that makes skipped tests impossible to miss: at the end of the run it lists
 * each one with its file (a browser suite's title says why it was skipped), and with CI=true
 * a skipped test fails the run, since CI must test everything.
 */
const path = require('node:path');

class SkippedTestsReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
		this.error = undefined;
	}

	onRunComplete(_contexts, results) {
		const skipped = [];
		for (const file of results.testResults) {
			for (const test of file.testResults) {
				if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
					skipped.push(`${path.relative(this.rootDir, file.testFilePath)}: ${[...test.ancestorTitles, test.title].join(' › ')}`);
				}
			}
		}
		if (skipped.length === 0) return;
		const bar = '!'.repeat(78);
		const lines = [
			bar,
			`!!! ${skipped.length} test${skipped.length === 1 ? ' was' : 's were'} SKIPPED, so what they check was NOT tested:`,
			...skipped.map((s) => `!!!   ${s}`),
			'!!! Browser suites skip when no Chromium is found: install one (bash .ci/chromium.sh, or',
			'!!! npx playwright-core install chromium) or point CHROMIUM_PATH at one.',
			bar,
		];
		if (process.env.CI === 'true') {
			lines.push('CI=true: skipped tests fail the run.');
			this.error = new Error(`CI=true and ${skipped.length} test(s) were skipped`);
		}
		process.stderr.write(`\n${lines.join('\n')}\n`);
	}

	getLastError() {
		return this.error;
	}
}

module.exports = SkippedTestsReporter;
