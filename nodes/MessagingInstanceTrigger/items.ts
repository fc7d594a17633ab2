import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { base64ProblemText, decodeBase64Text } from '../shared/files';
import type { Delivery, DeliveryEvent } from './delivery';
import type { TriggerOptions } from './description';

/**
 * The output item of one event of a delivery. The only place that decides an item's shape.
 */

export type PrepareBinary = (data: Buffer, fileName: string, mimeType: string) => Promise<IBinaryData>;

/** The event's data without the file, once the file is in the item's binary data. */
function withoutFile(data: IDataObject): IDataObject {
	const { base64: _file, ...content } = data.message as IDataObject;
	return { ...data, message: content };
}

function simplifiedMessage(
	delivery: Delivery,
	key: NonNullable<DeliveryEvent['key']>,
	message: NonNullable<DeliveryEvent['message']>,
): IDataObject {
	const { media } = message;
	return {
		event: delivery.event,
		instance: delivery.instance,
		chatId: key.chatId,
		remoteJid: key.remoteJid,
		sender: key.sender,
		senderLid: key.senderLid,
		fromMe: key.fromMe,
		messageId: key.id,
		pushName: message.pushName,
		messageType: message.type,
		text: message.text,
		textFrom: message.textFrom,
		sentBy: message.sentBy,
		isGroup: key.isGroup,
		timestamp: message.timestamp,
		...(media ? { media: { ...media } } : {}),
	};
}

export async function itemOf(
	delivery: Delivery,
	event: DeliveryEvent,
	options: TriggerOptions,
	prepareBinary: PrepareBinary,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: {} };
	const message = event.message;
	let data = event.data;
	let mediaError: string | undefined;
	if (options.mediaAsBinary && message?.file && message.media) {
		const decoded = decodeBase64Text(message.file.base64, options.maxFileBytes);
		if (decoded.ok) {
			item.binary = {
				[options.binaryPropertyName]: await prepareBinary(decoded.data, message.file.name, message.media.mimeType),
			};
		} else {
			// No file rather than a wrong one: the item says why, and the workflow goes on.
			mediaError = `No binary data: ${base64ProblemText(decoded.problem, options.maxFileBytes)}`;
		}
		// The file is in the binary data only, not a second time in the JSON (nor a broken one at all).
		data = withoutFile(data);
	}
	const raw: IDataObject = { ...delivery.envelope, data };
	if (options.outputFormat === 'raw') {
		item.json = { ...raw, dedupeKey: event.dedupeKey, ...(mediaError ? { mediaError } : {}) };
		return item;
	}
	const simplified =
		message && event.key
		? simplifiedMessage(delivery, event.key, message)
		: { ...data, event: delivery.event, instance: delivery.instance };
	item.json = {
		...simplified,
		dedupeKey: event.dedupeKey,
		...(mediaError ? { mediaError } : {}),
		...(options.includeRaw ? { raw } : {}),
	};
	return item;
}
