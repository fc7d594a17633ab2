import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isRegistration } from '../shared/chatReply';
import { redactError } from '../shared/redact';
import { firstSighting, forget } from './dedupe';
import { parseDelivery, type Delivery, type DeliveryEvent } from './delivery';
import type { TriggerOptions } from './description';
import { deliverySettings } from './deliverySettings';
import { instanceNameOf } from './instance';
import { itemOf } from './items';
import { staticDataOf } from './state';
import { markCaughtUp, noteReceived, receivedOf } from './cursor';
import { sameSecret } from '../shared/secret';
import { SECRET_HEADER, SECRET_PARAM } from '../shared/secretUrl';
import { register, release, replyBody, resume, waitFor } from './waits';

/**
 * One delivery from the server: authorised (secret first), parsed once (delivery.ts),
 * filtered (instance, event, own messages, groups, repeats) and emitted, one item per event.
 *
 * Who answers: a delivery that starts the workflow is answered by n8n, after it recorded the
 * execution (or, in queue mode, queued it): the webhook is `onReceived` and the node never
 * writes to the response on that path, so a 2xx means "recorded", and an n8n that stops
 * before that answers nothing and the server delivers again. The body is `webhookResponse`
 * (the description's `responseData` is '', which makes n8n use it): `{"received":true}`,
 * never the message. A delivery that starts nothing is answered with `webhookResponse` too
 * (n8n answers it at once); only the refusals (401, 400, 409, 503) write their own status.
 */

/** The small JSON answer to a delivery that started the workflow (n8n sends it once the execution is recorded). */
export const ACCEPTED = { received: true };

function firstValue(value: unknown): unknown {
	return Array.isArray(value) ? value[0] : value;
}

function respond(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	ctx.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/** Acknowledged (200) so the server does not retry, and dropped: no workflow runs. */
function drop(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored: reason } };
}

/** Whether the delivery carries this node's secret: in the URL, or in our header. */
function authorised(ctx: IWebhookFunctions, accepted: string[]): boolean {
	if (accepted.length === 0) return false;
	const query = ctx.getQueryData() as IDataObject;
	const headers = ctx.getHeaderData();
	const given = [firstValue(query[SECRET_PARAM]), firstValue(headers[SECRET_HEADER])].filter(
		(value) => value !== undefined,
	);
	// Every copy that came must be right, and at least one must have come.
	return given.length > 0 && given.every((value) => sameSecret(value, accepted));
}

export function dropReasonOf(event: DeliveryEvent, options: TriggerOptions): string | undefined {
	if (!event.key) return undefined;
	if (options.ignoreOwnMessages && event.key.fromMe) return 'own message';
	if (options.ignoreGroups && event.key.isGroup) return 'group chat';
	return undefined;
}

export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	// n8n copies the node on every getNode(): once per delivery is enough.
	const node = ctx.getNode();
	const workflowId = ctx.getWorkflow().id ?? '';
	let settings = await deliverySettings(ctx, node, workflowId);
	// Refused by settings kept from an earlier delivery: read them again (the key may have changed).
	if (!authorised(ctx, settings.accepted) && !settings.fresh) settings = await deliverySettings(ctx, node, workflowId, true);
	if (!authorised(ctx, settings.accepted)) return respond(ctx, 401, 'Unauthorized');

	const body = ctx.getBodyData();
	if (isRegistration(body)) return registerWait(ctx, body);

	const parsed = parseDelivery(body, settings.hidden);
	if (!parsed.ok) return respond(ctx, 400, parsed.reason);
	const delivery = parsed.delivery;

	if (delivery.instance !== settings.instance) return drop('another instance');
	if (!settings.events.includes(delivery.eventName)) return drop('event not chosen');
	const options = settings.options;
	const scope = `${workflowId}|${node.id}|${ctx.getMode()}`;
	const emitted: DeliveryEvent[] = [];
	const reasons = new Set<string>();
	for (const event of delivery.events) {
		const reason = dropReasonOf(event, options) ?? (firstSighting(scope, event.dedupeKey) ? undefined : 'duplicate');
		if (reason) reasons.add(reason);
		else emitted.push(event);
	}
	if (emitted.length === 0) return drop(reasons.size > 0 ? [...reasons].join(', ') : 'no event in the delivery');

	let items: INodeExecutionData[];
	let answered = 0;
	try {
		const prepare = async (data: Buffer, fileName: string, mimeType: string) =>
			await ctx.helpers.prepareBinaryData(data, fileName, mimeType);
		// One event after the other: a batch's files are decoded one at a time, never all at once.
		items = [];
		for (const event of emitted) {
			const handled = await answersWait(ctx, delivery, event, options);
			if (handled === 'busy') {
				// The execution has not reached its wait yet: the server delivers again later
				// (it retries a 503), and then the reply finds it waiting.
				for (const each of emitted) forget(scope, each.dedupeKey);
				return respond(ctx, 503, 'The execution waiting for this reply is not ready yet; deliver again');
			}
			if (handled === 'answered') answered++;
			else items.push(markCaughtUp(await itemOf(delivery, event, options, prepare), false));
		}
	} catch (error) {
		for (const event of emitted) forget(scope, event.dedupeKey);
		throw new NodeOperationError(node, redactError(error as Error, settings.hidden));
	}
	if (items.length === 0) return { webhookResponse: { ...ACCEPTED, resumed: answered } };
	// Catch Up's cursor, at most once per LIVE_CURSOR_EVERY_MS (n8n saves it after recording the execution).
	if (options.catchUp) noteReceived(staticDataOf(ctx), receivedOf(delivery.eventName, emitted));
	// n8n answers this one itself, after WorkflowRunner.run recorded the execution.
	return { webhookResponse: ACCEPTED, workflowData: [items] };
}

/**
 * A Send and Wait for Response of the action node registers its wait for a chat's reply. The
 * answer is the node's own; no workflow runs. A test session's static data is never saved, so
 * only the active workflow's URL takes registrations.
 */
function registerWait(ctx: IWebhookFunctions, body: unknown): IWebhookResponseData {
	if (ctx.getMode() === 'manual') {
		return respond(ctx, 409, 'The trigger is listening for a test event; activate its workflow to wait for chat replies');
	}
	const result = register(staticDataOf(ctx), body, instanceNameOf(ctx), ctx.getNodeWebhookUrl('default'));
	ctx.getResponseObject().status(result.status).json(result.answer);
	return { noWebhookResponse: true };
}

/**
 * Hands the event to the execution waiting for its chat, if one does. `answered` when the
 * event is answered that way and starts no run of its own; `busy` when the execution is not
 * waiting yet; `emit` when it is emitted as usual (nobody waits, the waiting node asked for a
 * run too, or the execution is gone or unreachable).
 */
async function answersWait(
	ctx: IWebhookFunctions,
	delivery: Delivery,
	event: DeliveryEvent,
	options: TriggerOptions,
): Promise<'answered' | 'busy' | 'emit'> {
	const data = staticDataOf(ctx);
	const wait = waitFor(data, event);
	if (!wait) return 'emit';
	// The file goes to the waiting execution as base64, not into this workflow's binary data.
	let file: Parameters<typeof replyBody>[1];
	const capture = async (buffer: Buffer, fileName: string, mimeType: string): Promise<IBinaryData> => {
		file = { name: options.binaryPropertyName, data: buffer, fileName, mimeType };
		return { data: '', mimeType, fileName };
	};
	const item = await itemOf(delivery, event, options, capture);
	const outcome = await resume(ctx, wait, replyBody(item, file));
	if (outcome === 'busy') return 'busy';
	// Unreachable (n8n restarting, a network error): the entry stays for the next message.
	if (outcome !== 'failed') release(data, wait);
	return outcome === 'resumed' && !wait.alsoStartRun ? 'answered' : 'emit';
}
