import type { ItemParameters } from '../../parameters';

/**
 * The run's numbers checked for an account before the first message (Only Numbers With an
 * Account). The server's Check Numbers route takes a list with no upper bound in its schema
 * (2.3.6–2.4: `minItems: 1`, `uniqueItems: true`; body up to 136 MB) and asks WhatsApp for the
 * numbers it has not cached in one query; the node still sends at most CHECK_BATCH numbers per
 * request, each once (a repeat is refused), so that one request stays small and quick.
 */
export const CHECK_BATCH = 100;

/** An item's number as checked: `exists` false means the server said it has no account. */
export interface CheckedNumber {
	number: string;
	exists: boolean;
}

/** The checked number of each item that has one to check. */
export type AccountCheck = Map<number, CheckedNumber>;

/**
 * Checks the numbers of every item, grouped by instance, in batches. An item whose instance
 * or number cannot be read is left out (its own send fails with the field named); a group or
 * any other JID is left to the send (only phone numbers are checked); a number the answer
 * does not name is sent to.
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
			const answer = await checkNumbers(instance, batch);
			const withoutAccount = new Set(
				(Array.isArray(answer) ? answer : [])
					.filter((entry) => (entry as { exists?: unknown } | null)?.exists === false)
					.map((entry) => (entry as { number?: unknown }).number),
			);
			for (const number of batch) {
				const exists = !withoutAccount.has(number);
				for (const itemIndex of numbers.get(number) ?? []) checked.set(itemIndex, { number, exists });
			}
		}
	}
	return checked;
}
