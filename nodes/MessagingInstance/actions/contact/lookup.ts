import { RECIPIENT_HINT, recipientProperty } from '../fields';
import type { Operation } from '../types';

/** A question about one number (`{ number }` in the body), answered with one object. */
export function contactLookup(spec: Pick<Operation, 'value' | 'name' | 'action' | 'description'> & { path: string; whose: string; hint?: string }): Operation {
	const { path, whose, hint = RECIPIENT_HINT, ...names } = spec;
	return {
		resource: 'contact',
		...names,
		v2Only: true,
		properties: [recipientProperty(whose, hint)],
		path,
		buildBody: (params) => ({ number: params.recipient('number') }),
	};
}
