/**
 * What a user or n8n's execution data may never see: the API key, instance tokens, webhook
 * secrets and the password of a base URL. Every path of both nodes and the credential's
 * messages goes through here: output items, errors (message, description, stack, cause,
 * `httpCode`, context), log lines and the trigger's static data.
 *
 * Two ways a secret is found:
 * - by value: each known secret in its raw, URL-encoded, JSON-escaped and base64 forms, in
 *   any letter case, inside any text and any key. A secret shorter than MIN_SEARCHED_LENGTH
 *   would match ordinary text (a token `4` inside `HTTP 400`): it is removed where it is a
 *   field's whole value, and in a text only as a word of its own (a secret of two or more
 *   characters not touching another letter or digit: `key 42 refused`, never `HTTP 420`);
 * - by name: the value under a key that names a secret (`token`, `apikey`, `authorization`,
 *   `password`, `clientSecret`, …, compared case-insensitively without `-`/`_`), the values
 *   of a `headers` object except harmless ones, and `?secret=`-like query parameters and
 *   `user:password@` parts of URLs inside any text.
 *
 * The parts: ./names.ts (by name), ./search.ts (by value), ./walk.ts (values), ./found.ts
 * (secrets learnt from answers and URLs), ./redactor.ts (one set of secrets), ./limits.ts.
 *
 * The walk is bounded by size (values visited, characters searched), not by a depth that a
 * secret could hide below, and it uses an explicit stack, so no nesting overflows it.
 */

import { Redactor } from './redactor';

export { REDACTED, MAX_MESSAGE_LENGTH, MAX_VALUES, MAX_DEPTH, CUT, cut } from './limits';
export { MIN_SEARCHED_LENGTH, withoutSecretParams } from './search';
export { isSecretName } from './names';
export { secretsIn, secretsOfUrl } from './found';
export { Redactor };

/** The text with every form of every secret replaced. */
export function redactText(text: string, secrets: Iterable<unknown>): string {
	return new Redactor(secrets).text(text);
}

/** A copy of a JSON-like value without the secrets: in strings, in keys, and under keys that name a secret. */
export function redactDeep<T>(value: T, secrets: Iterable<unknown>): T {
	return new Redactor(secrets).deep(value);
}

/** Takes the secrets out of an error in place, keeping its class, and cuts its texts to a readable length. */
export function redactError<T>(error: T, secrets: Iterable<unknown>): T {
	return new Redactor(secrets).error(error);
}
