import type { IDataObject } from 'n8n-workflow';

import { chatIdOf, MAX_WAIT_MS, WAIT_KEY } from '../../../../shared/chatReply';
import type { Dialect } from '../../../../shared/dialect';
import { sameSecret } from '../../../../shared/secret';
import { scopeInUrl, secretInUrl, SECRET_HEADER } from '../../../../shared/secretUrl';
import type { ItemParameters } from '../../parameters';
import type { BuiltRequest, OperationRun } from '../../types';
import { chatReplySettings, type ReadParameter, type Fail } from './settings';

/**
 * Send and Wait for Response with the answer given in the chat (`chatReply`), the action's
 * side: before the message goes out, the wait is registered with the Messaging Instance
 * Trigger that receives the instance's messages (found as the instance's webhook, which
 * carries the trigger's secret); the trigger hands that chat's next message to this
 * execution's resume URL. The node itself stores nothing.
 */

const RESPONSE_TYPE = 'Response Type';
const TRIGGER_HINT =
	'Add a Messaging Instance Trigger for this instance with the event Messages Upsert and activate its workflow: the reply reaches this execution through it.';

/** The message with its choices as a numbered list, and how to answer. */
export function chatReplyText(message: string, choices: readonly string[]): string {
	if (choices.length === 0) return message;
	return [message, choices.map((choice, index) => `${index + 1}. ${choice}`).join('\n'), '_Reply with the number or the text of your choice._'].join('\n\n');
}

/** The trigger's webhook of the instance, and its secret, or a clear error before anything is sent. */
async function triggerOf(params: ItemParameters, dialect: Dialect, run: OperationRun, instance: string): Promise<{ url: string; secret: string }> {
	if (!dialect.hasWebhookFind) {
		params.fail(RESPONSE_TYPE, 'Reply in the Chat needs a v2.x server', 'The node reads the instance\'s webhook to find its trigger; servers of the documented interface have no such route.');
	}
	const found = await run.instanceWebhook(instance, params.itemIndex);
	if (!found || !found.enabled) {
		params.fail(RESPONSE_TYPE, `Reply in the Chat: the instance "${instance}" has no webhook, so no trigger receives its messages`, TRIGGER_HINT);
	}
	// The registration carries this execution's resume link: it goes only to this n8n, to a
	// trigger whose secret this credential's API key derives (compared in constant time).
	const target = new URL(found.url);
	const own = new URL(run.resumeUrl({}));
	if (target.origin !== own.origin) {
		params.fail(
			RESPONSE_TYPE,
			`Reply in the Chat: the webhook of instance "${instance}" is on ${target.origin.slice(0, 100)}, not on this n8n (${own.origin}); the wait is not registered there`,
			`${TRIGGER_HINT} If the trigger is on this n8n, check that its webhook URL (WEBHOOK_URL) is the address n8n gives its waiting executions too.`,
		);
	}
	const secret = secretInUrl(found.url);
	const header = Object.entries(found.headers).find(([name]) => name.toLowerCase() === SECRET_HEADER)?.[1];
	if (!secret || (header !== undefined && header !== secret)) {
		params.fail(RESPONSE_TYPE, `Reply in the Chat: the webhook of instance "${instance}" is not a Messaging Instance Trigger's`, TRIGGER_HINT);
	}
	const scope = scopeInUrl(found.url);
	const expected = scope ? run.triggerSecret(scope) : undefined;
	if (!expected || !sameSecret(secret, expected)) {
		params.fail(
			RESPONSE_TYPE,
			`Reply in the Chat: the webhook of instance "${instance}" carries a secret this credential's API key does not give`,
			`${TRIGGER_HINT} A trigger activated before this version, or with another credential, registers again when its workflow is deactivated and activated.`,
		);
	}
	if (target.pathname.includes('/webhook-test/')) {
		params.fail(
			RESPONSE_TYPE,
			`Reply in the Chat: the trigger of instance "${instance}" is listening for a test event`,
			'Activate the trigger\'s workflow: a test listener stops after one event and keeps nothing.',
		);
	}
	if (!found.events.includes('MESSAGES_UPSERT')) {
		params.fail(RESPONSE_TYPE, `Reply in the Chat: the trigger of instance "${instance}" does not receive messages`, 'Add the event Messages Upsert to the trigger and activate its workflow again.');
	}
	return { url: found.url, secret };
}

/** What the trigger answered, in words: its own message when it gave one. */
function refusalOf(status: number, body: unknown): string {
	const message = body && typeof body === 'object' ? (body as IDataObject).message : undefined;
	const text = typeof message === 'string' ? message.slice(0, 200) : `HTTP ${status}`;
	return `the trigger did not take the wait (${status === 0 ? 'no answer' : status}: ${text})`;
}

/**
 * Registers the wait with the trigger and builds the message: a text (with numbered choices),
 * or a poll. Every check and the registration happen before the send; a refusal sends nothing.
 */
export async function chatReplyRequest(params: ItemParameters, dialect: Dialect, run: OperationRun, waitTill: Date, now = Date.now()): Promise<BuiltRequest> {
	const read: ReadParameter = (name) => params.raw<unknown>(name);
	const fail: Fail = (label, problem) => params.fail(label, problem);
	const number = params.recipient('number');
	const message = params.text('message').trim();
	const settings = chatReplySettings(read, fail);
	const instance = params.instanceName();
	const trigger = await triggerOf(params, dialect, run, instance);
	const expiresAt = new Date(Math.min(waitTill.getTime(), now + MAX_WAIT_MS)).toISOString();
	const registration = {
		[WAIT_KEY]: { instance, chatId: chatIdOf(number), resumeUrl: run.resumeUrl({}), expiresAt, alsoStartRun: settings.alsoStartRun },
	};
	let answer: { status: number; body: unknown };
	try {
		answer = await run.postToN8n(trigger.url, registration, { [SECRET_HEADER]: trigger.secret });
	} catch {
		// The error would name the trigger's URL, secret included: it is said in words instead.
		return params.fail(RESPONSE_TYPE, 'Reply in the Chat: the trigger\'s webhook could not be reached', 'Check that n8n reaches its own webhook URL (WEBHOOK_URL) from where it runs.');
	}
	const taken = answer.status === 200 && !!answer.body && typeof answer.body === 'object' && (answer.body as IDataObject).waiting === true;
	if (!taken) params.fail(RESPONSE_TYPE, `Reply in the Chat: ${refusalOf(answer.status, answer.body)}`, TRIGGER_HINT);
	if (settings.asPoll) {
		return { route: '/message/sendPoll', body: { number, name: message, selectableCount: 1, values: settings.choices } };
	}
	return { body: { number, text: chatReplyText(message, settings.choices), linkPreview: false } };
}
