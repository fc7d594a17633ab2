/**
 * The Chromium the chat-page checks launch with playwright-core: $CHROMIUM_PATH when set,
 * else Debian's (/usr/bin/chromium, installed by .ci/chromium.sh), else Playwright's own
 * download (`npx playwright-core install chromium`) when it is there. The background-networking
 * flags keep it from reaching for hosts that this closed network refuses.
 */
import * as fs from 'node:fs';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumSearch {
	/** the browser to launch, when one was found */
	path?: string;
	/** where it looked, in order, for the message when none was found */
	tried: string[];
	/** why none is used, in words (undefined when one was found) */
	missing?: string;
}

function playwrightsOwn(): string | undefined {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { chromium } = require('playwright-core') as typeof import('playwright-core');
		return chromium.executablePath();
	} catch {
		return undefined;
	}
}

export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumSearch {
	const fromEnv = env.CHROMIUM_PATH?.trim();
	if (fromEnv) {
		// A path the user gave is the one to use: no silent fallback to another browser.
		if (fs.existsSync(fromEnv)) return { path: fromEnv, tried: [fromEnv] };
		return { tried: [fromEnv], missing: `CHROMIUM_PATH=${fromEnv} does not exist` };
	}
	const candidates = [DEBIAN_CHROMIUM, '/usr/bin/chromium-browser', playwrightsOwn()].filter((p): p is string => !!p);
	const found = candidates.find((p) => fs.existsSync(p));
	if (found) return { path: found, tried: candidates };
	return {
		tried: candidates,
		missing:
			`no Chromium found (looked at ${candidates.join(', ')}); install one with \`bash .ci/chromium.sh\` ` +
			'(Debian) or `npx playwright-core install chromium`, or set CHROMIUM_PATH=/path/to/chrome',
	};
}

/** The browser to launch: the one found, else Debian's path (whose absence the checks report). */
export const CHROMIUM = findChromium().path ?? DEBIAN_CHROMIUM;

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
