import type { INodeProperties } from 'n8n-workflow';

/** The range a number must be in: an operation's own rule, or what its field declares. */
export interface NumberRule {
	min?: number;
	max?: number;
	integer?: boolean;
}

/** No number is taken past what JavaScript holds exactly: 2^53 + 2 would be sent as another number. */
const SAFE_RANGE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** The range a number field declares (`typeOptions.minValue`/`maxValue`); undefined for another field. */
export function rangeOf(property: INodeProperties): NumberRule | undefined {
	if (property.type !== 'number') return undefined;
	const min = property.typeOptions?.minValue;
	const max = property.typeOptions?.maxValue;
	return { ...(typeof min === 'number' ? { min } : {}), ...(typeof max === 'number' ? { max } : {}) };
}

/**
 * A value as a number within the operation's rule, else within the range its field declares,
 * and never past what JavaScript holds exactly (±2^53 − 1): a number field has a maximum
 * however it is set. The number, or what is wrong with it in words after the field's label.
 */
export function checkedNumber(value: unknown, given: NumberRule, declared: NumberRule | undefined): { value: number } | { problem: string } {
	const min = Math.max(given.min ?? declared?.min ?? SAFE_RANGE.min, SAFE_RANGE.min);
	const max = Math.min(given.max ?? declared?.max ?? SAFE_RANGE.max, SAFE_RANGE.max);
	const parsed = typeof value === 'string' && value.trim() !== '' && value.length <= 40 ? Number(value) : value;
	if (typeof parsed !== 'number' || !Number.isFinite(parsed)) return { problem: 'must be a number' };
	if (given.integer && !Number.isInteger(parsed)) return { problem: 'must be a whole number' };
	const between = `must be between ${min} and ${max}`;
	if (parsed < min) return { problem: max === SAFE_RANGE.max ? `must be at least ${min}` : between };
	if (parsed > max) return { problem: min === SAFE_RANGE.min ? `must be at most ${max}` : between };
	return { value: parsed };
}
