import type { IDataObject, IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

import { inputError } from '../../shared/errors';
import { normaliseRecipient, splitList } from '../../shared/normalise';

interface NumberRule {
	min?: number;
	max?: number;
	integer?: boolean;
}

function containsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(containsExpression);
	if (value && typeof value === 'object') return Object.values(value).some(containsExpression);
	return false;
}

/**
 * The node's parameters for one execution. A parameter without an expression has the same
 * value for every item, so it is resolved once; only expressions are evaluated per item,
 * which is most of what n8n spends per item on a node.
 */
export class ParameterSource {
	private readonly constants = new Map<string, unknown>();

	private readonly stored: Record<string, NodeParameterValueType | object>;

	constructor(readonly ctx: IExecuteFunctions) {
		this.stored = ctx.getNode().parameters;
	}

	get(name: string, itemIndex: number, fallback: unknown): unknown {
		if (this.constants.has(name)) return this.constants.get(name);
		const value = this.ctx.getNodeParameter(name, itemIndex, fallback);
		if (!containsExpression(this.stored[name])) this.constants.set(name, value);
		return value;
	}
}

/**
 * Reads one item's parameters. Every getter names the field by its label, so an input error
 * says which field of which item is wrong, and nothing has been sent yet.
 */
export class ItemParameters {
	constructor(
		private readonly source: ParameterSource,
		readonly itemIndex: number,
	) {}

	raw<T>(name: string, fallback?: T): T {
		return this.source.get(name, this.itemIndex, fallback) as T;
	}

	fail(label: string, problem: string, hint?: string): never {
		throw inputError(this.source.ctx.getNode(), this.itemIndex, label, problem, hint);
	}

	/** A required text: blank is an error. */
	text(name: string, label: string): string {
		const value = this.raw<unknown>(name, '');
		const text = value === null || value === undefined ? '' : String(value);
		if (text.trim() === '') this.fail(label, 'is required');
		return text;
	}

	/** A text the contract requires but the user may leave empty: sent as "". */
	textOrEmpty(name: string): string {
		const value = this.raw<unknown>(name, '');
		return value === null || value === undefined ? '' : String(value);
	}

	flag(name: string): boolean {
		return this.raw<boolean>(name, false) === true;
	}

	number(name: string, label: string, rule: NumberRule = {}): number {
		return this.checkNumber(this.raw<unknown>(name), label, rule);
	}

	checkNumber(value: unknown, label: string, rule: NumberRule = {}): number {
		const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof parsed !== 'number' || !Number.isFinite(parsed)) {
			this.fail(label, 'must be a number');
		}
		if (rule.integer && !Number.isInteger(parsed)) this.fail(label, 'must be a whole number');
		if (rule.min !== undefined && parsed < rule.min) {
			this.fail(label, rule.max !== undefined ? `must be between ${rule.min} and ${rule.max}` : `must be at least ${rule.min}`);
		}
		if (rule.max !== undefined && parsed > rule.max) {
			this.fail(label, rule.min !== undefined ? `must be between ${rule.min} and ${rule.max}` : `must be at most ${rule.max}`);
		}
		return parsed;
	}

	/** A phone number (normalised to digits) or a JID (trimmed). */
	recipient(name: string, label: string): string {
		return this.checkRecipient(this.raw<unknown>(name, ''), label);
	}

	checkRecipient(value: unknown, label: string): string {
		const normalised = normaliseRecipient(value === null || value === undefined ? '' : String(value));
		if ('problem' in normalised) {
			this.fail(
				label,
				normalised.problem,
				'Enter the number with country code, e.g. +55 11 99999-0000, or a JID such as 5511999990000@s.whatsapp.net.',
			);
		}
		return normalised.value;
	}

	/** Numbers or JIDs separated by commas or new lines, each normalised like a recipient. */
	recipientList(name: string, label: string): string[] {
		return this.checkRecipientList(this.raw<unknown>(name, ''), label);
	}

	checkRecipientList(value: unknown, label: string): string[] {
		const items = splitList(Array.isArray(value) ? value.map(String) : String(value ?? ''));
		return items.map((item, position) => this.checkRecipient(item, `${label} (entry ${position + 1})`));
	}

	collection(name: string): IDataObject {
		return this.raw<IDataObject>(name, {}) ?? {};
	}
}
