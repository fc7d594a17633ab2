/**
 * Debian's Chromium (installed by .ci/chromium.sh), as the chat-page checks launch it with
 * playwright-core. The background-networking flags keep it from reaching for hosts that this
 * closed network refuses.
 */
export const CHROMIUM = '/usr/bin/chromium';

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
