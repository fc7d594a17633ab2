/**
 * The chat page's browser scripts (sandbox/chat/*.js, listed in CHAT_SCRIPTS) are plain
 * JavaScript served as they are; these checks are their compiler and linter: TypeScript with the
 * DOM's types over their JSDoc (sandbox/chat/tsconfig.json, the files sharing one scope as they
 * do when served) and ESLint's recommended rules with the browser's globals over the script as
 * served (all of them in one function), so a name one file uses and another defines is judged
 * as the browser sees it, and a name no file uses is reported.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import js from '@eslint/js';
import { ESLint } from 'eslint';
import globals from 'globals';
import * as ts from 'typescript';

import { CHAT_SCRIPTS, chatScript } from '../../sandbox/chatPage';

const CHAT_DIR = path.join(__dirname, '../../sandbox/chat');

const linter = () =>
	new ESLint({
		cwd: CHAT_DIR,
		overrideConfigFile: true,
		allowInlineConfig: false,
		overrideConfig: [
			js.configs.recommended,
			{ languageOptions: { ecmaVersion: 2020, sourceType: 'script', globals: { ...globals.browser } } },
		],
	});

describe('the chat page source', () => {
	test('the scripts type-check against the DOM (chat/tsconfig.json lists them all)', () => {
		const configFile = path.join(CHAT_DIR, 'tsconfig.json');
		const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
		expect(error).toBeUndefined();
		const parsed = ts.parseJsonConfigFileContent(config, ts.sys, CHAT_DIR);
		expect(parsed.fileNames.map((f) => path.basename(f))).toEqual([...CHAT_SCRIPTS]);
		const program = ts.createProgram(parsed.fileNames, parsed.options);
		const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
			const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
			return `${where && d.file ? `${path.basename(d.file.fileName)}:${where.line + 1}:${where.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
		});
		expect(diagnostics).toEqual([]);
	});

	test('the script as served is lint clean (ESLint recommended, browser globals, no inline disables)', async () => {
		const eslint = linter();
		const { text, where } = chatScript();
		const [result] = await eslint.lintText(text);
		expect(result.messages.map((m) => `${where(m.line)}:${m.column} ${m.ruleId ?? ''} ${m.message}`)).toEqual([]);
	});

	test('the linter sees what the files leave undefined or unused, and where', async () => {
		const eslint = linter();
		const { text, where } = chatScript();
		const [result] = await eslint.lintText(text.replace(/\}\)\(\);\n$/, 'function neverCalled() { return notDefinedAnywhere; }\n})();\n'));
		const lastLine = text.split('\n').length - 1;
		expect(result.messages.map((m) => `${where(m.line)} ${m.ruleId ?? ''}`)).toEqual([
			`(wrapper):${lastLine} no-unused-vars`,
			`(wrapper):${lastLine} no-undef`,
		]);
		expect(where(2)).toBe(`${CHAT_SCRIPTS[0]}:1`);
		const lastFile = CHAT_SCRIPTS[CHAT_SCRIPTS.length - 1];
		const lastFileLines = readFileSync(path.join(CHAT_DIR, lastFile), 'utf8').replace(/\n$/, '').split('\n').length;
		expect(where(lastLine - 1)).toBe(`${lastFile}:${lastFileLines}`);
	});
});
