/**
 * The chat page's browser script (sandbox/chat/page.js) is plain JavaScript served as it is;
 * these checks are its compiler and linter: TypeScript with the DOM's types over its JSDoc
 * (sandbox/chat/tsconfig.json) and ESLint's recommended rules with the browser's globals.
 */
import * as path from 'node:path';

import js from '@eslint/js';
import { ESLint } from 'eslint';
import globals from 'globals';
import * as ts from 'typescript';

const CHAT_DIR = path.join(__dirname, '../../sandbox/chat');

describe('the chat page source', () => {
	test('page.js type-checks against the DOM (chat/tsconfig.json)', () => {
		const configFile = path.join(CHAT_DIR, 'tsconfig.json');
		const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
		expect(error).toBeUndefined();
		const parsed = ts.parseJsonConfigFileContent(config, ts.sys, CHAT_DIR);
		expect(parsed.fileNames.map((f) => path.basename(f))).toEqual(['page.js']);
		const program = ts.createProgram(parsed.fileNames, parsed.options);
		const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
			const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
			return `${where ? `page.js:${where.line + 1}:${where.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
		});
		expect(diagnostics).toEqual([]);
	});

	test('page.js is lint clean (ESLint recommended, browser globals, no inline disables)', async () => {
		const eslint = new ESLint({
			cwd: CHAT_DIR,
			overrideConfigFile: true,
			allowInlineConfig: false,
			overrideConfig: [
				js.configs.recommended,
				{ languageOptions: { ecmaVersion: 2020, sourceType: 'script', globals: { ...globals.browser } } },
			],
		});
		const [result] = await eslint.lintFiles([path.join(CHAT_DIR, 'page.js')]);
		expect(result.messages.map((m) => `page.js:${m.line}:${m.column} ${m.ruleId ?? ''} ${m.message}`)).toEqual([]);
	});
});
