/** The account state of an instance (../accounts.ts), made on first use: instances given at start are connected. */
import { newAccount, type Account } from '../accounts';
import type { Instance } from '../types';

export function accountOf(inst: Instance): Account {
	inst.account ??= newAccount('open');
	return inst.account;
}
