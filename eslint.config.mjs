// Lint for the shipped code (nodes/, credentials/, package.json) with both n8n rule sets,
// every rule as its plugin ships it.
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import communityNodes from '@n8n/eslint-plugin-community-nodes';

const legacy = (name) => n8nNodesBase.configs[name].rules;

export default [
	{
		ignores: ['dist/**', 'node_modules/**', '.n8n-runtime/**', '.n8n-dev/**', 'coverage/**'],
	},
	{
		...communityNodes.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: legacy('credentials'),
	},
	{
		files: ['nodes/**/*.ts'],
		rules: legacy('nodes'),
	},
	{
		files: ['package.json'],
		// typescript-estree reads a .json file as one object expression, which is what
		// both plugins' package.json rules walk.
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacy('community'),
	},
];
