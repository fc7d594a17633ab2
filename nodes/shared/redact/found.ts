/**
 * Secrets learnt from what passes by: the values an answer or a request holds under secret
 * names, and the user name and password of a URL.
 */
import { MAX_VALUES } from './limits';
import { isHarmlessHeader, isHeadersName, isSecretName } from './names';

/**
 * Every value an answer or a request holds under a secret name (an instance's `token`, a
 * webhook's headers): once seen, each is hidden wherever else it appears. Bounded like the walk.
 */
export function secretsIn(value: unknown): string[] {
	const found = new Set<string>();
	const stack: Array<{ value: unknown; inHeaders: boolean }> = [{ value, inHeaders: false }];
	let visited = 0;
	while (stack.length > 0 && visited < MAX_VALUES) {
		const current = stack.pop() as { value: unknown; inHeaders: boolean };
		if (current.value === null || typeof current.value !== 'object' || Buffer.isBuffer(current.value)) continue;
		const record = current.value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const entry = record[key];
			visited++;
			const byName = isSecretName(key) || (current.inHeaders && !isHarmlessHeader(key));
			if (byName && (typeof entry === 'string' || typeof entry === 'number') && String(entry).length <= 4_096) {
				found.add(String(entry));
			}
			if (entry !== null && typeof entry === 'object') stack.push({ value: entry, inHeaders: isHeadersName(key) });
		}
	}
	return [...found];
}

/** The user name and password of a URL (basic auth in the Base URL), which are secrets too. */
export function secretsOfUrl(url: string): string[] {
	// No user name or password without an `@`: nothing to parse (the trigger asks per delivery).
	if (!url.includes('@')) return [];
	try {
		const parsed = new URL(url);
		const parts = [parsed.username, parsed.password].map((part) => {
			try {
				return decodeURIComponent(part);
			} catch {
				return part;
			}
		});
		const [user, password] = parts;
		return [...parts, ...(user || password ? [`${user}:${password}`] : [])].filter((part) => part !== '');
	} catch {
		return [];
	}
}
