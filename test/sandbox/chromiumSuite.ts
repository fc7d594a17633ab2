import * as fs from 'node:fs';

import { CHROMIUM } from '../../scripts/chromium';

export const haveChromium = fs.existsSync(CHROMIUM);

/**
 * `describe` for a suite that drives the chat page in Debian's Chromium; without
 * /usr/bin/chromium it is skipped with a warning, except with CI=true, where its beforeAll
 * should fail (`haveChromium` is false).
 */
export function chromiumSuite(testFile: string): jest.Describe {
	if (haveChromium) return describe;
	if (process.env.CI === 'true') return describe;
	console.warn(
		`SKIPPING ${testFile}: ${CHROMIUM} is missing, so the chat page is not tested in a browser.\n` +
			'Install it with `bash .ci/chromium.sh` (Debian: apt-get install -y chromium). With CI=true this suite fails instead.',
	);
	return describe.skip;
}
