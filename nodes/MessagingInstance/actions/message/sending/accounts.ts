import type { IDataObject } from 'n8n-workflow';

import type { ItemParameters } from '../../parameters';
import { sameChat } from '../messageId';

/**
 * The run's numbers checked for an account before the first message (Only Numbers With an
 * Account). The server's Check Numbers route takes a list with no upper bound in its schema
 * (2.3.6–2.4: `minItems: 1`, `uniqueItems: true`; body up to 136 MB) and asks WhatsApp for the
 * numbers it has not cached in one query; the node still sends at most CHECK_BATCH numbers per
 * request, each once (a repeat is refused), so that one request stays small and quick.
 */
export const CHECK_BATCH = 100;

/**
 * An item's number as checked: `account` when the answer names it (in any form: digits, `+`,
 * a JID) with `exists: true` and never otherwise; `noAccount` when it names it any other way;
 * `notNamed` when the answer leaves it out (not sent either: nobody said it has an account).
 */
export interface CheckedNumber {
	number: string;
	verdict: 'account' | 'noAccount' | 'notNamed';
}

/** The verdict on one number from the check results (each a record, as the router's door read them). */
function verdictOn(number: string, results: readonly IDataObject[]): CheckedNumber['verdict'] {
	const naming = results.filter((result) => [result.number, result.jid].some((name) => sameChat(name, number)));
	if (naming.length === 0) return 'notNamed';
	return naming.every((result) => result.exists === true) ? 'account' : 'noAccount';
}

/** The checked number of each item that has one to check. */
export type AccountCheck = Map<number, CheckedNumber>;

/**
 * Checks the numbers of every item, grouped by instance, in batches. An item whose instance
 * or number cannot be read is left out (its own send fails with the field named); a group or
 * any other JID is left to the send (only phone numbers are checked). `checkNumbers` answers
 * the check results as a strict list of records, or throws (the router's door): then nothing
 * is sent.
 */
export async function checkAccounts(
	itemCount: number,
	itemParameters: (itemIndex: number) => ItemParameters,
	checkNumbers: (instance: string, numbers: string[]) => Promise<unknown>,
): Promise<AccountCheck> {
	const byInstance = new Map<string, Map<string, number[]>>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		let instance: string;
		let number: string;
		try {
			const params = itemParameters(itemIndex);
			instance = params.instanceName();
			number = params.recipient('number');
		} catch {
			continue;
		}
		if (number.includes('@')) continue;
		const numbers = byInstance.get(instance) ?? new Map<string, number[]>();
		byInstance.set(instance, numbers);
		numbers.set(number, [...(numbers.get(number) ?? []), itemIndex]);
	}
	const checked: AccountCheck = new Map();
	for (const [instance, numbers] of byInstance) {
		const all = [...numbers.keys()];
		for (let start = 0; start < all.length; start += CHECK_BATCH) {
			const batch = all.slice(start, start + CHECK_BATCH);
			const results = (await checkNumbers(instance, batch)) as IDataObject[];
			for (const number of batch) {
				const verdict = verdictOn(number, results);
				for (const itemIndex of numbers.get(number) ?? []) checked.set(itemIndex, { number, verdict });
			}
		}
	}
	return checked;
}
