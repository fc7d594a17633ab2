/**
 * The memory a large file may take, as a multiple of the file: n8n's own in-memory handling
 * needs 2.33× (the file and its base64), and the node's decoding must stay within 2.5×.
 */
export const PEAK_LIMIT = 2.5;

/** What is wrong with a measured peak (above the limit, or not a number), or undefined when it holds. */
export function peakProblem(label: string, ratio: number): string | undefined {
	if (!Number.isFinite(ratio)) return `${label}: no peak measured`;
	if (ratio > PEAK_LIMIT) return `${label}: peak ${ratio.toFixed(2)}× the file, above the limit of ${PEAK_LIMIT}×`;
	return undefined;
}
