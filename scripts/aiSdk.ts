/**
 * n8n's AI node SDK (@n8n/ai-node-sdk) for the chat memory's tests and bench, installed out of
 * the project's tree into the ignored folder `.ai-sdk/`.
 *
 * Why not a devDependency: the SDK's own dependencies (langchain, and an n8n-workflow whose
 * expression runtime wants isolated-vm, a native module that builds only on Node 24) would
 * make `npm ci` fail on the Node 20 the project develops on, and an npm `overrides` entry is
 * refused by n8n's community-package lint rules. In n8n the SDK is n8n's own (an optional peer
 * dependency of the package); here it is installed with its install scripts off, which is
 * enough: the memory uses only its JavaScript. Only Node built-ins, so jest's global setup and
 * tsx can both run it.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The SDK version n8n 2.40.7 ships, which the memory is tested with. */
export const AI_SDK_VERSION = '0.30.1';

/** Where the SDK is installed: `.ai-sdk/node_modules` of the repository. */
export const AI_SDK_MODULES = path.join(__dirname, '..', '.ai-sdk', 'node_modules');

function installedVersion(): string | undefined {
	try {
		const manifest = JSON.parse(fs.readFileSync(path.join(AI_SDK_MODULES, '@n8n', 'ai-node-sdk', 'package.json'), 'utf8')) as { version?: string };
		return manifest.version;
	} catch {
		return undefined;
	}
}

/** Installs the SDK into `.ai-sdk/` unless that version is there; returns its node_modules folder. */
export function ensureAiSdk(): string {
	if (installedVersion() === AI_SDK_VERSION) return AI_SDK_MODULES;
	const folder = path.dirname(AI_SDK_MODULES);
	fs.mkdirSync(folder, { recursive: true });
	fs.writeFileSync(path.join(folder, 'package.json'), '{ "private": true, "description": "n8n\'s AI node SDK for the chat memory\'s tests (scripts/aiSdk.ts)" }\n');
	const started = Date.now();
	process.stderr.write(`[ai-sdk] installing @n8n/ai-node-sdk@${AI_SDK_VERSION} into .ai-sdk/ (install scripts off) for the chat memory's tests…\n`);
	execFileSync(
		'npm',
		['install', '--prefix', folder, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `@n8n/ai-node-sdk@${AI_SDK_VERSION}`],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
	if (installedVersion() !== AI_SDK_VERSION) throw new Error(`[ai-sdk] @n8n/ai-node-sdk@${AI_SDK_VERSION} did not install into ${folder}`);
	process.stderr.write(`[ai-sdk] installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	return AI_SDK_MODULES;
}

/**
 * Makes `require('@n8n/ai-node-sdk')` (and its langchain) resolve from `.ai-sdk/` in this
 * process, as n8n's own module folder does for the package inside n8n: for tsx scripts (the bench).
 */
export function useAiSdk(): void {
	const modules = ensureAiSdk();
	const paths = (process.env.NODE_PATH ?? '').split(path.delimiter).filter((entry) => entry !== '');
	if (!paths.includes(modules)) process.env.NODE_PATH = [...paths, modules].join(path.delimiter);
	(require('node:module') as { Module: { _initPaths(): void } }).Module._initPaths();
}

if (require.main === module) {
	console.log(ensureAiSdk());
}
