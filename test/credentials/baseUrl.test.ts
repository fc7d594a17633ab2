import { normaliseBaseUrl } from '../../nodes/shared/baseUrl';

/**
 * The Base URL as users paste it. A long run of slashes before `manager` made the old
 * `/\/+$/` trim try every slash of the run as a start: quadratic, seconds for 100,000 slashes
 * (beyond the test's time limit). The trim now walks the address once.
 */
describe('normaliseBaseUrl', () => {
	test.each([
		['https://evolution.example.com', 'https://evolution.example.com'],
		['  https://evolution.example.com/  ', 'https://evolution.example.com'],
		['https://evolution.example.com///', 'https://evolution.example.com'],
		['https://evolution.example.com/manager', 'https://evolution.example.com'],
		['https://evolution.example.com/MANAGER/', 'https://evolution.example.com'],
		['https://example.com/api/', 'https://example.com/api'],
		['https://example.com/manager/x', 'https://example.com/manager/x'],
		['', ''],
		['////', ''],
	])('%j becomes %j', (raw, expected) => {
		expect(normaliseBaseUrl(raw)).toBe(expected);
	});

	test('100,000 slashes before /manager are cut in one pass', () => {
		const raw = `https://evolution.example.com${'/'.repeat(100_000)}manager${'/'.repeat(100_000)}`;
		expect(normaliseBaseUrl(raw)).toBe('https://evolution.example.com');
	});
});
