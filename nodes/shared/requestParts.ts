/**
 * What a value of the user's may become in a request's URL: one path segment or one query
 * value, checked before anything is sent. Every id that goes into a path passes
 * `segmentProblem` (through ItemParameters.pathSegment), and the transport checks every path
 * again, so no operation can send a path that the HTTP client would resolve into another route.
 */

/** Longer path segments are refused: no server id is near it, and proxies refuse long URLs (HTTP 414/431). */
export const MAX_PATH_SEGMENT_BYTES = 2 * 1024;

/** Longer query values are refused, for the same reason. */
export const MAX_QUERY_VALUE_BYTES = 8 * 1024;

/** `%2e`, `%2E`, `%252e`…: a dot however often it was encoded. */
function decoded(segment: string): string {
	let text = segment;
	for (let round = 0; round < 4 && text.includes('%'); round++) {
		try {
			const next = decodeURIComponent(text);
			if (next === text) break;
			text = next;
		} catch {
			break;
		}
	}
	return text;
}

/** Whether a segment would be read as `.` or `..` by the URL parser or by a server that decodes it. */
export function isDotSegment(segment: string): boolean {
	const text = decoded(segment).trim();
	return text === '.' || text === '..';
}

/** What is wrong with a value as one path segment, in words after the field's label; undefined when it may go. */
export function segmentProblem(value: string): string | undefined {
	if (isDotSegment(value)) return `cannot be "${value.trim().slice(0, 20)}": in a URL it means another path`;
	const bytes = Buffer.byteLength(value, 'utf8');
	if (bytes > MAX_PATH_SEGMENT_BYTES) return `is too long to go into the request's path (${bytes.toLocaleString('en-US')} bytes; at most ${MAX_PATH_SEGMENT_BYTES.toLocaleString('en-US')})`;
	return undefined;
}

/** What is wrong with a query value, in words after the field's label; undefined when it may go. */
export function queryValueProblem(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const bytes = Buffer.byteLength(value, 'utf8');
	if (bytes > MAX_QUERY_VALUE_BYTES) return `is too long to go into the request's query (${bytes.toLocaleString('en-US')} bytes; at most ${MAX_QUERY_VALUE_BYTES.toLocaleString('en-US')})`;
	return undefined;
}

/**
 * The problem of a whole path about to be sent (every segment as encoded), or undefined: the
 * transport's last check, for a path some operation built without `pathSegment`.
 */
export function pathProblem(path: string): string | undefined {
	const segments = path.split('/');
	for (const segment of segments) {
		if (isDotSegment(segment)) return `has a segment "${segment.slice(0, 20)}" that would resolve into another path`;
		if (segment.length > MAX_PATH_SEGMENT_BYTES * 3) return `has a segment too long for a URL (${segment.length.toLocaleString('en-US')} characters)`;
	}
	return undefined;
}
