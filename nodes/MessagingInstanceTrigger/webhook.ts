import { createHash } from 'node:crypto';
import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { configEventName } from '../shared/events';
import { sameSecret } from '../shared/secret';
import { firstSighting, forget } from './dedupe';
import {
	asEnvelope,
	fileNameOf,
	isGroupJid,
	mediaOf,
	messageKeyOf,
	simplifiedEvent,
	simplifiedMessage,
	withoutSecrets,
	type Envelope,
} from './delivery';
import { readOptions } from './description';
import { SECRET_HEADER, SECRET_PARAM, staticDataOf } from './registration';

/**
 * One delivery from the server: checked (secret, shape), filtered (instance, event, own
 * messages, groups, repeats) and turned into one output item. Anything that is not emitted
 * is answered right here, so no workflow starts for it.
 */

function firstValue(value: unknown): unknown {
	return Array.isArray(value) ? value[0] : value;
}

function respond(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

/** Acknowledged (200) so the server does not retry, and dropped: no workflow runs. */
function drop(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored: reason } };
}

/** Whether the delivery carries this node's secret: in the URL, or (v2) in our header. */
function authorised(ctx: IWebhookFunctions, secret: string | undefined): boolean {
	if (!secret) return false;
	const query = ctx.getQueryData() as IDataObject;
	const headers = ctx.getHeaderData();
	const given = [firstValue(query[SECRET_PARAM]), firstValue(headers[SECRET_HEADER])].filter(
		(value) => value !== undefined,
	);
	// Every copy that came must be right, and at least one must have come.
	return given.length > 0 && given.every((value) => sameSecret(value, secret));
}

/** What makes two deliveries the same event: the message id, or else the whole body. */
function dedupeKey(envelope: Envelope): string {
	const key = messageKeyOf(envelope.data);
	if (key?.id) return `${envelope.event}|${key.remoteJid}|${key.id}`;
	return `${envelope.event}|${createHash('sha256').update(JSON.stringify(envelope)).digest('hex')}`;
}

function withoutBase64(clean: IDataObject): IDataObject {
	const data = clean.data as IDataObject | undefined;
	const message = data?.message as IDataObject | undefined;
	if (!message || typeof message !== 'object' || !('base64' in message)) return clean;
	const { base64: _dropped, ...rest } = message;
	return { ...clean, data: { ...data, message: rest } };
}

export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const data = staticDataOf(ctx);
	if (!authorised(ctx, data.secret)) return respond(ctx, 401, 'Unauthorized');

	const envelope = asEnvelope(ctx.getBodyData());
	if (!envelope) {
		return respond(ctx, 400, 'Expected a JSON object with "event", "instance" and "data"');
	}

	const instance = String(ctx.getNodeParameter('instance', '')).trim();
	if (envelope.instance !== instance) return drop('another instance');

	const events = ctx.getNodeParameter('events', []) as string[];
	if (!events.includes(configEventName(envelope.event))) return drop('event not chosen');

	const options = readOptions(ctx.getNodeParameter('options', {}));
	const key = messageKeyOf(envelope.data);
	if (key && options.ignoreOwnMessages && key.fromMe) return drop('own message');
	if (key && options.ignoreGroups && isGroupJid(key.remoteJid)) return drop('group chat');

	const scope = `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().id}|${ctx.getMode()}`;
	const seenKey = dedupeKey(envelope);
	if (!firstSighting(scope, seenKey)) return drop('duplicate');

	try {
		return { workflowData: [[await toItem(ctx, envelope, data.secret ?? '', options)]] };
	} catch (error) {
		forget(scope, seenKey);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

async function toItem(
	ctx: IWebhookFunctions,
	envelope: Envelope,
	secret: string,
	options: ReturnType<typeof readOptions>,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: {} };

	const eventData = envelope.data as IDataObject;
	const message = eventData?.message as IDataObject | undefined;
	const base64 = typeof message?.base64 === 'string' ? message.base64 : undefined;
	const media = mediaOf(message);
	if (options.mediaAsBinary && base64 && media) {
		const key = messageKeyOf(envelope.data);
		const fileName = fileNameOf(media, key?.id ?? '');
		const buffer = Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64');
		item.binary = {
			[options.binaryPropertyName]: await ctx.helpers.prepareBinaryData(
				buffer,
				fileName,
				media.mimeType,
			),
		};
	}
	// The file leaves the JSON before the secrets are searched for, so a large media body is
	// not scanned for nothing.
	const movedToBinary = item.binary !== undefined;
	const clean = withoutSecrets(movedToBinary ? (withoutBase64(envelope) as Envelope) : envelope, [secret]);

	if (options.outputFormat === 'raw') {
		item.json = clean;
		return item;
	}
	const cleanEnvelope = clean as Envelope;
	const cleanData = cleanEnvelope.data;
	const key = messageKeyOf(cleanData);
	const simplified =
		key && !Array.isArray(cleanData) && cleanData.message && typeof cleanData.message === 'object'
			? simplifiedMessage(cleanEnvelope, cleanData, key)
			: simplifiedEvent(cleanEnvelope);
	item.json = options.includeRaw ? { ...simplified, raw: clean } : simplified;
	return item;
}
